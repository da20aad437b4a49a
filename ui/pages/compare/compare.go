package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/plot"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/session"
)

// comparePanelWidth is the width of the numbers beside the scatter;
// panelValueWidth, of a value after its 13-cell label and a space.
const (
	comparePanelWidth = 36
	panelValueWidth   = comparePanelWidth - 14
)

// The markers of the scatter: the methods push a trajectory the same way,
// or in opposite directions.
const (
	agreeRune  = '●'
	posNegRune = '▲' // positive advantage under A, negative under B
	negPosRune = '▼' // negative under A, positive under B
)

// selectedRune marks the selected trajectory.
const selectedRune = '◎'

// densityRunes shade a cell by how many points share it (chart.Level),
// as on the Pareto tab: from a few to the most any cell holds.
var densityRunes = [...]rune{'░', '▒', '▓', '█'}

// The classes of a point, lowest first: a shaded cell takes the style of
// the lowest class it holds, so that a disagreement never hides among
// agreements.
const (
	classPosNeg int32 = iota
	classNegPos
	classAgree
)

type compareKeyMap struct {
	NextB, PrevB          key.Binding
	Left, Right, Up, Down key.Binding
	NextOdd, PrevOdd      key.Binding
	Open, Close           key.Binding
	Ends                  key.Binding // the reader's home and end (common.ScrollReader)
	OpenGroup             key.Binding
	// Click has no key: the help says what a mouse click does.
	Click key.Binding
	// Collapsed has no key: the help explains the panel's "collapsed".
	Collapsed key.Binding
}

func newCompareKeyMap() compareKeyMap {
	return compareKeyMap{
		NextB:     key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "next method B")),
		PrevB:     key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "previous method B")),
		Left:      key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous point by reward A")),
		Right:     key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next point by reward A")),
		Down:      key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "previous point by reward B")),
		Up:        key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "next point by reward B")),
		NextOdd:   key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "next disagreement (A+ B−, then A− B+)")),
		PrevOdd:   key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "previous disagreement")),
		Open:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the selected trajectory")),
		Close:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the plot"), key.WithDisabled()),
		Ends:      common.ReaderEndsKey(key.WithDisabled()),
		OpenGroup: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open the selected trajectory's group (Groups tab)")),
		Click:     key.NewBinding(key.WithHelp("click", "select the nearest point")),
		Collapsed: key.NewBinding(key.WithHelp("collapsed", "collapsed groups: groups where distinct objective vectors get identical rewards, under A and under B, of the batch's groups with distinct objective vectors")),
	}
}

// compareTab sets the current method (A) against a second one (B) on the
// current batch: their rewards side by side and how much they agree. A
// point is selected with the arrows, a click or the list of
// disagreements (d/D), and enter opens its trajectory.
type compareTab struct {
	common        *common.Common
	keys          compareKeyMap
	width, height int

	compared
	// chart is the scatter drawn, chartView its view, drawn on the first
	// frame after (redraw): a frame is asked after every message.
	chart     *plot.Frame
	chartView string
	// computing is set from a change of the session until its comparison,
	// computed off the event loop, is shown; job is that computation until
	// the root takes it (common.Worker), gen numbers it (atomic: a ranking
	// reads it to give up once another comparison is asked, several
	// switches of A in a row). buf is the comparisons' working memory,
	// lent to one job at a time (nil while lent: a job started meanwhile
	// makes its own); taken counts the jobs the root took whose message
	// has not come back.
	computing bool
	job       func() tea.Msg
	// askedB is the method B last asked (cycleB), which the session
	// takes once its message comes back: keys pressed meanwhile step
	// from it; asks counts the methods asked (CompareMethodMsg.Asked).
	// It is never cleared, and need not be: the session's B changes by
	// these asks alone and the root takes the last one asked, so once
	// that lands askedB is the session's B.
	askedB   engine.Method
	asks     uint64
	gen      atomic.Int64
	buf      *agreement.Buffers
	taken    int
	prepared common.Prepared[prepared]
	// selected is the point selected: the first disagreement of each
	// comparison shown until chosen (a key or a click), then the chosen
	// trajectory while it is compared, chosenAt (noteChosen), found
	// again when follow mode read files again.
	selected int
	chosen   bool
	chosenAt trajectory.Selection
	reading  bool
	// read is the trajectory open while reading, read again from its
	// file off the event loop when the session keeps it lean.
	read   trajectory.Reading
	detail viewport.Model
}

// prepared is a comparison made beside a recompute's statistics
// (PrepareJob), and the buffers it was lent, for the refresh on that
// recompute's result to take (common.Prepared).
type prepared struct {
	a, b          *engine.Result
	bi            int
	method        engine.Method
	width, height int
	v             compared
	buf           *agreement.Buffers
}

// compared is the comparison of A's and B's rewards on a batch, made in
// two jobs: first what needs the values alone (the points and their
// signs), shown at once, then the rank statistics and orders, which sort
// both sides, and the collapse counts (ranking).
type compared struct {
	cmp agreement.Comparison
	// ranked says that cmp's rank statistics and orders and the collapse
	// counts are computed; until then, toRank is what computes them.
	ranked bool
	toRank *toRank
	// b is the method B of cmp: the session's may have changed since, its
	// result still being computed. reloads is the session's Reloads then:
	// cmp.Index's trajectories' indices hold while it stays.
	b       engine.Method
	reloads int
	// collapse is the share of the batch's groups, of those holding
	// distinct objective vectors (groups), where distinct vectors get
	// identical rewards under A and under B (diagnose.Collapse); B's
	// is NaN for the logged advantage.
	collapse [2]float64
	groups   int
	known
	// class is each compared point's class; odd the disagreements, A+ B−
	// then A− B+, each in batch order.
	class []int32
	odd   []int32
	// ranges are the least and largest rewards A and B; density is the
	// points counted on the scatter's grid (computed with the comparison
	// for the tab's size then, again on another grid).
	ranges  [2][2]float64
	density density
	// meanDiff and mostDiff are the mean and the largest |A − B| when B
	// is the logged advantage (absDifference).
	meanDiff, mostDiff float64
}

// density is chart.Density of the compared points on grid.
type density struct {
	grid          chart.Grid
	counts, worst []int32
}

// known is what a comparison keeps for the next one to reuse when A or B
// is the same result: their diagnose.Collapse and their sides (a switch of
// A keeps B's). Until ranked, a comparison keeps those it was given.
type known struct {
	collapsed [2]collapseOf
	sides     [2]*agreement.Side
}

// collapseOf is diagnose.Collapse of result res on batch bi of n
// members (follow mode appends to a batch).
type collapseOf struct {
	res    *engine.Result
	bi, n  int
	share  float64
	groups int
}

// collapseCounted returns diagnose.Collapse of res on batch bi, from
// known when one of them counted it. Without it, when side, res's side
// of the batch ranked (agreement.Side.Of), holds no two equal rewards,
// no group collapses: the share is 0 of the groups holding distinct
// objective vectors, which depend on the evaluation and the partition
// alone, so any known count on both gives them (a switch of A to a method
// of distinct rewards, B's counted; or B's, A's counted).
func collapseCounted(res *engine.Result, bi int, side *agreement.Side, known ...collapseOf) collapseOf {
	n := len(res.Ranking.Batches[bi].Members)
	for _, c := range known {
		if c.res == res && c.bi == bi && c.n == n {
			return c
		}
	}
	c := collapseOf{res: res, bi: bi, n: n}
	if side != nil && side.Of(res, bi) && side.AllDistinct() {
		for _, k := range known {
			if k.res != nil && k.res.Evaluation == res.Evaluation && k.res.Ranking == res.Ranking && k.bi == bi && k.n == n {
				c.share, c.groups = diagnose.CollapseDistinct(k.groups), k.groups
				return c
			}
		}
	}
	c.share, c.groups = countCollapse(res, &res.Ranking.Batches[bi])
	return c
}

// countCollapse is diagnose.Collapse, which a test counts the calls of.
var countCollapse = diagnose.Collapse

// comparedMsg is job gen's comparison, not yet ranked, and the buffers
// it was lent.
type comparedMsg struct {
	gen int64
	v   compared
	buf *agreement.Buffers
}

// toRank is what the ranking of a comparison needs: the values gathered
// and their sign disagreements (A+ B−, A− B+), and the results and batch
// compared, with the collapse counts known.
type toRank struct {
	gathered  *agreement.Gathered
	signs     [2]int
	a, b      *engine.Result
	bi        int
	collapsed [2]collapseOf
}

// ranking is what the ranking adds to a comparison: the comparison with
// its rank statistics and orders, the two sides, and the collapse counts.
type ranking struct {
	cmp       agreement.Comparison
	sides     [2]*agreement.Side
	collapse  [2]float64
	groups    int
	collapsed [2]collapseOf
}

// rankedMsg is the ranking of comparison gen, and the buffers it was
// lent.
type rankedMsg struct {
	gen int64
	r   ranking
	buf *agreement.Buffers
}

// New returns the Compare tab.
func New(c *common.Common) common.Tab {
	return &compareTab{common: c, keys: newCompareKeyMap(), detail: viewport.New()}
}

func (t *compareTab) Title() string { return "Compare" }

func (t *compareTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.detail.SetWidth(width)
	t.detail.SetHeight(max(height-1, 1))
	t.redraw()
}

func (t *compareTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	cmd := t.update(msg)
	t.noteChosen()
	return t, tea.Batch(cmd, t.chosenAt.GoneNotice(&t.read))
}

// noteChosen notes the trajectory chosen, for show to find it after
// follow mode read files again; not while the comparison shown is of the
// run before (its indices are no longer the session's).
func (t *compareTab) noteChosen() {
	if t.chosen && t.selected < len(t.cmp.Index) {
		t.chosenAt.Note(t.common.Session, t.cmp.Index[t.selected], t.reloads)
	}
}

func (t *compareTab) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		t.refresh()
	case common.HiddenMsg:
		t.release()
	case trajectory.ReadMsg:
		return t.readChanged(t.read.Done(t.common.Session, msg))
	case comparedMsg:
		if t.jobBack(msg.gen, msg.buf) {
			old := t.compared
			cmd := t.show(msg.v)
			t.recycle(old.sides, old.cmp.ByA, old.cmp.ByB)
			t.rank()
			return cmd
		}
	case rankedMsg:
		if t.jobBack(msg.gen, msg.buf) {
			given := t.sides
			t.setRanking(msg.r)
			t.recycle(given)
		}
	case tea.KeyPressMsg:
		if t.computing {
			// What selects needs the comparison; a change of B does not
			// (but for a trajectory read, whose keys scroll it).
			if !t.reading && key.Matches(msg, t.keys.NextB, t.keys.PrevB) {
				return t.handleKey(msg)
			}
			return nil
		}
		if t.reading {
			if key.Matches(msg, t.keys.Close) {
				t.setReading(false)
				return nil
			}
			return common.ScrollReader(&t.detail, msg)
		}
		return t.handleKey(msg)
	case tea.MouseWheelMsg:
		if t.reading {
			t.detail, _ = t.detail.Update(msg)
		}
	case tea.MouseClickMsg:
		if !t.reading && msg.Button == tea.MouseLeft {
			t.click(msg.X, msg.Y)
		}
	}
	return nil
}

func (t *compareTab) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &t.keys
	switch {
	case key.Matches(msg, k.NextB):
		return t.cycleB(1)
	case key.Matches(msg, k.PrevB):
		return t.cycleB(-1)
	case key.Matches(msg, k.Left, k.Right, k.Down, k.Up) && !t.ranked:
		holds := func() bool { return !t.ranked }
		return func() tea.Msg { return common.NoticeMsg{Text: notRanked, Holds: holds} }
	case key.Matches(msg, k.Left):
		t.step(t.cmp.ByA, -1)
	case key.Matches(msg, k.Right):
		t.step(t.cmp.ByA, 1)
	case key.Matches(msg, k.Down):
		t.step(t.cmp.ByB, -1)
	case key.Matches(msg, k.Up):
		t.step(t.cmp.ByB, 1)
	case key.Matches(msg, k.NextOdd), key.Matches(msg, k.PrevOdd):
		if len(t.odd) == 0 {
			holds := func() bool { return len(t.odd) == 0 }
			return func() tea.Msg { return common.NoticeMsg{Text: noDisagreement, Holds: holds} }
		}
		step, end, at := 1, "last", len(t.odd)-1
		if key.Matches(msg, k.PrevOdd) {
			step, end, at = -1, "first", 0
		}
		if t.odd[at] == int32(t.selected) {
			// The selection stays, as the arrows' at an end of their order.
			n := len(t.odd)
			text := fmt.Sprintf("this is the %s of the %d disagreements", end, n)
			// True while this comparison's end stays selected.
			holds := func() bool { return len(t.odd) == n && t.odd[at] == int32(t.selected) }
			return func() tea.Msg { return common.NoticeMsg{Text: text, Holds: holds} }
		}
		t.step(t.odd, step)
	case key.Matches(msg, k.Open):
		if t.selected < t.cmp.N {
			t.setReading(true)
		}
	case key.Matches(msg, k.OpenGroup):
		if t.selected < t.cmp.N {
			i := t.cmp.Index[t.selected]
			b := t.common.Session.Batch
			return func() tea.Msg { return common.ShowGroupMsg{Batch: b, Trajectory: i} }
		}
	}
	return nil
}

// noDisagreement is what d and D say when there is nothing to step to;
// notRanked, what the arrows say before the orders they step along are.
const (
	noDisagreement = "no trajectory is rewarded by one method and penalised by the other"
	notRanked      = "the points are still being ranked: the arrows step along the ranks"
)

// step selects the point after (or before) the selected one in order, a
// list of positions in cmp: from a point not in order, the first (or
// last) one.
func (t *compareTab) step(order []int32, step int) {
	if len(order) == 0 {
		return
	}
	i := slices.Index(order, int32(t.selected))
	switch {
	case i < 0 && step > 0:
		i = 0
	case i < 0:
		i = len(order) - 1
	default:
		i = min(max(i+step, 0), len(order)-1)
	}
	t.selected, t.chosen = int(order[i]), true
	t.redraw()
}

// click selects the point nearest the body's cell (x, y): the plot's
// canvas starts under the title and the y axis' name.
func (t *compareTab) click(x, y int) {
	if t.chart == nil || t.cmp.N == 0 {
		return
	}
	col, row, ok := t.chart.GridCell(canvas.Point{X: x, Y: y - 2})
	if !ok {
		return
	}
	g := t.chart.Grid
	// A row is about two columns tall.
	j := chart.Nearest(t.cmp.A, t.cmp.B, nil, g.X.Value(float64(col)), g.Y.Value(float64(row)), 1/g.X.Unit, 2/g.Y.Unit)
	if j >= 0 {
		t.selected, t.chosen = j, true
		t.redraw()
	}
}

// setReading opens the selected trajectory, read again from its file off
// the event loop if the session keeps it lean, or goes back to the plot,
// dropping that read.
func (t *compareTab) setReading(on bool) {
	t.reading = on
	t.keys.Close.SetEnabled(on)
	t.keys.Ends.SetEnabled(on)
	for _, b := range []*key.Binding{&t.keys.NextB, &t.keys.PrevB, &t.keys.Left, &t.keys.Right, &t.keys.Up,
		&t.keys.Down, &t.keys.NextOdd, &t.keys.PrevOdd, &t.keys.Open, &t.keys.OpenGroup} {
		b.SetEnabled(!on)
	}
	if !on {
		t.read.Close()
		return
	}
	t.chosen = true // the point read stays selected across switches
	t.read.Start(t.common.Session, t.cmp.Index[t.selected])
	t.detail.SetContent(trajectory.Detail(t.common, &t.read.Opened, t.width))
	t.detail.GotoTop()
}

// SettingKeys implements common.SettingKeyer: method B's keys.
func (t *compareTab) SettingKeys() []key.Binding { return []key.Binding{t.keys.NextB, t.keys.PrevB} }

// ShowsCompare implements common.Comparer: the tab always shows B.
func (t *compareTab) ShowsCompare() bool { return true }

// Job implements common.Worker: the read of the opened trajectory, the
// comparison of a new result, then its ranking.
func (t *compareTab) Job() func() tea.Msg {
	if job := t.read.Job(); job != nil {
		return job
	}
	job := t.job
	if job != nil {
		t.taken++
	}
	t.job = nil
	return job
}

// jobBack takes back the buffers a job of comparison gen was lent, and
// reports whether that comparison is still the one asked.
func (t *compareTab) jobBack(gen int64, buf *agreement.Buffers) bool {
	t.buf, t.taken = buf, t.taken-1
	return gen == t.gen.Load()
}

// recycle gives the buffers the arrays no longer shown, sides that the
// comparison shown does not keep and orders, for the next comparison to
// reuse: only when no job could still read them (none taken and not
// back, none waiting to be taken with those sides as known).
func (t *compareTab) recycle(old [2]*agreement.Side, orders ...[]int32) {
	if t.buf == nil || t.taken > 0 || t.job != nil {
		return
	}
	var sides []*agreement.Side
	for _, s := range old {
		if s != nil && !slices.Contains(t.sides[:], s) {
			sides = append(sides, s)
		}
	}
	t.buf.Recycle(sides, orders...)
}

// lend returns the tab's buffers, or new ones, for a job to hold until
// it hands them back (jobBack).
func (t *compareTab) lend() *agreement.Buffers {
	buf := t.buf
	if buf == nil {
		buf = new(agreement.Buffers)
	}
	t.buf = nil
	return buf
}

// rank starts ranking the comparison shown, off the event loop, unless it
// is, with the buffers lent.
func (t *compareTab) rank() {
	if t.ranked || t.toRank == nil {
		return
	}
	buf := t.lend()
	genNow, r := &t.gen, t.toRank
	gen := genNow.Load()
	stale := func() bool { return genNow.Load() != gen }
	t.job = func() tea.Msg { return rankedMsg{gen, r.rank(buf, stale), buf} }
}

// rank ranks the sides not known (sorted and ranked), then computes the
// collapse counts not known (collapseCounted: the sides may tell them),
// then the rank statistics and orders: one after the other, each on both
// cores, where one beside the other would make the ranking's halves wait
// for the half that shares its core. It gives up, between its steps,
// once stale, returning nothing that would be shown.
func (r *toRank) rank(buf *agreement.Buffers, stale func() bool) ranking {
	var v ranking
	if stale() {
		return v
	}
	sa, sb := r.gathered.Ranked(buf)
	if stale() {
		return ranking{}
	}
	a, b := r.a, r.b
	v.collapse[1] = math.NaN()
	v.collapsed[0] = collapseCounted(a, r.bi, sa, r.collapsed[:]...)
	v.collapse[0], v.groups = v.collapsed[0].share, v.collapsed[0].groups
	switch {
	case b == a: // B is A: no second result
		v.collapse[1] = v.collapse[0]
	case b != nil:
		// A's count just made known too: on a first visit, B's rewards
		// distinct take its groups.
		v.collapsed[1] = collapseCounted(b, r.bi, sb, r.collapsed[0], r.collapsed[1], v.collapsed[0])
		v.collapse[1] = v.collapsed[1].share
	}
	if stale() {
		return ranking{}
	}
	v.cmp, v.sides = agreement.CompareSidesSigned(sa, sb, r.signs[0], r.signs[1], buf), [2]*agreement.Side{sa, sb}
	return v
}

// setRanking completes the comparison shown with its ranking.
func (t *compared) setRanking(r ranking) {
	t.cmp, t.sides = r.cmp, r.sides
	t.collapse, t.groups, t.collapsed = r.collapse, r.groups, r.collapsed
	t.ranked, t.toRank = true, nil
}

// release lets go of the working buffers, once no job holds them:
// hidden, the tab keeps what it draws and the two sides of it, ranked,
// which the next comparison reuses (a switch of A, B's; of B, A's), as
// when shown. A comparison prefetched before the tab's first visit is
// ranked hidden: without its sides, the first switch after the visit
// ranked both again.
func (t *compareTab) release() {
	t.takePrepared() // a switch's comparison made for a visit that left: not shown
	if t.taken > 0 || t.job != nil || t.prepared.Held() != nil {
		return
	}
	t.buf = nil
}

// LoggedMethod is method B when it is the advantage the trainer logged
// (session.LoggedMethod).
const LoggedMethod = session.LoggedMethod

// methodsB returns the methods B can be: every method the session's
// options can compute (engine.MethodsFor), A's too, and the logged
// advantage when the inputs have it.
func methodsB(s *session.Session) []engine.Method {
	methods := engine.MethodsFor(s.Options)
	if s.Result.Evaluation.Logged == nil {
		return methods
	}
	return append(methods, LoggedMethod)
}

// cycleB asks for the method step places from B in methodsB. B changes
// only here: a change of A leaves it, even when A becomes B.
func (t *compareTab) cycleB(step int) tea.Cmd {
	s := t.common.Session
	methods := methodsB(s)
	n := len(methods)
	from := s.CompareMethod
	if slices.Contains(methods, t.askedB) {
		from = t.askedB // keys pressed before the root took the last asked
	}
	i := slices.Index(methods, from)
	m := methods[((i+step)%n+n)%n]
	t.askedB = m
	t.asks++
	asked := t.asks
	return func() tea.Msg { return common.CompareMethodMsg{Method: m, Asked: asked} }
}

// PrepareJob implements common.JobPreparer: the comparison of the
// recompute's result with B's but for the ranking (compare; the ranking
// is a job once it is shown), made beside the recompute's statistics. B's
// result is the one held when it stays B's under the options being
// recomputed (a switch of A); else the recompute computes it (a visit, a
// change of B, options that change B's), and A's side is ranked while it
// does, unless held, for the ranking to take as known. It is made with
// the buffers lent (new ones when the tab let go of its own while hidden)
// and the sides known as a job would. It counts as a job taken until a
// refresh takes it (takePrepared): the sides it reads are not given back
// meanwhile.
func (t *compareTab) PrepareJob() func(res *engine.Result, computed func() *engine.Result) {
	s := t.common.Session
	method := s.CompareMethod
	if t.buf == nil && t.taken == 0 && t.job == nil {
		t.buf = new(agreement.Buffers) // let go of while hidden (release)
	}
	if s.Result == nil || t.buf == nil || t.prepared.Held() != nil || method == LoggedMethod {
		return nil
	}
	_, need := s.CompareNeeded(s.Options)
	held := s.CompareResult()
	if !need && method != s.Options.Method && held == nil {
		return nil
	}
	prepare := t.prepared.Start(prepared{bi: s.Batch, method: method, width: t.width, height: t.height, buf: t.buf})
	reloads := s.Reloads
	t.buf = nil
	t.taken++
	known, width, height := t.known, t.width, t.height
	return func(res *engine.Result, computed func() *engine.Result) {
		prepare(func(p *prepared) {
			if p.bi >= len(res.Ranking.Batches) {
				return
			}
			res.ComputeBatch(p.bi)
			b := held
			switch {
			case method == res.Options.Method:
				b = res
			case need:
				if !slices.ContainsFunc(known.sides[:], func(side *agreement.Side) bool { return side != nil && side.Of(res, p.bi) }) {
					known.sides[0] = agreement.RankedSide(res, p.bi, p.buf)
				}
				if b = computed(); b == nil {
					return
				}
			}
			grid := func(ranges [2][2]float64) chart.Grid { return newFrame(width, height, ranges).Grid }
			p.v = compare(res, b, p.bi, method, known, p.buf, grid)
			p.v.reloads = reloads
			p.a, p.b = res, b
		})
	}
}

// takePrepared takes the comparison PrepareJob made, once made, and
// returns it, or nil; its buffers are the tab's again when the tab has
// none.
func (t *compareTab) takePrepared() *prepared {
	p := t.prepared.Take()
	if p == nil {
		return nil
	}
	t.taken--
	if t.buf == nil {
		t.buf = p.buf
	}
	return p
}

// refresh starts comparing the session's two results on the current
// batch, off the event loop: B is A's own result when the methods are the
// same. Until B's result is computed (the root computes it for a
// Comparer), there is nothing to compare yet.
func (t *compareTab) refresh() {
	s := t.common.Session
	if s.Result == nil {
		return
	}
	t.gen.Add(1)
	t.computing, t.job = true, nil
	a, bi, method := s.Result, s.Batch, s.CompareMethod
	p := t.takePrepared() // taken whether it is the one shown or not, for the next to be prepared
	b := a
	switch {
	case method == LoggedMethod:
		b = nil
	case method != a.Options.Method:
		if b = s.CompareResult(); b == nil {
			return // the recompute that computes it changes the session
		}
	}
	gen, known, width, height, reloads := t.gen.Load(), t.known, t.width, t.height, s.Reloads
	if p != nil && p.a == a && p.b == b && p.bi == bi && p.method == method && p.width == width && p.height == height {
		if t.buf == p.buf {
			t.buf = nil // lent again, to the job that hands the comparison over
		}
		t.job = func() tea.Msg { return comparedMsg{gen, p.v, p.buf} }
		return
	}
	buf := t.lend()
	t.job = func() tea.Msg {
		grid := func(ranges [2][2]float64) chart.Grid { return newFrame(width, height, ranges).Grid }
		v := compare(a, b, bi, method, known, buf, grid)
		v.reloads = reloads
		return comparedMsg{gen, v, buf}
	}
}

// compare compares a's rewards with b's on batch bi, or with the logged
// advantages when b is nil, B being method, but for the ranking (rank):
// the values gathered, the sign disagreements, the points' classes and,
// with grid, their counts on the grid of their ranges (classify). The
// sides and collapse counts in known of a or b are kept for the ranking
// to take.
func compare(a, b *engine.Result, bi int, method engine.Method, known known, buf *agreement.Buffers, grid func(ranges [2][2]float64) chart.Grid) compared {
	v := compared{b: method, known: known}
	r := &toRank{a: a, b: b, bi: bi, collapsed: known.collapsed}
	if b == nil {
		r.gathered = agreement.GatherLogged(a, bi)
	} else {
		r.gathered = agreement.Gather(a, b, bi, known.sides[:], buf)
	}
	v.toRank = r
	g := r.gathered
	v.cmp = g.Comparison()
	v.cmp.PosNeg, v.cmp.NegPos = v.classify(g.A, g.B, grid)
	r.signs = [2]int{v.cmp.PosNeg, v.cmp.NegPos}
	if b == nil && len(g.A) > 0 {
		v.meanDiff, v.mostDiff = absDifference(g.A, g.B)
	}
	return v
}

// show shows a comparison computed off the event loop. The trajectory
// open stays open while it is compared, found where it is now
// (trajectory.Reading.Follow); the command returned says when it was
// closed, the run read again without it.
func (t *compareTab) show(v compared) tea.Cmd {
	s := t.common.Session
	prev := -1
	if t.chosen {
		shown := -1
		if t.selected < len(t.cmp.Index) {
			shown = t.cmp.Index[t.selected]
		}
		prev = t.chosenAt.Follow(s, shown, t.reloads, v.reloads)
	}
	t.compared, t.computing = v, false
	// The selection chosen stays on its trajectory when it is still
	// compared; else the first disagreement is.
	t.selected = slices.Index(t.cmp.Index, prev)
	if t.chosen = t.selected >= 0; !t.chosen {
		t.selected = 0
		if len(t.odd) > 0 {
			t.selected = int(t.odd[0])
		}
	}
	var cmd tea.Cmd
	if t.reading {
		cmd = t.readChanged(t.read.Keep(s, func(i int) bool { return slices.Contains(t.cmp.Index, i) }))
	}
	t.redraw()
	return cmd
}

// readChanged shows what change did to the opened trajectory
// (trajectory.Reading.Show): drawn again, or the plot shown again; it
// returns gone, the notice that the run holds it no more.
func (t *compareTab) readChanged(change trajectory.Change, gone tea.Cmd) tea.Cmd {
	return t.read.Show(t.common, &t.detail, t.width, func() { t.setReading(false) }, change, gone)
}

// pointsChunk is how many points a goroutine classifies or counts at a
// time.
const pointsChunk = 1 << 16

// classify sorts the compared points, of rewards a and b, on every core:
// their classes, the disagreements (A+ B− then A− B+, each in order) and
// the rewards' ranges, NaN left out (floats.Min and floats.Max); with
// grid, it counts them on the grid of their ranges too (countPoints), in
// the same pass. It returns how many are A+ B− and A− B+
// (stats.SignDisagreements).
func (t *compared) classify(a, b []float64, grid func(ranges [2][2]float64) chart.Grid) (posNeg, negPos int) {
	n := len(a)
	// The points in chunks, handed out to the goroutines as they come (a
	// core may be busy with other work), each chunk's disagreements after
	// the chunks before.
	type chunk struct {
		posNeg, negPos int
		ranges         [2][2]float64
	}
	chunks := make([]chunk, (n+pointsChunk-1)/pointsChunk)
	nw := parallel.Workers(n, pointsChunk)
	parallel.Chunks(n, pointsChunk, nw, func(_, lo, hi int) {
		chunks[lo/pointsChunk].ranges = [2][2]float64{rangeOf(a[lo:hi]), rangeOf(b[lo:hi])}
	})
	t.ranges = [2][2]float64{{math.Inf(1), math.Inf(-1)}, {math.Inf(1), math.Inf(-1)}}
	for _, c := range chunks {
		for k, r := range c.ranges {
			t.ranges[k] = [2]float64{min(t.ranges[k][0], r[0]), max(t.ranges[k][1], r[1])} // no NaN in the chunks
		}
	}
	for k := range t.ranges {
		if t.ranges[k][0] > t.ranges[k][1] { // no point, or all NaN
			t.ranges[k] = [2]float64{0, 1}
			if n > 0 {
				t.ranges[k] = [2]float64{math.NaN(), math.NaN()}
			}
		}
	}
	var points *chart.DensityCounter
	var g chart.Grid
	if grid != nil {
		g = grid(t.ranges)
		points = chart.NewDensityCounter(g, nw)
	}
	t.class = make([]int32, n)
	parallel.Chunks(n, pointsChunk, nw, func(w, lo, hi int) {
		posNeg, negPos := 0, 0
		for j := lo; j < hi; j++ {
			x, y := a[j], b[j]
			// Without branches: the signs are as likely one way as the
			// other. classAgree - 2 is classPosNeg, - 1 classNegPos.
			pn, np := b2i(x > 0)&b2i(y < 0), b2i(x < 0)&b2i(y > 0)
			t.class[j] = classAgree - 2*pn - np
			posNeg, negPos = posNeg+int(pn), negPos+int(np)
		}
		chunks[lo/pointsChunk].posNeg, chunks[lo/pointsChunk].negPos = posNeg, negPos
		if points != nil { // the chunk's points, still in the caches
			points.Add(w, a[lo:hi], b[lo:hi], t.class[lo:hi])
		}
	})
	for k := range chunks {
		c := &chunks[k]
		// From here on, each chunk's counts are where its disagreements
		// start.
		c.posNeg, c.negPos, posNeg, negPos = posNeg, negPos, posNeg+c.posNeg, negPos+c.negPos
	}
	t.odd = make([]int32, posNeg+negPos)
	parallel.Chunks(n, pointsChunk, nw, func(_, lo, hi int) {
		c := &chunks[lo/pointsChunk]
		pn, np := c.posNeg, posNeg+c.negPos
		for j, class := range t.class[lo:hi] {
			switch class {
			case classPosNeg:
				t.odd[pn] = int32(lo + j)
				pn++
			case classNegPos:
				t.odd[np] = int32(lo + j)
				np++
			}
		}
	})
	if points != nil {
		t.density.grid = g
		t.density.counts, t.density.worst = points.Sum()
	}
	return posNeg, negPos
}

// rangeOf returns the least and the largest of v, NaN left out: +Inf
// and -Inf when v holds no other value.
func rangeOf(v []float64) [2]float64 {
	r := [2]float64{math.Inf(1), math.Inf(-1)}
	// Compared, not min and max: those keep a NaN.
	for _, x := range v {
		if x < r[0] {
			r[0] = x
		}
		if x > r[1] {
			r[1] = x
		}
	}
	return r
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// countPoints counts the compared points, of rewards a and b, on grid g,
// unless they are: chart.Density on every core.
func (t *compared) countPoints(g chart.Grid, a, b []float64) {
	if t.density.grid == g && t.density.counts != nil {
		return
	}
	nw := parallel.Workers(len(a), pointsChunk)
	points := chart.NewDensityCounter(g, nw)
	parallel.Chunks(len(a), pointsChunk, nw, func(w, lo, hi int) {
		points.Add(w, a[lo:hi], b[lo:hi], t.class[lo:hi])
	})
	t.density.grid = g
	t.density.counts, t.density.worst = points.Sum()
}

// redraw draws the scatter again (newChart).
func (t *compareTab) redraw() {
	t.chart, t.chartView = t.newChart(), ""
}

// chartString returns the scatter's view, drawn once per redraw.
func (t *compareTab) chartString() string {
	if t.chartView == "" {
		t.chartView = t.chart.View()
	}
	return t.chartView
}

// newFrame returns the scatter's frame in a tab of width x height, on
// nice axes over ranges (compared.ranges).
func newFrame(width, height int, ranges [2][2]float64) *plot.Frame {
	w := max(width-comparePanelWidth-1, 10)
	h := max(height-3, 5) // under the title and the y axis name, over the x axis name
	return plot.NewFrame(w, h,
		func(rows int) chart.Axis { return chart.Fit(ranges[1][0], ranges[1][1], rows, chart.Options{}) },
		func(cols int) chart.Axis {
			return chart.Fit(ranges[0][0], ranges[0][1], cols, chart.Options{LabelGap: true})
		})
}

// newChart draws reward B against reward A on nice axes with the zero
// advantages dotted: a lone point as its class' marker, a cell several
// points share shaded by their number (chart.Level) in the style of its
// lowest class, and the selection.
func (t *compareTab) newChart() *plot.Frame {
	st := t.common.Styles
	ranges := [2][2]float64{{0, 1}, {0, 1}}
	if t.cmp.N > 0 {
		ranges = t.ranges
	}
	f := newFrame(t.width, t.height, ranges)
	f.VLine(0, '┊', st.Muted)
	f.HLine(0, '┈', st.Muted)
	if t.cmp.N > 0 && len(t.class) == t.cmp.N {
		g := f.Grid
		t.countPoints(g, t.cmp.A, t.cmp.B)
		most := slices.Max(t.density.counts)
		for c, count := range t.density.counts {
			if count == 0 {
				continue
			}
			class := t.density.worst[c]
			r, style := classRune(class), st.Positive
			if class != classAgree {
				style = st.Negative
			}
			if count > 1 {
				r = densityRunes[max(chart.Level(count, most, len(densityRunes)+1)-1, 0)]
			}
			f.Canvas.SetCell(f.CellPoint(c%g.X.Cells, c/g.X.Cells), canvas.NewCellWithStyle(r, style))
		}
		if t.selected < t.cmp.N {
			f.Mark(t.cmp.A[t.selected], t.cmp.B[t.selected], selectedRune, st.Selected)
		}
	}
	f.DrawAxes(st.Axis, st.AxisLabel)
	return f
}

// classRune is the marker of a lone point of class c.
func classRune(c int32) rune {
	switch c {
	case classPosNeg:
		return posNegRune
	case classNegPos:
		return negPosRune
	}
	return agreeRune
}

func (t *compareTab) View() string {
	s := t.common.Session
	if s.Result == nil || t.width <= 0 || (t.b == "" || t.chart == nil) && !t.computing {
		return ""
	}
	st := t.common.Styles
	if t.computing {
		title := fmt.Sprintf("the rewards of %s (A) against %s (B)", s.Result.Options.Method, s.CompareMethod)
		return common.FitBox(common.Computing(st, textsafe.Line(title), t.width), t.width, t.height)
	}
	if t.reading {
		status := common.ReaderStatus(st, t.read.Opened.Full.ID, fmt.Sprintf(" · %3.0f%% · esc: back to the plot", t.detail.ScrollPercent()*100), t.width)
		return common.FitBox(lipgloss.JoinVertical(lipgloss.Left, status, t.detail.View()), t.width, t.height)
	}
	a, b := string(s.Result.Options.Method), string(t.b)
	title := st.Title.Render(fmt.Sprintf("Rewards of %s (A) against %s (B)", a, b))
	if t.cmp.N == 0 { // else the axes are drawn empty with no word
		title += st.Muted.Render(" · nothing to plot: no valid trajectory in this batch")
	}
	plot := lipgloss.JoinVertical(lipgloss.Left,
		st.AxisLabel.Render("↑ reward B: "+b),
		t.chartString(),
		lipgloss.PlaceHorizontal(t.chart.Canvas.Width(), lipgloss.Right, st.AxisLabel.Render("reward A: "+a+" →")))
	body := lipgloss.JoinHorizontal(lipgloss.Top, plot, " ", t.panelView())
	return common.FitBox(lipgloss.JoinVertical(lipgloss.Left, title, body), t.width, t.height)
}

// panelView shows the methods, the agreement statistics, the selected
// trajectory and the legend, each line at most comparePanelWidth cells.
func (t *compareTab) panelView() string {
	st := t.common.Styles
	// The value is cut to the panel before it is styled: cut after, the
	// cut would fall inside the colour codes and show them escaped.
	styledRow := func(label, value string, style lipgloss.Style) string {
		return st.Label.Render(fmt.Sprintf("%-13s", label)) + " " + style.Render(common.FitLine(value, panelValueWidth))
	}
	s := t.common.Session
	c := t.cmp
	row := func(label, value string) string { return styledRow(label, value, lipgloss.NewStyle()) }
	// At small heights the panel is fitted by priority: the legend on
	// one line, then the rank agreement as Spearman's ρ alone, then the
	// sections without blank lines between them, then without the count
	// compared; the selection and a legend stay.
	height := t.height - 1 // under the title
	var panel string
	for compact := range 5 {
		// Until ranked, the rank statistics say they are being ranked.
		rankRow := func(label string, value func() string) string {
			if !t.ranked {
				return styledRow(label, rankingText, st.Muted)
			}
			return row(label, value())
		}
		// A statistic that is undefined (NaN) says why, not NaN.
		agreementRow := func(label string, v float64, value func() string) string {
			if t.ranked && math.IsNaN(v) {
				return styledRow(label, "– "+undefinedWhy(c), st.Muted)
			}
			return rankRow(label, value)
		}
		rankRows := []string{agreementRow("Spearman ρ", c.Spearman, func() string { return common.FormatValue(c.Spearman) })}
		if compact < 2 {
			rankRows = []string{
				st.Title.Render("rank agreement"),
				rankRows[0],
				agreementRow("Kendall τ-b", c.Kendall, func() string { return common.FormatValue(c.Kendall) }),
				agreementRow(fmt.Sprintf("top %.0f%% share", agreement.TopFraction*100), topOverlap(c), func() string {
					return fmt.Sprintf("%d/%d (%s)", c.TopShared, c.TopK, common.FormatValue(c.TopOverlap))
				}),
			}
		}
		if t.b == LoggedMethod && c.N > 0 {
			rankRows = append(rankRows, row("mean |A − B|", common.FormatValue(t.meanDiff)))
			if compact < 2 {
				rankRows = append(rankRows, row("max |A − B|", common.FormatValue(t.mostDiff)))
			}
		}
		methods := []string{
			row("A (m/M)", string(s.Result.Options.Method)),
			row("B (b/B)", string(t.b)),
		}
		if compact < 4 {
			methods = append(methods, row("compared", common.Count(c.N, "trajectory", "trajectories")))
		}
		sections := []string{
			strings.Join(methods, "\n"),
			strings.Join(rankRows, "\n"),
			strings.Join([]string{
				st.Title.Render("opposite advantages (d/D)"),
				styledRow("A +, B −", fmt.Sprint(c.PosNeg), st.Negative),
				styledRow("A −, B +", fmt.Sprint(c.NegPos), st.Negative),
			}, "\n"),
			t.collapseView(styledRow),
		}
		if sel := t.selectedView(row); sel != "" {
			sections = append(sections, sel)
		}
		sections = append(sections, t.legendView(compact >= 1))
		if out := t.leftOut(); out != "" {
			sections = append(sections, out)
		}
		separator := "\n\n"
		if compact >= 3 {
			separator = "\n"
		}
		panel = strings.Join(sections, separator)
		if strings.Count(panel, "\n") < height {
			break
		}
	}
	return panel
}

// leftOut says the batch's trajectories not compared, a line for each
// reason: invalid, dropped by the group filter (not invalid data), or,
// compared with the logged advantages, valid with none logged.
func (t *compareTab) leftOut() string {
	s, st := t.common.Session, t.common.Styles
	batch := s.Counts()
	notLogged := len(s.CurrentBatch().Members) - t.cmp.N - batch.Invalid - batch.Dropped
	var lines []string
	if n := batch.Invalid; n > 0 {
		lines = append(lines, st.Warning.Render(common.FitLine(common.Count(n, "invalid trajectory", "invalid trajectories")+" left out", comparePanelWidth)))
	}
	if n := batch.Dropped; n > 0 {
		lines = append(lines, st.Muted.Render(common.FitLine(fmt.Sprintf("%d dropped by the filter, left out", n), comparePanelWidth)))
	}
	if notLogged > 0 {
		lines = append(lines, st.Muted.Render(common.FitLine(fmt.Sprintf("%d with no logged advantage left out", notLogged), comparePanelWidth)))
	}
	return strings.Join(lines, "\n")
}

// Until the comparison is ranked, a rank statistic shows rankingText and
// the collapse counts countingText.
const (
	rankingText  = "ranking…"
	countingText = "counting…"
)

// collapseView shows, on one line, for A and B, how many of the batch's
// groups give distinct objective vectors identical rewards (TRL#4785's
// advantage collapse): "A 14 · B 0 of 14".
func (t *compareTab) collapseView(row func(label, value string, style lipgloss.Style) string) string {
	st := t.common.Styles
	switch {
	case !t.ranked:
		return row("collapsed", countingText, st.Muted)
	case t.cmp.N == 0:
		return row("collapsed", "– no valid trajectory", st.Muted)
	case t.groups == 0: // wrapped: the panel is narrow
		return row("collapsed", "– no group with", st.Muted) + "\n" + row("", "distinct objectives", st.Muted)
	}
	var parts []string
	tied := false
	for k, name := range []string{"A", "B"} {
		if math.IsNaN(t.collapse[k]) {
			continue
		}
		n := int(math.Round(t.collapse[k] * float64(t.groups)))
		tied = tied || n > 0
		parts = append(parts, fmt.Sprintf("%s %d", name, n))
	}
	style := lipgloss.NewStyle()
	if tied {
		style = st.Negative
	}
	counts, of := strings.Join(parts, " · "), fmt.Sprintf("of %d", t.groups)
	// The widest counts of this many groups: a batch whose counts may not
	// fit one row with their total has the total on the next, whatever
	// the methods, so that the panel does not move on a switch.
	widest := fmt.Sprintf("A %d · B %d of %d", t.groups, t.groups, t.groups)
	if lipgloss.Width(widest) <= panelValueWidth {
		return row("collapsed", counts+" "+of, style)
	}
	return row("collapsed", counts, style) + "\n" + row("", of, style)
}

// topOverlap is c's top share, NaN, to be explained as the rank
// agreement is (undefinedWhy), where that is undefined: with one
// trajectory, or the rewards of A or B all equal, the top is not the
// best but whichever ties come first, and its share says nothing.
func topOverlap(c agreement.Comparison) float64 {
	if math.IsNaN(c.Spearman) {
		return math.NaN()
	}
	return c.TopOverlap
}

// undefinedWhy says why c's rank agreement is undefined (NaN): no
// trajectory or one compared, or the rewards of A or B all equal, which
// rank nothing.
func undefinedWhy(c agreement.Comparison) string {
	equal := func(v []float64) bool {
		return len(v) > 0 && !slices.ContainsFunc(v, func(x float64) bool { return x != v[0] })
	}
	switch a, b := equal(c.A), equal(c.B); {
	case c.N == 0:
		return "no valid trajectory"
	case c.N == 1:
		return "one trajectory only"
	case a && b && c.A[0] == 0 && c.B[0] == 0:
		return "every reward is 0"
	case a && b:
		return "A, B rewards all equal"
	case a:
		return "every A reward equal"
	case b:
		return "every B reward equal"
	}
	return "undefined"
}

// selectedView shows the selected trajectory: its id, its two rewards and
// its place in the list of disagreements.
func (t *compareTab) selectedView(row func(label, value string) string) string {
	if t.selected >= t.cmp.N {
		return ""
	}
	st := t.common.Styles
	j := t.selected
	lines := []string{st.Title.Render("selected (enter, o: group)")}
	label := "id" // on the first of the lines the id wraps over
	for _, l := range common.WrapKey(t.common.Session.Trajectories.At(t.cmp.Index[j]).ID, panelValueWidth, common.MaxIDLines) {
		lines = append(lines, row(label, l))
		label = ""
	}
	lines = append(lines,
		row("reward A", common.FormatValue(t.cmp.A[j])),
		row("reward B", common.FormatValue(t.cmp.B[j])))
	if k := slices.Index(t.odd, int32(j)); k >= 0 {
		lines = append(lines, row("disagreement", fmt.Sprintf("%d of %d", k+1, len(t.odd))))
	}
	return strings.Join(lines, "\n")
}

// absDifference returns the mean and the largest |a[j] − b[j]|.
func absDifference(a, b []float64) (mean, most float64) {
	for j, x := range a {
		d := math.Abs(x - b[j])
		mean += d
		most = max(most, d)
	}
	return mean / float64(len(a)), most
}

// legendView explains the markers; oneLine, only those of the points.
func (t *compareTab) legendView(oneLine bool) string {
	st := t.common.Styles
	if oneLine {
		return st.Positive.Render(string(agreeRune)) + " same  " + st.Negative.Render(string(posNegRune)) + " A+B−  " +
			st.Negative.Render(string(negPosRune)) + " A−B+  " + st.Selected.Render(string(selectedRune)) + " selected"
	}
	return strings.Join([]string{
		st.Title.Render("legend"),
		st.Positive.Render(string(agreeRune)) + " same direction (or zero)",
		st.Negative.Render(string(posNegRune)) + " A +, B −   " + st.Negative.Render(string(negPosRune)) + " A −, B +",
		st.Positive.Render(string(densityRunes[0])+string(densityRunes[3])) + " a few to most points",
		st.Selected.Render(string(selectedRune)) + " selected  " + st.Muted.Render("┈┊") + " zero advantage",
	}, "\n")
}

func (t *compareTab) ShortHelp() []key.Binding {
	k := t.keys
	return []key.Binding{common.PairHelp(k.Open, "enter", "open"), k.Close, common.PairHelp(k.OpenGroup, "o", "group"), common.PairHelp(k.Left, "←→↑↓", "select"),
		common.PairHelp(k.NextOdd, "d/D", "disagreements"), common.PairHelp(k.NextB, "b/B", "method B")}
}

func (t *compareTab) FullHelp() [][]key.Binding {
	k := t.keys
	if t.reading {
		k.Click = key.Binding{} // a click does nothing while reading
	}
	return [][]key.Binding{{k.NextB, k.PrevB, k.Left, k.Right, k.Down, k.Up, k.Click}, {k.NextOdd, k.PrevOdd, k.Open, k.OpenGroup, k.Close, k.Ends}, {k.Collapsed}}
}
