package pareto

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/internal/pause"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/plot"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
)

// paretoPanelWidth is the width of the details beside the plot;
// panelValueWidth, of a value after its 10-cell label and a space.
const (
	paretoPanelWidth = 34
	panelValueWidth  = paretoPanelWidth - 11
)

// selectedRune marks the selected trajectory.
const selectedRune = '◎'

// densityRunes shade a cell by how many points share it (chart.Level):
// from a few to the most any cell holds.
var densityRunes = [...]rune{'░', '▒', '▓', '█'}

// dimmedRune is a lone point of a dimmed group: fainter than any rank's
// marker.
const dimmedRune = '⠄'

// infeasibleRune is a point that breaks a constraint: hollow, and dimmed.
const infeasibleRune = '○'

// maxParetoZoom is the deepest zoom: 2^maxParetoZoom times. At ×256 a
// cell of a 100-column plot spans 1/25600 of the data's range, finer than
// the four digits the panel shows; deeper zooms showed empty cells only.
const maxParetoZoom = 8

type paretoKeyMap struct {
	NextX, NextY         key.Binding
	Prev, Next           key.Binding
	PrevGroup, NextGroup key.Binding
	ZoomIn, ZoomOut      key.Binding
	PanLeft, PanRight    key.Binding
	PanUp, PanDown       key.Binding
	ResetView            key.Binding
	OnlyGroup            key.Binding
	Open, Close          key.Binding
	Ends                 key.Binding // the reader's home and end (common.ScrollReader)
	// Click has no key: the help says what a mouse click does.
	Click key.Binding
}

func newParetoKeyMap() paretoKeyMap {
	return paretoKeyMap{
		NextX:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "next x objective")),
		NextY:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "next y objective")),
		Prev:      key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous point by x")),
		Next:      key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next point by x")),
		PrevGroup: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous group")),
		NextGroup: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next group")),
		ZoomIn:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/wheel", "zoom in on the selection")),
		ZoomOut:   key.NewBinding(key.WithKeys("-"), key.WithHelp("-/wheel", "zoom out")),
		PanLeft:   key.NewBinding(key.WithKeys("shift+left", "h"), key.WithHelp("h/⇧←", "pan left")),
		PanRight:  key.NewBinding(key.WithKeys("shift+right", "l"), key.WithHelp("l/⇧→", "pan right")),
		PanUp:     key.NewBinding(key.WithKeys("shift+up", "k"), key.WithHelp("k/⇧↑", "pan up")),
		PanDown:   key.NewBinding(key.WithKeys("shift+down", "j"), key.WithHelp("j/⇧↓", "pan down")),
		ResetView: key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "reset the view")),
		OnlyGroup: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "only this group / all")),
		Open:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the trajectory")),
		Close:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the plot"), key.WithDisabled()),
		Ends:      common.ReaderEndsKey(key.WithDisabled()),
		Click:     key.NewBinding(key.WithHelp("click", "select the nearest point")),
	}
}

// paretoTab plots the current batch on two objectives. Ranks are those of
// the scope's comparison groups: with scope group, the selected point's
// group is drawn in rank colours and the others dimmed (or hidden); with
// scope batch, every point in its batch rank's colour. A cell several
// points share is shaded by their number. The view zooms on the selection
// and pans; enter opens the selected trajectory.
type paretoTab struct {
	common        *common.Common
	keys          paretoKeyMap
	width, height int

	// points are the batch's points on the axes, ranked and grouped.
	points paretoPoints
	// pending is the points a job computes (projected and indexed, or
	// the points shown indexed again), gen numbering the asks (a message
	// of an older one is dropped); computing says one runs.
	pending   projecting
	gen       int
	computing bool
	// selected is a position in points.proj, selectedAt its trajectory
	// (noteSelection), found again when follow mode read files again;
	// onlyGroup hides the other groups.
	selected   int
	selectedAt trajectory.Selection
	onlyGroup  bool
	// view is the part of the plane shown; drawn, the frame drawn of it
	// and its caches; reader, the selected trajectory opened.
	view   paretoView
	drawn  paretoFrame
	reader paretoReader
}

// paretoPoints are the points the plot shows: the valid trajectories of
// the batch on two objectives, with their ranks and groups.
type paretoPoints struct {
	// xObj and yObj are the objectives on the axes: defaultAxes until
	// axesChosen (by the keys, or by defaultAxes on a batch with a valid
	// trajectory).
	xObj, yObj int
	axesChosen bool
	// projected is the points, of projected.key: another key projects
	// them again.
	projected
}

// projected is a batch's points on two axes and their index: what the
// tab's job computes of a large batch, off the event loop.
type projected struct {
	// key says what proj was built from.
	key  projectionKey
	proj diagnose.Projection
	// byXY is every point's position in the order of (x, y, index), which
	// groups larger than sortAlone take their order from (indexPoints),
	// nil when there are none.
	byXY []int
	pointIndex
	// data is the points' own ranges (dataRanges); full, the unzoomed
	// view's (fullRanges).
	data, full [4]float64
}

// projectPoints projects batch bi of res on key's axes, and indexes the
// points under res's ranking, waiting at gate in between (nil on the
// event loop).
func projectPoints(res *engine.Result, bi int, key projectionKey, gate *pause.Gate) projected {
	batch := &res.Ranking.Batches[bi]
	p := projected{key: key, proj: diagnose.Project(res, bi, key.x, key.y)}
	gate.Wait()
	p.pointIndex, p.byXY = indexPoints(res, batch, p.proj, nil)
	p.data = dataRanges(p.proj)
	p.full = fullRanges(p.data, len(p.proj.X))
	return p
}

// fullRanges returns the unzoomed view's x and y ranges of points whose
// own are data (chart.Span of each), 0 to 1 without points.
func fullRanges(data [4]float64, n int) [4]float64 {
	full := [4]float64{0, 1, 0, 1}
	if n > 0 {
		full[0], full[1] = chart.Span(data[0], data[1], false)
		full[2], full[3] = chart.Span(data[2], data[3], false)
	}
	return full
}

// reindexed returns p's points indexed under res's ranking of batch bi,
// p's batch (another scope groups it otherwise).
func (p projected) reindexed(res *engine.Result, bi int) projected {
	p.pointIndex, p.byXY = indexPoints(res, &res.Ranking.Batches[bi], p.proj, p.byXY)
	return p
}

// paretoView is the part of the plane shown: the centre and the zoom
// level (2^zoom times); panned says the centre was moved from the full
// view's.
type paretoView struct {
	zoom   int
	cx, cy float64
	panned bool
}

// paretoFrame is the plot drawn and what drawing it again would redo.
type paretoFrame struct {
	frame *plot.Frame
	// frameView is frame rendered, "" until View renders it again;
	// frameDark, the background of the styles frame was drawn with.
	frameView string
	frameDark bool
	// density is every point counted in frame's cells, recounted only
	// when frame's grid or the points change.
	density
	// groupCounts and groupBest are the same of the selected group's
	// points alone (markGroup), with scope group; groupShared says a cell
	// holds several of them.
	groupCounts, groupBest []int32
	groupShared            bool
}

// paretoReader is the selected trajectory, open when reading, read
// again from its file off the event loop when the session keeps it lean
// (the tab's job).
type paretoReader struct {
	reading bool
	trajectory.Reading
	detail viewport.Model
}

// projectionKey identifies the data a projection was built from: the
// evaluation (values and validity; a recompute with other options keeps
// it), the batch and its size (follow mode appends to it), the axes, and
// the session's Reloads (the trajectories' indices hold while it stays).
type projectionKey struct {
	eval                    *engine.Evaluation
	batch, n, x, y, reloads int
}

// density is chart.Density of a projection's points in a grid: each
// cell's count of them and best rank, and what they were counted of.
type density struct {
	of           densityKey
	counts, best []int32
}

// densityKey identifies the counts of one projection, ranked by one
// ranking, in one grid.
type densityKey struct {
	proj    projectionKey
	ranking *engine.Ranking
	grid    chart.Grid
}

// projectOnLoopBelow is the batch size from which the points are
// projected and indexed off the event loop, as the tab's job
// (common.Worker): below it, that takes less than a frame, and the plot
// is drawn without a "computing…" between.
var projectOnLoopBelow = 1 << 16

// projecting is the points asked of a job and not yet landed.
type projecting struct {
	// key and ranking are what the points asked are of, and indexed by.
	key     projectionKey
	ranking *engine.Ranking
	// job is the work not yet handed out (Job), nil once it was.
	job func() tea.Msg
}

// projectedMsg is a job's points, asked as gen.
type projectedMsg struct {
	gen int
	projected
	// density is the points counted in the grid the job expected them
	// drawn in; nil counts when not counted.
	density density
}

// New returns the Pareto tab.
func New(c *common.Common) common.Tab {
	return &paretoTab{common: c, keys: newParetoKeyMap(), points: paretoPoints{yObj: 1}, reader: paretoReader{detail: viewport.New()}}
}

func (t *paretoTab) Title() string { return "Pareto" }

func (t *paretoTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.reader.detail.SetWidth(width)
	t.reader.detail.SetHeight(max(height-1, 1))
	t.draw()
}

func (t *paretoTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	cmd := t.update(msg)
	t.noteSelection()
	return t, tea.Batch(cmd, t.selectedAt.GoneNotice(&t.reader.Reading))
}

// noteSelection notes the selected trajectory, for install to find it
// after follow mode read files again; not while the points are of the
// run before (their indices are no longer the session's).
func (t *paretoTab) noteSelection() {
	t.selectedAt.Note(t.common.Session, t.selectedTrajectory(), t.points.key.reloads)
}

func (t *paretoTab) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		t.project()
		return t.refreshReading()
	case trajectory.ReadMsg:
		return t.readChanged(t.reader.Done(t.common.Session, msg))
	case projectedMsg:
		if msg.gen == t.gen && t.computing {
			t.computing = false
			t.install(msg.projected, msg.density)
		}
	case tea.KeyPressMsg:
		// An open trajectory is read while its points are indexed again.
		switch {
		case t.reader.reading:
			t.handleReadingKey(msg)
		case !t.computing:
			return t.handleKey(msg)
		}
	case tea.MouseWheelMsg:
		switch {
		case t.reader.reading:
			t.reader.detail, _ = t.reader.detail.Update(msg)
		case t.computing:
		case msg.Button == tea.MouseWheelUp:
			t.zoomBy(1)
		case msg.Button == tea.MouseWheelDown:
			t.zoomBy(-1)
		}
	case tea.MouseClickMsg:
		if !t.reader.reading && !t.computing && msg.Button == tea.MouseLeft {
			t.click(msg.X, msg.Y)
		}
	}
	return nil
}

// PrefetchHidden implements common.Prefetcher: the projection of a
// large batch, its ranks and groups and the plot drawn before the visit.
func (t *paretoTab) PrefetchHidden() bool { return t.common.Session.Result != nil }

// Job implements common.Worker: the read of the opened trajectory, then
// the points of a large batch, projected and indexed, or indexed again.
func (t *paretoTab) Job() func() tea.Msg {
	if job := t.reader.Job(); job != nil {
		return job
	}
	job := t.pending.job
	t.pending.job = nil
	return job
}

func (t *paretoTab) handleReadingKey(msg tea.KeyPressMsg) {
	if key.Matches(msg, t.keys.Close) {
		t.setReading(false)
		return
	}
	common.ScrollReader(&t.reader.detail, msg)
}

// Notices of the keys that do nothing where they are pressed, in the
// status line.
const (
	onlyGroupUnderBatch = "a shows one group's points under scope group; under scope batch the batch is one group (g changes the scope)"
	panUnzoomed         = "the whole plot is shown: zoom in (+) to pan"
	resetUnzoomed       = "the whole plot is shown: 0 resets a zoomed or panned view"
	oneObjectiveAxes    = "x and y choose the axes among the objectives: with one objective, the plot shows it against itself"
)

// handleKey applies a key of the plot; a key that does nothing here
// returns the notice that says why.
func (t *paretoTab) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &t.keys
	switch {
	case !k.OnlyGroup.Enabled() && slices.Contains(k.OnlyGroup.Keys(), msg.String()):
		holds := func() bool { return !t.keys.OnlyGroup.Enabled() }
		return func() tea.Msg { return common.NoticeMsg{Text: onlyGroupUnderBatch, Holds: holds} }
	case t.view.zoom == 0 && key.Matches(msg, k.PanLeft, k.PanRight, k.PanUp, k.PanDown):
		holds := func() bool { return t.view.zoom == 0 }
		return func() tea.Msg { return common.NoticeMsg{Text: panUnzoomed, Holds: holds} }
	case !t.zoomed() && key.Matches(msg, k.ResetView):
		return func() tea.Msg {
			return common.NoticeMsg{Text: resetUnzoomed, Holds: func() bool { return !t.zoomed() }}
		}
	case t.oneObjective() && (slices.Contains(k.NextX.Keys(), msg.String()) || slices.Contains(k.NextY.Keys(), msg.String())):
		return func() tea.Msg { return common.NoticeMsg{Text: oneObjectiveAxes, Holds: t.oneObjective} }
	case key.Matches(msg, k.NextX):
		t.points.xObj, t.points.yObj = t.nextAxis(t.points.xObj, t.points.yObj)
		t.points.axesChosen = true
		t.project()
	case key.Matches(msg, k.NextY):
		t.points.yObj, t.points.xObj = t.nextAxis(t.points.yObj, t.points.xObj)
		t.points.axesChosen = true
		t.project()
	case key.Matches(msg, k.Prev):
		t.stepInGroup(-1)
	case key.Matches(msg, k.Next):
		t.stepInGroup(1)
	case key.Matches(msg, k.PrevGroup):
		t.stepGroup(-1)
	case key.Matches(msg, k.NextGroup):
		t.stepGroup(1)
	case key.Matches(msg, k.ZoomIn):
		t.zoomBy(1)
	case key.Matches(msg, k.ZoomOut):
		t.zoomBy(-1)
	case key.Matches(msg, k.PanLeft):
		t.pan(-1, 0)
	case key.Matches(msg, k.PanRight):
		t.pan(1, 0)
	case key.Matches(msg, k.PanUp):
		t.pan(0, 1)
	case key.Matches(msg, k.PanDown):
		t.pan(0, -1)
	case key.Matches(msg, k.ResetView):
		t.resetView()
	case key.Matches(msg, k.OnlyGroup):
		t.onlyGroup = !t.onlyGroup
		t.draw()
	case key.Matches(msg, k.Open):
		if t.selectedTrajectory() >= 0 {
			t.setReading(true)
		}
	}
	return nil
}

// oneObjective reports whether the result shown has one objective, which
// leaves x and y no other axis to choose.
func (t *paretoTab) oneObjective() bool {
	res := t.common.Session.Result
	return res != nil && len(res.Objectives) == 1
}

// setReading opens the selected trajectory, read again from its file off
// the event loop if the session keeps it lean, or goes back to the plot,
// dropping that read.
func (t *paretoTab) setReading(on bool) {
	t.reader.reading = on
	t.keys.Close.SetEnabled(on)
	t.keys.Ends.SetEnabled(on)
	for _, b := range []*key.Binding{&t.keys.NextX, &t.keys.NextY, &t.keys.Prev, &t.keys.Next, &t.keys.PrevGroup,
		&t.keys.NextGroup, &t.keys.ZoomIn, &t.keys.ZoomOut, &t.keys.ResetView, &t.keys.Open} {
		b.SetEnabled(!on)
	}
	if on {
		t.reader.Start(t.common.Session, t.selectedTrajectory())
		t.reader.detail.SetContent(trajectory.Detail(t.common, &t.reader.Opened, t.width))
		t.reader.detail.GotoTop()
		return
	}
	t.reader.Close()
	t.project()
}

// refreshReading shows the opened trajectory's new rewards after a
// recompute, found where it is now (trajectory.Reading.Follow), or goes
// back to the plot when it left with its batch, or with its file's lines
// (the command returned says so).
func (t *paretoTab) refreshReading() tea.Cmd {
	if !t.reader.reading {
		return nil
	}
	s := t.common.Session
	return t.readChanged(t.reader.Keep(s, func(i int) bool { return slices.Contains(s.CurrentBatch().Members, i) }))
}

// readChanged shows what change did to the opened trajectory
// (trajectory.Reading.Show): drawn again, or the plot shown again; it
// returns gone, the notice that the run holds it no more.
func (t *paretoTab) readChanged(change trajectory.Change, gone tea.Cmd) tea.Cmd {
	return t.reader.Show(t.common, &t.reader.detail, t.width, func() { t.setReading(false) }, change, gone)
}

// nextAxis returns the objective after k for its axis, skipping the
// other axis' objective, and the other axis' objective then: with two
// objectives the axes swap, so that no objective is on both.
func (t *paretoTab) nextAxis(k, other int) (next, otherNext int) {
	m := len(t.common.Session.Result.Objectives)
	next = (k + 1) % m
	if next != other {
		return next, other
	}
	if m == 2 {
		return other, k
	}
	return (next + 1) % m, other
}

// project rebuilds what the plot derives from the session when it
// changed: the points (diagnose.Projection), their ranks, and each
// group's points in x order (projected); it keeps the selected
// trajectory when it is still shown. On a large batch, a job computes
// them.
func (t *paretoTab) project() {
	s := t.common.Session
	res := s.Result
	if res == nil {
		return
	}
	m := len(res.Objectives)
	if !t.points.axesChosen {
		t.points.xObj, t.points.yObj, t.points.axesChosen = defaultAxes(res.Evaluation, s.CurrentBatch().Members)
	}
	t.points.xObj, t.points.yObj = min(t.points.xObj, m-1), min(t.points.yObj, m-1)
	t.keys.NextX.SetEnabled(m > 1)
	t.keys.NextY.SetEnabled(m > 1)
	batch := s.CurrentBatch()
	key := projectionKey{eval: res.Evaluation, batch: s.Batch, n: len(batch.Members), x: t.points.xObj, y: t.points.yObj, reloads: s.Reloads}
	switch {
	case key == t.points.key && t.points.ranking == res.Ranking:
		// The points shown: what was asked since is no longer needed. The
		// plot shows objectives and ranks, which neither the method nor
		// the weights change: a switch of those keeps it as it is drawn,
		// in the styles of the same background.
		t.computing, t.pending.job = false, nil
		if t.drawn.frame == nil || t.drawn.frameDark != t.common.Styles.IsDark {
			t.install(t.points.projected, density{})
		}
	case t.computing && t.pending.key == key && t.pending.ranking == res.Ranking:
		// its job runs, or waits to be handed out
	default:
		bi, shown := s.Batch, t.points.projected
		compute := func(gate *pause.Gate) projected { return projectPoints(res, bi, key, gate) }
		if key == t.points.key { // the same points under another ranking (another scope)
			compute = func(*pause.Gate) projected { return shown.reindexed(res, bi) }
		}
		if len(batch.Members) >= projectOnLoopBelow {
			t.ask(key, res.Ranking, compute)
			return
		}
		t.computing, t.pending.job = false, nil
		t.install(compute(nil), density{}) // the event loop releases the gate: it never waits at it
	}
}

// ask has a job compute the points of key indexed by ranking (compute),
// the tab computing meanwhile, and count them in the grid they will be
// drawn in at the tab's size: the full view of new points, or the view
// shown of the points shown (keys that move it wait for the job). The
// job waits at the Background gate before each step: held, the tab is
// hidden and the screen waits for other work.
func (t *paretoTab) ask(key projectionKey, ranking *engine.Ranking, compute func(*pause.Gate) projected) {
	t.gen++
	t.computing = true
	gen, width, height, gate := t.gen, t.width, t.height, t.common.Background
	view, shown := t.view, t.points.key
	t.pending = projecting{key: key, ranking: ranking, job: func() tea.Msg {
		gate.Wait()
		msg := projectedMsg{gen: gen, projected: compute(gate)}
		gate.Wait()
		if p := &msg.projected; width > 0 && len(p.proj.X) > 0 {
			v := view
			if p.key != shown {
				v = fullView(p.full)
			}
			grid := newPlotFrame(width, height, v.ranges(p.full, p.data), p.data).Grid
			msg.density = p.counted(densityKey{proj: p.key, ranking: p.ranking, grid: grid})
		}
		return msg
	}}
}

// install makes p the points the plot shows and draws them, selecting
// the trajectory selected before when it is among them; the view is the
// full one unless p is the points shown, indexed again. counted, when its
// counts are not nil, is p counted by the job, which draw takes when its
// grid is the frame's.
func (t *paretoTab) install(p projected, counted density) {
	previous := t.selectedAt.Follow(t.common.Session, t.selectedTrajectory(), t.points.key.reloads, p.key.reloads)
	same := p.key == t.points.key
	t.points.projected = p
	if counted.counts != nil {
		t.drawn.density = counted
	}
	if !same {
		t.setFullView()
	}
	// The previous selection if it is still shown, else the leftmost
	// point.
	if j, found := slices.BinarySearch(p.proj.Index, previous); found {
		t.selected = j
	} else {
		t.selected = max(leftmost(p.proj.X, p.proj.Y), 0)
	}
	t.keys.OnlyGroup.SetEnabled(t.common.Session.Result.Options.Scope == engine.ScopeGroup)
	if !t.keys.OnlyGroup.Enabled() {
		t.onlyGroup = false
	}
	t.draw()
}

// shortGroup is a group key of the batch as the panel names it: without
// what every key of the batch starts with (groupCut), marked "…".
func (t *paretoTab) shortGroup(key string) string {
	if t.points.groupCut > 0 && len(key) >= t.points.groupCut {
		return textsafe.Line("…" + key[t.points.groupCut:])
	}
	return textsafe.Line(key)
}

// selectedTrajectory returns the selected trajectory's index, -1 if none.
func (t *paretoTab) selectedTrajectory() int {
	if t.selected >= len(t.points.proj.Index) {
		return -1
	}
	return t.points.proj.Index[t.selected]
}

// groupPoints returns the positions in proj of group g's points, in
// ascending x.
func (t *paretoTab) groupPoints(g int32) []int32 {
	if g < 0 || int(g)+1 >= len(t.points.start) {
		return nil
	}
	return t.points.order[t.points.start[g]:t.points.start[g+1]]
}

// selectedGroup returns the selected point's group index, -1 if none.
func (t *paretoTab) selectedGroup() int32 {
	if t.selected >= len(t.points.groupOf) {
		return -1
	}
	return t.points.groupOf[t.selected]
}

// stepInGroup selects the point step places along the selected group in
// x order, stopping at its ends.
func (t *paretoTab) stepInGroup(step int) {
	points := t.groupPoints(t.selectedGroup())
	k := slices.Index(points, int32(t.selected))
	if k < 0 {
		return
	}
	t.selected = int(points[min(max(k+step, 0), len(points)-1)])
	t.follow()
}

// stepGroup selects the leftmost point of the group step places from the
// selected one in the batch's order of groups, skipping groups without a
// valid point.
func (t *paretoTab) stepGroup(step int) {
	groups := len(t.points.start) - 1
	for g := int(t.selectedGroup()) + step; g >= 0 && g < groups; g += step {
		if points := t.groupPoints(int32(g)); len(points) > 0 {
			t.selected = int(points[0])
			t.follow()
			return
		}
	}
}

// follow moves the view to the selection when it left it, and redraws.
func (t *paretoTab) follow() {
	if t.drawn.frame != nil && len(t.points.proj.X) > 0 {
		if _, ok := t.drawn.frame.Point(t.points.proj.X[t.selected], t.points.proj.Y[t.selected]); !ok {
			t.view.cx, t.view.cy, t.view.panned = t.points.proj.X[t.selected], t.points.proj.Y[t.selected], true
		}
	}
	t.draw()
}

// zoomBy zooms in (step > 0) or out by a factor 2 per step, centred on
// the selected point; zooming out to the full view resets it.
func (t *paretoTab) zoomBy(step int) {
	t.view.zoom = min(max(t.view.zoom+step, 0), maxParetoZoom)
	if t.view.zoom == 0 {
		t.resetView()
		return
	}
	if t.selected < len(t.points.proj.X) {
		t.view.cx, t.view.cy, t.view.panned = t.points.proj.X[t.selected], t.points.proj.Y[t.selected], true
	}
	t.draw()
}

// pan moves the view by a quarter of its width (dx) or height (dy), as
// far as the full view's edge.
func (t *paretoTab) pan(dx, dy int) {
	x0, x1, y0, y1 := t.viewRange()
	t.view.cx = (x0+x1)/2 + float64(dx)*(x1-x0)/4
	t.view.cy = (y0+y1)/2 + float64(dy)*(y1-y0)/4
	x0, x1, y0, y1 = t.viewRange()
	t.view.cx, t.view.cy, t.view.panned = (x0+x1)/2, (y0+y1)/2, true
	t.draw()
}

// resetView shows every point again.
func (t *paretoTab) resetView() {
	t.setFullView()
	t.draw()
}

// setFullView sets the view to show every point, without drawing.
func (t *paretoTab) setFullView() { t.view = fullView(t.points.full) }

// fullView is the view of the full ranges full: unzoomed, centred.
func fullView(full [4]float64) paretoView {
	return paretoView{cx: (full[0] + full[1]) / 2, cy: (full[2] + full[3]) / 2}
}

// viewRange returns the ranges the view asks for (paretoView.ranges).
func (t *paretoTab) viewRange() (x0, x1, y0, y1 float64) {
	r := t.view.ranges(t.points.full, t.points.data)
	return r[0], r[1], r[2], r[3]
}

// ranges returns the x and y ranges v asks for, of points whose own are
// data and whose full view's are full: full's, halved zoom times around
// the centre, moved to show no more beyond the points than a margin of
// their own (chart.Window).
func (v paretoView) ranges(full, data [4]float64) [4]float64 {
	f := math.Ldexp(0.5, -v.zoom)
	var r [4]float64
	r[0], r[1] = chart.Window(v.cx, (full[1]-full[0])*f, data[0], data[1], full[0], full[1])
	r[2], r[3] = chart.Window(v.cy, (full[3]-full[2])*f, data[2], data[3], full[2], full[3])
	return r
}

// zoomed reports whether the view shows other than all of the points.
func (t *paretoTab) zoomed() bool { return t.view.zoom > 0 || t.view.panned }

// click selects the point nearest the body's cell (x, y): the plot's
// canvas starts under the title and the y axis' name.
func (t *paretoTab) click(x, y int) {
	if t.drawn.frame == nil || len(t.points.proj.X) == 0 {
		return
	}
	col, row, ok := t.drawn.frame.GridCell(canvas.Point{X: x, Y: y - 2})
	if !ok {
		return
	}
	g := t.drawn.frame.Grid
	px, py := g.X.Value(float64(col)), g.Y.Value(float64(row))
	// A row is about two columns tall.
	sx, sy := 1/g.X.Unit, 2/g.Y.Unit
	var among []int32 // every point
	if t.onlyGroup {
		among = t.groupPoints(t.selectedGroup())
		if among == nil {
			among = []int32{} // none
		}
	}
	if j := t.nearest(among, px, py, sx, sy); j >= 0 {
		t.selected = j
	}
	t.draw()
}

// nearest returns the position of the point among (all of them when nil)
// nearest (x, y) in the distance chart.Nearest measures, ties to the first
// in the order of (x, y, index); -1 when there are none.
func (t *paretoTab) nearest(among []int32, x, y, sx, sy float64) int {
	xs, ys := t.points.proj.X, t.points.proj.Y
	best, bestD := int32(-1), math.Inf(1)
	consider := func(j int32) {
		dx, dy := (xs[j]-x)*sx, (ys[j]-y)*sy
		if d := dx*dx + dy*dy; d < bestD || d == bestD && best >= 0 && lessXY(xs, ys, j, best) {
			best, bestD = j, d
		}
	}
	if among == nil {
		for j := range xs {
			consider(int32(j))
		}
	} else {
		for _, j := range among {
			consider(j)
		}
	}
	return int(best)
}

// draw redraws the plot: the other groups dimmed, by density, unless
// only the selected group is shown; the highlighted points (the selected
// group's, or the whole batch's with scope batch) by rank, where several
// share a cell their number (the group's) or a shade (the batch's); the
// selected group's frontier, over the density; the selection; what an
// empty view means; the axes.
func (t *paretoTab) draw() {
	if t.computing {
		// The points drawn are not the session's (their scope may be
		// another): the job's are drawn when it lands.
		t.drawn.frame = nil
		return
	}
	if t.common.Session.Result == nil || t.width <= 0 {
		return
	}
	st := t.common.Styles
	t.drawn.frameView, t.drawn.frameDark, t.drawn.groupShared = "", st.IsDark, false
	t.drawn.frame = newPlotFrame(t.width, t.height, t.view.ranges(t.points.full, t.points.data), t.points.data)
	f := t.drawn.frame
	if len(t.points.proj.Index) == 0 {
		f.DrawAxes(st.Axis, st.AxisLabel)
		return
	}
	t.countDensity()
	t.drawBounds()
	group := t.groupPoints(t.selectedGroup())
	batchScope := t.common.Session.Result.Options.Scope != engine.ScopeGroup
	switch {
	case batchScope:
		t.drawDensity(nil, func(best int32) lipgloss.Style { return st.Rank[rankBucket(int(best))] }, true)
		t.hollowLoneInfeasible()
	case !t.onlyGroup:
		t.drawDensity(group, func(int32) lipgloss.Style { return st.Muted }, false)
	}
	if !batchScope {
		f.BrailleLinesOver([][]canvas.Float64Point{t.frontier(group)}, st.Rank[0])
		t.markGroup(group)
	}
	f.Mark(t.points.proj.X[t.selected], t.points.proj.Y[t.selected], selectedRune, st.Selected)
	t.sayWhenEmpty(group)
	f.DrawAxes(st.Axis, st.AxisLabel)
}

// newPlotFrame returns the plot's frame in a tab of width x height,
// showing the x and y ranges view of points whose own are data. An
// objective that is never negative (a rate, a length) keeps the full
// view's margin below 0, unlabelled: no -0.1 tick on its axis.
func newPlotFrame(width, height int, view, data [4]float64) *plot.Frame {
	w := max(width-paretoPanelWidth-1, 10)
	h := max(height-3, 5) // under the title and the y axis name, over the x axis name
	return plot.NewFrame(w, h,
		func(rows int) chart.Axis {
			return chart.FitRange(view[2], view[3], rows, chart.Options{MinGap: 3, NonNegative: data[2] >= 0})
		},
		func(cols int) chart.Axis {
			return chart.FitRange(view[0], view[1], cols, chart.Options{LabelGap: true, NonNegative: data[0] >= 0})
		})
}

// drawBounds draws a line across the plot for each constraint of a
// plotted objective against a number (scoring.ConstraintDef.Bound): its
// limit, under the points.
func (t *paretoTab) drawBounds() {
	for _, b := range t.bounds() {
		if b.Objective == t.points.xObj {
			t.drawn.frame.VLine(b.Limit, '┊', t.common.Styles.Warning)
		}
		if b.Objective == t.points.yObj {
			t.drawn.frame.HLine(b.Limit, '┈', t.common.Styles.Warning)
		}
	}
}

// bounds returns the constraints that are an objective against a number.
func (t *paretoTab) bounds() []scoring.ConstraintBound {
	res := t.common.Session.Result
	var bounds []scoring.ConstraintBound
	for _, d := range res.Evaluation.Constraints {
		if b, ok := d.Bound(res.Objectives); ok {
			bounds = append(bounds, b)
		}
	}
	return bounds
}

// hollowLoneInfeasible draws, with scope batch, each infeasible point
// alone in its cell hollow: a shared cell keeps its shade. Infeasible
// points rank after every feasible one, so their rank's marker alone
// would not tell them from a feasible point of a late front.
func (t *paretoTab) hollowLoneInfeasible() {
	ev := t.common.Session.Result.Evaluation
	if !ev.HasConstraints() {
		return
	}
	f, g := t.drawn.frame, t.drawn.frame.Grid
	for j, i := range t.points.proj.Index {
		if ev.Feasible(i) {
			continue
		}
		if col, row, ok := g.Cell(t.points.proj.X[j], t.points.proj.Y[j]); ok && t.drawn.counts[row*g.X.Cells+col] == 1 {
			f.Canvas.SetCell(f.CellPoint(col, row), canvas.NewCellWithStyle(infeasibleRune, t.common.Styles.Muted))
		}
	}
}

// plotsBound reports whether a constraint's line is on the plotted axes.
func (t *paretoTab) plotsBound() bool {
	for _, b := range t.bounds() {
		if b.Objective == t.points.xObj || b.Objective == t.points.yObj {
			return true
		}
	}
	return false
}

// countDensity counts every point in the frame's cells, unless the counts
// are those of the same points in the same grid.
func (t *paretoTab) countDensity() {
	key := densityKey{proj: t.points.key, ranking: t.points.ranking, grid: t.drawn.frame.Grid}
	if key != t.drawn.density.of {
		t.drawn.density = t.points.counted(key)
	}
}

// densityChunk is how many points a goroutine counts at a time.
const densityChunk = 1 << 16

// counted returns p's points counted in key's grid (chart.Density), on
// every core.
func (p *projected) counted(key densityKey) density {
	n := len(p.proj.X)
	nw := parallel.Workers(n, densityChunk)
	points := chart.NewDensityCounter(key.grid, nw)
	parallel.Chunks(n, densityChunk, nw, func(w, lo, hi int) {
		points.Add(w, p.proj.X[lo:hi], p.proj.Y[lo:hi], p.rank[lo:hi])
	})
	d := density{of: key}
	d.counts, d.best = points.Sum()
	return d
}

// drawDensity draws each cell the counted points fill, less the points
// of except: a lone point as its rank's marker (ranked) or a dot, more as
// a shade of how many share the cell, styled by style of the cell's best
// rank.
func (t *paretoTab) drawDensity(except []int32, style func(best int32) lipgloss.Style, ranked bool) {
	f, g := t.drawn.frame, t.drawn.frame.Grid
	counts := t.drawn.counts
	if len(except) > 0 {
		counts = slices.Clone(t.drawn.counts)
		for _, j := range except {
			if col, row, ok := g.Cell(t.points.proj.X[j], t.points.proj.Y[j]); ok {
				counts[row*g.X.Cells+col]--
			}
		}
	}
	most := slices.Max(counts)
	st := t.common.Styles
	for c, n := range counts {
		if n == 0 {
			continue
		}
		col, row := c%g.X.Cells, c/g.X.Cells
		r := densityRunes[max(chart.Level(n, most, len(densityRunes)+1)-1, 0)]
		if n == 1 {
			r = dimmedRune
			if ranked {
				r = st.RankMarkers[rankBucket(int(t.drawn.best[c]))]
			}
		}
		f.Canvas.SetCell(f.CellPoint(col, row), canvas.NewCellWithStyle(r, style(t.drawn.best[c])))
	}
}

// rankBucket maps a Pareto rank to its index in Styles.Rank and
// Styles.RankMarkers: 0, 1, 2, >= 3.
func rankBucket(rank int) int { return min(rank, 3) }

// frontier returns, in ascending x, the rank-0 points of group's points
// (given in ascending x).
func (t *paretoTab) frontier(group []int32) []canvas.Float64Point {
	var points []canvas.Float64Point
	for _, j := range group {
		if t.points.rank[j] == 0 {
			points = append(points, canvas.Float64Point{X: t.points.proj.X[j], Y: t.points.proj.Y[j]})
		}
	}
	return points
}

func (t *paretoTab) View() string {
	res := t.common.Session.Result
	if res == nil || t.width <= 0 {
		return ""
	}
	st := t.common.Styles
	if t.reader.reading {
		status := common.ReaderStatus(st, t.reader.Opened.Full.ID, fmt.Sprintf(" · %3.0f%% · esc: back to the plot", t.reader.detail.ScrollPercent()*100), t.width)
		return common.FitBox(lipgloss.JoinVertical(lipgloss.Left, status, t.reader.detail.View()), t.width, t.height)
	}
	if t.computing {
		return common.FitBox(common.Computing(st, "the projection", t.width), t.width, t.height)
	}
	if t.drawn.frame == nil {
		return ""
	}
	xName, yName := t.axisName(t.points.xObj), t.axisName(t.points.yObj)
	title := st.Title.Render(fmt.Sprintf("Pareto ranks: %s against %s", yName, xName))
	if t.view.zoom > 0 {
		title += st.Muted.Render(fmt.Sprintf(" · zoom ×%d (0 resets)", 1<<t.view.zoom))
	}
	// The axes' labels within the canvas' width: wider, they would push
	// the panel past the tab's edge.
	cw := t.drawn.frame.Canvas.Width()
	plot := lipgloss.JoinVertical(lipgloss.Left,
		st.AxisLabel.Render("↑ "+t.axisLabel(t.points.yObj, cw-2)),
		t.renderedFrame(),
		lipgloss.PlaceHorizontal(cw, lipgloss.Right, st.AxisLabel.Render(t.axisLabel(t.points.xObj, cw-2)+" →")))
	body := lipgloss.JoinHorizontal(lipgloss.Top, plot, " ", t.panelView())
	return common.FitBox(lipgloss.JoinVertical(lipgloss.Left, title, body), t.width, t.height)
}

// renderedFrame returns the frame rendered, rendering it only once it
// was drawn again.
func (t *paretoTab) renderedFrame() string {
	if t.drawn.frameView == "" {
		t.drawn.frameView = t.drawn.frame.View()
	}
	return t.drawn.frameView
}

// axisName names objective k with its goal, sanitised.
func (t *paretoTab) axisName(k int) string {
	o := t.common.Session.Result.Objectives[k]
	return common.FitLine(fmt.Sprintf("%s (%s)", o.Name, o.Goal), paretoPanelWidth)
}

// axisLabel labels objective k's axis in width cells: its name, and for a
// minimised one that lower is better, which the axis's arrow (up, right)
// does not say; where that does not fit, its name and goal, cut at a word.
func (t *paretoTab) axisLabel(k, width int) string {
	o := t.common.Session.Result.Objectives[k]
	if o.Goal == scoring.Minimize {
		if label := common.FitLine(o.Name+" (min: lower is better)", paretoPanelWidth); ansi.StringWidth(label) <= width {
			return label
		}
	}
	return common.FitWords(t.axisName(k), width)
}

// panelView shows the selected trajectory, the legend and what the plot
// leaves out, in the plot's height: when they do not fit, the notes take
// their short wording, then the legend gives up its last lines and then
// the details theirs, so that what the plot leaves out is always said.
func (t *paretoTab) panelView() string {
	height := t.height - 1 // under the tab's title
	details, legend := strings.Split(t.detailsView(), "\n"), strings.Split(t.legendView(), "\n")
	notes := t.notes(false)
	if len(details)+len(legend)+len(notes)+2 > height {
		notes = t.notes(true)
	}
	// Each part kept takes an empty line before the next.
	room := height - len(notes) - 1
	if len(notes) == 0 {
		room = height
	}
	details = details[:max(min(len(details), room), 0)]
	legend = legend[:max(min(len(legend), room-len(details)-1), 0)]
	var lines []string
	for _, part := range [][]string{details, legend, notes} {
		if len(part) == 0 {
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, part...)
	}
	return strings.Join(lines, "\n")
}

// groupName names the selected group's key, shortened, "" when no group
// is selected (none has a valid trajectory) or its key is empty.
func (t *paretoTab) groupName() string {
	g := t.selectedGroup()
	groups := t.common.Session.CurrentBatch().Groups
	if g < 0 || int(g) >= len(groups) || groups[g].Key == "" {
		return ""
	}
	return t.shortGroup(groups[g].Key)
}

func (t *paretoTab) detailsView() string {
	st := t.common.Styles
	sel := t.selectedTrajectory()
	if sel < 0 && t.points.proj.Lacking > 0 {
		return st.Muted.Render("no trajectory has both objectives")
	}
	if sel < 0 {
		return st.Muted.Render("no valid trajectory in this batch")
	}
	res := t.common.Session.Result
	tr := t.common.Session.Trajectories.At(sel)
	// A value is made safe where it is read from the data (the id, the
	// group): cutting it here keeps the styles of "no" within it.
	// A label wider than its 10 cells (an objective's name, "score (obj)")
	// takes those a short value leaves; else it is cut at a word.
	row := func(label, value string) string {
		cells := max(10, min(ansi.StringWidth(label), paretoPanelWidth-1-ansi.StringWidth(value)))
		return st.Label.Render(common.PadRight(common.FitWords(textsafe.Line(label), cells), 10)) + " " + common.FitWords(value, paretoPanelWidth-1-cells)
	}
	points := t.groupPoints(t.selectedGroup())
	k := slices.Index(points, int32(t.selected))
	var lines []string
	for _, l := range positionLines(k+1, len(points), int(t.selectedGroup())+1, len(t.points.start)-1) {
		lines = append(lines, st.Title.Render(l))
	}
	label := "id" // on the first of the lines the id wraps over
	for _, l := range common.WrapKey(tr.ID, panelValueWidth, common.MaxIDLines) {
		lines = append(lines, row(label, l))
		label = ""
	}
	lines = append(lines, row("group", t.shortGroup(tr.Group)))
	if n := t.cellShare(); n > 1 {
		lines = append(lines, row("cell", fmt.Sprintf("shared by %d points", n)))
	}
	for k, o := range res.Objectives {
		lines = append(lines, row(common.ObjectiveName(o.Name), common.ObjectiveValue(res.Evaluation, sel, k)))
	}
	lines = append(lines,
		row("rank", fmt.Sprintf("%d of %d fronts", res.Ranking.Ranks[sel], res.Ranking.Fronts[sel])))
	if res.Evaluation.HasConstraints() {
		lines = append(lines, row("feasible", common.FeasibleText(res.Evaluation, sel, st.Warning.Render("no"))))
	}
	lines = append(lines,
		row("crowding", common.FormatValue(res.Ranking.Crowding[sel])),
		row("score", common.FormatValue(res.Scores[sel])),
		row("reward", common.FormatValue(res.ShownReward(sel))))
	return strings.Join(lines, "\n")
}

// positionLines says which point of its group the selection is and
// which group, in the panel's width: on one line, its numbers short when
// the words do not fit ("point 1/8 · group 49478/125000"), else on two,
// so that no number is cut.
func positionLines(point, points, group, groups int) []string {
	for _, format := range []string{"point %d of %d · group %d of %d", "point %d/%d · group %d/%d"} {
		if line := fmt.Sprintf(format, point, points, group, groups); ansi.StringWidth(line) <= paretoPanelWidth {
			return []string{line}
		}
	}
	return []string{fmt.Sprintf("point %d/%d", point, points), fmt.Sprintf("group %d/%d", group, groups)}
}

func (t *paretoTab) legendView() string {
	st := t.common.Styles
	scope := "each group"
	switch name := t.groupName(); {
	case t.common.Session.Result.Options.Scope != engine.ScopeGroup:
		scope = "the batch"
	case name != "":
		scope = "group " + name
	}
	names := [4]string{"rank 0 (frontier)", "rank 1", "rank 2", "rank ≥ 3"}
	lines := []string{st.Title.Render("legend") + st.Muted.Render(common.FitLine(" ranks within "+scope, paretoPanelWidth-6))}
	for b, name := range names {
		lines = append(lines, st.Rank[b].Render(string(st.RankMarkers[b]))+" "+name)
	}
	lines = append(lines, st.Selected.Render(string(selectedRune))+" selected")
	if scope != "the batch" && t.drawn.groupShared {
		lines = append(lines, st.Rank[0].Render("2")+"…9 points in one cell (+: more)")
	}
	if t.common.Session.Result.Evaluation.HasConstraints() {
		lines = append(lines, st.Muted.Render(string(infeasibleRune))+" breaks a constraint")
		if t.plotsBound() {
			lines = append(lines, st.Warning.Render("┈┊")+" a constraint's limit")
		}
	}
	shades := string(densityRunes[:])
	if scope == "the batch" {
		lines = append(lines, shades+" 2 … most points in a cell")
	} else {
		lines = append(lines, st.Rank[0].Render("⠤⠒")+" frontier of this group")
		if t.onlyGroup {
			lines = append(lines, st.Muted.Render("other groups hidden (a shows them)"))
		} else {
			lines = append(lines, st.Muted.Render(string(dimmedRune)+shades)+" other groups, by density", st.Muted.Render("  (a hides them)"))
		}
	}
	return strings.Join(lines, "\n")
}

// notes says what the plot cannot show, wrapped to the panel's width,
// or in short (for a panel the long wording does not fit) a line each,
// cut at a word. Ranks over more objectives than the axes are said only
// of the points drawn: with sources, a source ranked on the two axes
// alone is drawn whole.
func (t *paretoTab) notes(short bool) []string {
	st := t.common.Styles
	p := t.points.proj
	type note struct {
		long, short string
		style       lipgloss.Style
	}
	var notes []note
	if m := p.Ranked; m > 2 {
		notes = append(notes, note{fmt.Sprintf("ranks are over %d objectives: this plot projects them on two", m), fmt.Sprintf("ranked on %d objectives, 2 drawn", m), lipgloss.NewStyle()})
	}
	if n := p.Hidden; n > 0 {
		notes = append(notes, note{common.Count(n, "invalid trajectory", "invalid trajectories") + " hidden", fmt.Sprintf("%d invalid hidden", n), st.Warning})
	}
	if n := p.Dropped; n > 0 { // by the group filter: not invalid data
		notes = append(notes, note{fmt.Sprintf("%d dropped by the filter, hidden", n), fmt.Sprintf("%d dropped by the filter", n), st.Muted})
	}
	if p.Lacking > 0 {
		var lacks []string
		for _, axis := range []struct{ n, k int }{{p.NoX, t.points.xObj}, {p.NoY, t.points.yObj}} {
			if axis.n > 0 {
				lacks = append(lacks, common.ObjectiveName(t.common.Session.Result.Objectives[axis.k].Name))
			}
		}
		notes = append(notes, note{common.Count(p.Lacking, "trajectory", "trajectories") + " not drawn: their source has no " + strings.Join(lacks, " or "),
			fmt.Sprintf("%d not drawn (no %s)", p.Lacking, strings.Join(lacks, "/")), st.Warning})
	}
	var lines []string
	for _, n := range notes {
		text := common.WrapAtSpaces(n.long, paretoPanelWidth)
		if short {
			text = common.FitWords(n.short, paretoPanelWidth)
		}
		for _, l := range strings.Split(text, "\n") {
			lines = append(lines, n.style.Render(l))
		}
	}
	return lines
}

func (t *paretoTab) ShortHelp() []key.Binding {
	k := &t.keys
	if t.reader.reading {
		return []key.Binding{k.Close}
	}
	// ResetView shows only when zoomed in (the full help lists it
	// always), OnlyGroup with scope group; the zoom's two keys are one
	// hint, which a narrow footer drops whole.
	reset := k.ResetView
	reset.SetEnabled(reset.Enabled() && t.zoomed())
	keys := []key.Binding{k.Prev, k.Next, k.PrevGroup, k.NextGroup, k.Open, common.PairHelp(k.ZoomIn, "+/-", "zoom"), reset, k.OnlyGroup, k.NextX, k.NextY}
	if len(t.points.start)-1 <= 1 {
		keys = slices.Delete(keys, 2, 4) // one group (scope batch): ↑/↓ would go nowhere
	}
	return keys
}

func (t *paretoTab) FullHelp() [][]key.Binding {
	k := &t.keys
	click := k.Click
	if t.reader.reading {
		click = key.Binding{} // a click does nothing while reading
	}
	return [][]key.Binding{
		{k.Prev, k.Next, k.PrevGroup, k.NextGroup, click, k.Open, k.Close, k.Ends},
		{k.ZoomIn, k.ZoomOut, k.ResetView, k.OnlyGroup},
		{k.PanLeft, k.PanRight, k.PanUp, k.PanDown},
		{k.NextX, k.NextY},
	}
}
