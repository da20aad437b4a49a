package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"
	"gonum.org/v1/gonum/floats"

	"github.com/rewardlens/rewardlens/engine"
)

// paretoPanelWidth is the width of the details beside the plot.
const paretoPanelWidth = 34

// selectedRune marks the selected trajectory.
const selectedRune = '◎'

type paretoKeyMap struct {
	NextX, NextY key.Binding
	Prev, Next   key.Binding
	ZoomIn       key.Binding
	ZoomOut      key.Binding
	Left, Right  key.Binding
	Up, Down     key.Binding
	ResetView    key.Binding
}

func newParetoKeyMap() paretoKeyMap {
	return paretoKeyMap{
		NextX:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "next x objective")),
		NextY:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "next y objective")),
		Prev:      key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous point")),
		Next:      key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next point")),
		ZoomIn:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/wheel", "zoom in")),
		ZoomOut:   key.NewBinding(key.WithKeys("-"), key.WithHelp("-/wheel", "zoom out")),
		Left:      key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "pan left")),
		Right:     key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "pan right")),
		Up:        key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "pan up")),
		Down:      key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "pan down")),
		ResetView: key.NewBinding(key.WithKeys("0"), key.WithHelp("0", "reset zoom")),
	}
}

// canvasKeyMap hands the pan and zoom keys to ntcharts' handler.
func (k paretoKeyMap) canvasKeyMap() canvas.KeyMap {
	return canvas.KeyMap{Up: k.Up, Down: k.Down, Left: k.Left, Right: k.Right, PgUp: k.ZoomIn, PgDown: k.ZoomOut}
}

// paretoTab plots the current batch on two objectives, each point coloured
// by its Pareto rank in its comparison group.
type paretoTab struct {
	common        *Common
	keys          paretoKeyMap
	width, height int

	// xObj and yObj are the objectives on the axes.
	xObj, yObj int
	proj       engine.Projection
	// selected is a position in proj.Index.
	selected int
	chart    linechart.Model
}

func newParetoTab(c *Common) Tab {
	return &paretoTab{common: c, keys: newParetoKeyMap(), yObj: 1}
}

func (t *paretoTab) Title() string { return "Pareto" }

func (t *paretoTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.chart = t.newChart()
	t.draw()
}

func (t *paretoTab) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case SessionChangedMsg:
		t.project()
	case tea.KeyPressMsg:
		t.handleKey(msg)
	case tea.MouseWheelMsg:
		t.moveView(msg)
	}
	return t, nil
}

func (t *paretoTab) handleKey(msg tea.KeyPressMsg) {
	switch {
	case key.Matches(msg, t.keys.NextX):
		t.xObj = t.nextObjective(t.xObj, t.yObj)
		t.project()
	case key.Matches(msg, t.keys.NextY):
		t.yObj = t.nextObjective(t.yObj, t.xObj)
		t.project()
	case key.Matches(msg, t.keys.Prev):
		t.selected = max(t.selected-1, 0)
		t.draw()
	case key.Matches(msg, t.keys.Next):
		t.selected = max(min(t.selected+1, len(t.proj.Index)-1), 0)
		t.draw()
	case key.Matches(msg, t.keys.ResetView):
		t.chart.SetViewXYRange(t.chart.MinX(), t.chart.MaxX(), t.chart.MinY(), t.chart.MaxY())
		t.draw()
	default:
		t.moveView(msg)
	}
}

// moveView passes pan and zoom keys and the mouse wheel to ntcharts.
func (t *paretoTab) moveView(msg tea.Msg) {
	t.chart, _ = t.chart.Update(msg)
	t.draw()
}

// nextObjective returns the objective after k, skipping the other axis'
// unless it is the only other one.
func (t *paretoTab) nextObjective(k, other int) int {
	m := len(t.common.Session.Result.Objectives)
	next := (k + 1) % m
	if next == other && m > 2 {
		next = (next + 1) % m
	}
	return next
}

// project rebuilds the points, keeping the selected trajectory when it is
// still shown, and a chart fitted to them.
func (t *paretoTab) project() {
	res := t.common.Session.Result
	m := len(res.Objectives)
	t.xObj, t.yObj = min(t.xObj, m-1), min(t.yObj, m-1)
	t.keys.NextX.SetEnabled(m > 1)
	t.keys.NextY.SetEnabled(m > 1)
	previous := t.selectedTrajectory()
	t.proj = res.Project(t.common.Session.Batch, t.xObj, t.yObj)
	t.selected = 0
	for j, i := range t.proj.Index {
		if i == previous {
			t.selected = j
		}
	}
	t.chart = t.newChart()
	t.draw()
}

// selectedTrajectory returns the selected trajectory's index, -1 if none.
func (t *paretoTab) selectedTrajectory() int {
	if t.selected >= len(t.proj.Index) {
		return -1
	}
	return t.proj.Index[t.selected]
}

func (t *paretoTab) newChart() linechart.Model {
	x0, x1, y0, y1 := 0.0, 1.0, 0.0, 1.0
	if len(t.proj.Index) > 0 {
		x0, x1 = paddedRange(floats.Min(t.proj.X), floats.Max(t.proj.X))
		y0, y1 = paddedRange(floats.Min(t.proj.Y), floats.Max(t.proj.Y))
	}
	st := t.common.Styles
	w := max(t.width-paretoPanelWidth-1, 10)
	h := max(t.height-3, 5) // under the title and the y axis name, over the x axis name
	// A key press or a notch of the wheel pans, or zooms each side, by a
	// twentieth of the range.
	lc := linechart.New(w, h, x0, x1, y0, y1,
		linechart.WithXYSteps(2, 4),
		linechart.WithStyles(st.Axis, st.AxisLabel, lipgloss.NewStyle()),
		linechart.WithKeyMap(t.keys.canvasKeyMap()),
		linechart.WithUpdateHandler(linechart.XYAxesUpdateHandler((x1-x0)/20, (y1-y0)/20)))
	lc.Focus()
	return lc
}

// draw redraws the chart: the selected point's group frontier, every point
// from the worst rank to the best (so that a cell shows the best rank it
// holds), the selection, then the axes over whatever spilled past them.
func (t *paretoTab) draw() {
	lc := &t.chart
	lc.Clear()
	relabel(lc)
	st := t.common.Styles
	drawPolyline(lc, t.frontier(), st.Rank[0])
	res := t.common.Session.Result
	for bucket := len(st.Rank) - 1; bucket >= 0; bucket-- {
		for j, i := range t.proj.Index {
			if rankBucket(res.Ranks[i]) == bucket && inView(lc, t.proj.X[j], t.proj.Y[j]) {
				drawPoint(lc, canvas.Float64Point{X: t.proj.X[j], Y: t.proj.Y[j]}, st.RankMarkers[bucket], st.Rank[bucket])
			}
		}
	}
	if j := t.selected; j < len(t.proj.Index) && inView(lc, t.proj.X[j], t.proj.Y[j]) {
		drawPoint(lc, canvas.Float64Point{X: t.proj.X[j], Y: t.proj.Y[j]}, selectedRune, st.Selected)
	}
	clipToGraph(lc)
	lc.DrawXYAxisAndLabel()
	t.keys.ResetView.SetEnabled(t.zoomed())
}

// zoomed reports whether the chart shows less than all of its range.
func (t *paretoTab) zoomed() bool {
	lc := &t.chart
	return lc.ViewMinX() != lc.MinX() || lc.ViewMaxX() != lc.MaxX() ||
		lc.ViewMinY() != lc.MinY() || lc.ViewMaxY() != lc.MaxY()
}

// rankBucket maps a Pareto rank to its index in Styles.Rank and
// Styles.RankMarkers: 0, 1, 2, >= 3.
func rankBucket(rank int) int { return min(rank, 3) }

// frontier returns, in ascending x, the rank-0 points of the selected
// trajectory's comparison group: ranks are computed per group, so the
// rank-0 points of two groups do not make one front.
func (t *paretoTab) frontier() []canvas.Float64Point {
	res := t.common.Session.Result
	group := t.selectedGroup()
	onFront := make(map[int]bool, len(group.Members))
	for _, i := range group.Members {
		onFront[i] = res.Ranks[i] == 0
	}
	var points []canvas.Float64Point
	for j, i := range t.proj.Index {
		if onFront[i] {
			points = append(points, canvas.Float64Point{X: t.proj.X[j], Y: t.proj.Y[j]})
		}
	}
	return points
}

// selectedGroup returns the comparison group of the selected trajectory
// (an empty group when nothing is selected).
func (t *paretoTab) selectedGroup() engine.Group {
	sel := t.selectedTrajectory()
	for _, g := range t.common.Session.CurrentBatch().Groups {
		for _, i := range g.Members {
			if i == sel {
				return g
			}
		}
	}
	return engine.Group{}
}

func (t *paretoTab) View() string {
	res := t.common.Session.Result
	if res == nil || t.width <= 0 {
		return ""
	}
	st := t.common.Styles
	xName, yName := t.axisName(t.xObj), t.axisName(t.yObj)
	title := st.Title.Render(fmt.Sprintf("Pareto ranks: %s against %s", yName, xName))
	plot := lipgloss.JoinVertical(lipgloss.Left,
		st.AxisLabel.Render("↑ "+yName),
		t.chart.View(),
		lipgloss.PlaceHorizontal(t.chart.Width(), lipgloss.Right, st.AxisLabel.Render(xName+" →")))
	body := lipgloss.JoinHorizontal(lipgloss.Top, plot, " ", t.panelView())
	return fitBox(lipgloss.JoinVertical(lipgloss.Left, title, body), t.width, t.height)
}

// axisName names objective k with its goal, sanitised.
func (t *paretoTab) axisName(k int) string {
	o := t.common.Session.Result.Objectives[k]
	return fitLine(fmt.Sprintf("%s (%s)", o.Name, o.Goal), paretoPanelWidth)
}

// panelView shows the selected trajectory, the legend and what the plot
// leaves out.
func (t *paretoTab) panelView() string {
	return strings.Join([]string{t.detailsView(), t.legendView(), t.notesView()}, "\n\n")
}

func (t *paretoTab) detailsView() string {
	st := t.common.Styles
	sel := t.selectedTrajectory()
	if sel < 0 {
		return st.Muted.Render("no valid trajectory in this batch")
	}
	res := t.common.Session.Result
	tr := t.common.Session.Trajectories.At(sel)
	row := func(label, value string) string {
		return st.Label.Render(padRight(fitLine(label, 10), 10)) + " " + fitLine(value, paretoPanelWidth-11)
	}
	lines := []string{
		st.Title.Render(fmt.Sprintf("point %d of %d", t.selected+1, len(t.proj.Index))),
		row("id", tr.ID),
		row("group", tr.Group),
	}
	for k, o := range res.Objectives {
		lines = append(lines, row(o.Name, formatValue(res.Values[sel*res.M+k])))
	}
	lines = append(lines,
		row("rank", fmt.Sprintf("%d of %d fronts", res.Ranks[sel], res.Fronts[sel])),
		row("crowding", formatValue(res.Crowding[sel])),
		row("score", formatValue(res.Scores[sel])),
		row("reward", formatValue(res.Rewards[sel])))
	return strings.Join(lines, "\n")
}

func (t *paretoTab) legendView() string {
	st := t.common.Styles
	names := [4]string{"rank 0 (frontier)", "rank 1", "rank 2", "rank ≥ 3"}
	lines := []string{st.Title.Render("legend")}
	for b, name := range names {
		lines = append(lines, st.Rank[b].Render(string(st.RankMarkers[b]))+" "+name)
	}
	lines = append(lines, st.Selected.Render(string(selectedRune))+" selected")
	front := "batch frontier"
	if key := t.selectedGroup().Key; key != "" {
		front = "frontier of group " + key
	}
	lines = append(lines, st.Rank[0].Render("──")+" "+fitLine(front, paretoPanelWidth-3))
	return strings.Join(lines, "\n")
}

// notesView says what the plot cannot show.
func (t *paretoTab) notesView() string {
	st := t.common.Styles
	var notes []string
	if m := len(t.common.Session.Result.Objectives); m > 2 {
		notes = append(notes, fmt.Sprintf("ranks are over %d objectives: this\nplot projects them on two", m))
	}
	if n := t.proj.Hidden; n > 0 {
		notes = append(notes, st.Warning.Render(count(n, "invalid trajectory", "invalid trajectories")+" hidden"))
	}
	return strings.Join(notes, "\n")
}

func (t *paretoTab) ShortHelp() []key.Binding {
	// ResetView shows only when zoomed in.
	return []key.Binding{t.keys.NextX, t.keys.NextY, t.keys.Prev, t.keys.Next, t.keys.ZoomIn, t.keys.ZoomOut, t.keys.ResetView}
}

func (t *paretoTab) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{t.keys.NextX, t.keys.NextY, t.keys.Prev, t.keys.Next},
		{t.keys.ZoomIn, t.keys.ZoomOut, t.keys.ResetView},
		{t.keys.Left, t.keys.Right, t.keys.Up, t.keys.Down},
	}
}
