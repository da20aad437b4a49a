package steps

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/plot"
)

// The smallest cell a Steps chart is drawn in, title included: below it
// the grid scrolls.
const (
	minStepsChartWidth  = 36
	minStepsChartHeight = 8
)

// currentRune marks the current batch's point.
const currentRune = '◆'

// stepSeries is one statistic across the batches.
type stepSeries struct {
	title  string
	values []float64 // one per batch
	// nonNegative and integer say what values can be, for its axis.
	nonNegative, integer bool
}

// maxFindingLines is how many health findings the Steps tab lists.
const maxFindingLines = 5

type stepsKeyMap struct {
	Prev, Next  key.Binding
	Open, Close key.Binding
}

func newStepsKeyMap() stepsKeyMap {
	return stepsKeyMap{
		Prev:  key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous chart")),
		Next:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next chart")),
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "full screen")),
		Close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "all charts"), key.WithDisabled()),
	}
}

// stepsTab draws, batch after batch, the statistics that show how training
// went: reward mean and std, each objective's mean, the frontier size and
// hypervolume, frac_zero_std_groups and the mean step_count; under them,
// the health findings. The charts share the screen in a grid that grows
// with it and scrolls to the selected chart when they do not fit; enter
// shows the selected one alone.
type stepsTab struct {
	common        *common.Common
	keys          stepsKeyMap
	width, height int

	// trends caches result's trends: a batch change keeps the result.
	result *engine.Result
	trends []engine.Trend
	series []stepSeries
	// selected is the selected chart, top the first grid row shown, and
	// full whether the selected chart fills the tab.
	selected, top int
	full          bool
	// charts are the drawn charts, titles included, of the rows shown;
	// frames their plots.
	charts map[int]string
	frames map[int]*plot.Frame
}

// New returns the Steps tab.
func New(c *common.Common) common.Tab { return &stepsTab{common: c, keys: newStepsKeyMap()} }

func (t *stepsTab) Title() string { return "Steps" }

func (t *stepsTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.draw()
}

func (t *stepsTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SessionChangedMsg, common.HealthReadyMsg:
		t.draw()
	case tea.KeyPressMsg:
		t.handleKey(msg)
	case tea.MouseWheelMsg:
		// The wheel scrolls the grid a chart at a time, as up and down.
		switch msg.Button {
		case tea.MouseWheelUp:
			t.handleKey(tea.KeyPressMsg{Code: tea.KeyUp})
		case tea.MouseWheelDown:
			t.handleKey(tea.KeyPressMsg{Code: tea.KeyDown})
		}
	}
	return t, nil
}

func (t *stepsTab) handleKey(msg tea.KeyPressMsg) {
	switch {
	case key.Matches(msg, t.keys.Prev):
		t.selected = max(t.selected-1, 0)
	case key.Matches(msg, t.keys.Next):
		t.selected = max(min(t.selected+1, len(t.series)-1), 0)
	case key.Matches(msg, t.keys.Open):
		t.full = true
	case key.Matches(msg, t.keys.Close):
		t.full = false
	default:
		return
	}
	t.keys.Open.SetEnabled(!t.full)
	t.keys.Close.SetEnabled(t.full)
	t.draw()
}

// refreshTrends takes the trends of a new result, once its health job
// computed them off the event loop.
func (t *stepsTab) refreshTrends() {
	res := t.common.Session.Result
	if res == t.result || !t.common.Session.HealthReady() {
		return
	}
	t.result, t.trends = res, t.common.Session.Trends()
	t.series = stepsSeries(res.Objectives, res.Evaluation.Constraints, t.trends)
	t.selected = min(t.selected, len(t.series)-1)
}

// stepsSeries returns the charted statistics; the hypervolume only for 2
// or 3 objectives, the others have none; with constraints, the feasible
// share (BatchStats.Feasible), and each constraint's when there are
// several (BatchStats.ConstraintFeasible).
func stepsSeries(objectives []engine.Objective, constraints []engine.ConstraintDef, trends []engine.Trend) []stepSeries {
	series := []stepSeries{
		{title: "reward mean"},
		{title: "reward std", nonNegative: true},
	}
	for _, o := range objectives {
		series = append(series, stepSeries{title: textsafe.Line(fmt.Sprintf("%s mean (%s)", o.Name, o.Goal))})
	}
	series = append(series, stepSeries{title: "frontier size (rank 0)", nonNegative: true, integer: true})
	hypervolume := len(objectives) == 2 || len(objectives) == 3
	if hypervolume {
		series = append(series, stepSeries{title: "hypervolume", nonNegative: true})
	}
	series = append(series,
		stepSeries{title: "frac_zero_std_groups", nonNegative: true},
		stepSeries{title: "mean step_count", nonNegative: true})
	perConstraint := len(constraints) > 1
	if len(constraints) > 0 {
		series = append(series, stepSeries{title: "feasible share", nonNegative: true})
	}
	if perConstraint {
		for _, d := range constraints {
			series = append(series, stepSeries{title: textsafe.Line("share meeting " + d.Expr), nonNegative: true})
		}
	}
	for _, tr := range trends {
		values := []float64{tr.Reward.Mean, tr.Reward.Std}
		for _, o := range tr.Objectives {
			values = append(values, o.Mean)
		}
		values = append(values, float64(tr.FrontierSize))
		if hypervolume {
			values = append(values, tr.Hypervolume)
		}
		values = append(values, tr.FracZeroStdGroups, tr.MeanStepCount)
		if len(constraints) > 0 {
			values = append(values, tr.Feasible)
		}
		if perConstraint {
			values = append(values, tr.ConstraintFeasible...)
		}
		for k, v := range values {
			series[k].values = append(series[k].values, v)
		}
	}
	return series
}

// stepsLayout is how the charts share the tab.
type stepsLayout struct {
	// cols and rows are the grid's; shown is how many of its rows fit.
	cols, rows, shown int
	// cellWidth and cellHeight are a chart's, title included.
	cellWidth, cellHeight int
}

// chartsHeight returns the rows left to the charts, under the legend and
// over the findings.
func (t *stepsTab) chartsHeight() int { return t.height - 1 - len(t.healthLines()) }

// layout returns the grid: as many columns as minStepsChartWidth allows
// (at most 3), and rows sharing the height; when they do not all fit in
// it at minStepsChartHeight, the rows that do, which scroll.
func (t *stepsTab) layout() stepsLayout {
	height := t.chartsHeight()
	cols := min(max(t.width/minStepsChartWidth, 1), 3)
	rows := max((len(t.series)+cols-1)/cols, 1)
	shown := min(rows, max(height/minStepsChartHeight, 1))
	return stepsLayout{cols: cols, rows: rows, shown: shown, cellWidth: t.width / cols, cellHeight: max(height/shown, 3)}
}

// draw scrolls the selected chart into view and draws the charts shown
// for the current batch.
func (t *stepsTab) draw() {
	if t.common.Session.Result == nil || t.width <= 0 || t.height <= 0 {
		return
	}
	t.refreshTrends()
	t.charts, t.frames = map[int]string{}, map[int]*plot.Frame{}
	if len(t.trends) == 0 {
		return
	}
	if t.full {
		t.charts[t.selected] = t.chartView(t.selected, t.width, t.chartsHeight())
		return
	}
	l := t.layout()
	row := t.selected / l.cols
	t.top = min(max(t.top, row-l.shown+1), row)
	for j := t.top * l.cols; j < min((t.top+l.shown)*l.cols, len(t.series)); j++ {
		t.charts[j] = t.chartView(j, l.cellWidth-1, l.cellHeight)
	}
}

// chartView draws series j in width x height cells: its title, which says
// the current batch's value, over the chart.
func (t *stepsTab) chartView(j, width, height int) string {
	st := t.common.Styles
	s := t.series[j]
	b := t.common.Session.Batch
	marker := "  "
	titleStyle := st.Title
	if j == t.selected {
		marker, titleStyle = "▸ ", st.Selected
	}
	// A title too long is cut in the series' name, not in the value.
	value := st.Muted.Render(fmt.Sprintf(" · %c step %d: ", currentRune, t.trends[b].Step)) + common.FormatValue(s.values[b])
	name := ansi.Truncate(s.title, max(width-len(marker)-ansi.StringWidth(value), 1), "…")
	title := marker + titleStyle.Render(name) + value
	f := t.chart(s, width, height-1)
	t.frames[j] = f
	return ansi.Truncate(title, width, "…") + "\n" + f.View()
}

// chart draws one series against the batches' steps as a braille line,
// the current batch on a dotted vertical line and marked, a gap where a
// batch has no value.
func (t *stepsTab) chart(s stepSeries, width, height int) *plot.Frame {
	st := t.common.Styles
	lo, hi := finiteRange(s.values)
	first, last := float64(t.trends[0].Step), float64(t.trends[len(t.trends)-1].Step)
	f := plot.NewFrame(width, height,
		func(rows int) chart.Axis {
			return chart.Fit(lo, hi, rows, chart.Options{NonNegative: s.nonNegative && lo >= 0, Integer: s.integer})
		},
		func(cols int) chart.Axis {
			return chart.Fit(first, last, cols, chart.Options{LabelGap: true, NonNegative: first >= 0, Integer: true})
		})
	if first == last {
		f.XTick = func(v float64) bool { return v == first }
	}
	current := t.common.Session.Batch
	f.VLine(float64(t.trends[current].Step), '┊', st.Muted)
	var lines [][]canvas.Float64Point
	var line []canvas.Float64Point
	for b, v := range s.values {
		if math.IsNaN(v) {
			if len(line) > 0 {
				lines, line = append(lines, line), nil
			}
			continue
		}
		line = append(line, canvas.Float64Point{X: float64(t.trends[b].Step), Y: v})
	}
	lines = append(lines, line)
	f.BrailleLines(lines, st.Bar)
	if v := s.values[current]; !math.IsNaN(v) {
		f.Mark(float64(t.trends[current].Step), v, currentRune, st.Selected)
	}
	f.DrawAxes(st.Axis, st.AxisLabel)
	return f
}

// finiteRange returns the smallest and largest non-NaN values, 0 and 1
// when there is none.
func finiteRange(values []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi {
		return 0, 1
	}
	return lo, hi
}

func (t *stepsTab) View() string {
	if t.common.Session.Result != nil && !t.common.Session.HealthReady() && t.width > 0 {
		return common.FitBox(common.Computing(t.common.Styles, "the trends", t.width), t.width, t.height)
	}
	if len(t.charts) == 0 {
		return ""
	}
	st := t.common.Styles
	legend := fmt.Sprintf("%c┊ the current batch ([ and ] move it) · one point per batch, by training step", currentRune)
	var body string
	if t.full {
		legend = "esc: all charts · " + legend
		body = t.charts[t.selected]
	} else {
		l := t.layout()
		if l.shown < l.rows {
			legend = fmt.Sprintf("charts %d–%d of %d (↑/↓) · ", t.top*l.cols+1, min((t.top+l.shown)*l.cols, len(t.series)), len(t.series)) + legend
		}
		var gridRows []string
		for r := t.top; r < t.top+l.shown; r++ {
			var cells []string
			for c := range l.cols {
				if view, ok := t.charts[r*l.cols+c]; ok {
					cells = append(cells, common.FitBox(view, l.cellWidth, l.cellHeight))
				}
			}
			gridRows = append(gridRows, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
		}
		body = strings.Join(gridRows, "\n")
	}
	body = common.FitBox(st.Muted.Render(legend)+"\n"+body, t.width, t.height-len(t.healthLines()))
	return common.FitBox(body+"\n"+strings.Join(t.healthLines(), "\n"), t.width, t.height)
}

// healthLines lists the health findings under the charts: a title line
// with the badge, then the first findings in step order, up to
// maxFindingLines, fewer on a short screen.
func (t *stepsTab) healthLines() []string {
	s, st := t.common.Session, t.common.Styles
	findings := s.Findings()
	baseline := cmp.Or(s.HealthConfig.Baseline, health.DefaultBaseline)
	lines := []string{st.Title.Render("health") + st.Muted.Render(fmt.Sprintf(" against the first %d batches · ", baseline)) + common.HealthBadge(st, findings)}
	// A short screen keeps its rows for the charts.
	most := min(max((t.height-10)/4, 1), maxFindingLines)
	for j, f := range findings {
		if j == most-1 && len(findings) > most {
			lines = append(lines, st.Muted.Render(fmt.Sprintf("… and %d more (rewardlens stats --health lists them)", len(findings)-j)))
			break
		}
		lines = append(lines, common.FindingLine(st, f))
	}
	return lines
}

func (t *stepsTab) ShortHelp() []key.Binding {
	return []key.Binding{t.keys.Prev, t.keys.Next, t.keys.Open, t.keys.Close}
}

func (t *stepsTab) FullHelp() [][]key.Binding { return [][]key.Binding{t.ShortHelp()} }
