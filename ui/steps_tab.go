package ui

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// The smallest cell a Steps chart is drawn in, title included.
const (
	minStepsChartWidth  = 30
	minStepsChartHeight = 7
)

// currentRune marks the current batch's point.
const currentRune = '◆'

// stepSeries is one statistic across the batches.
type stepSeries struct {
	title  string
	values []float64 // one per batch
}

// maxFindingLines is how many health findings the Steps tab lists.
const maxFindingLines = 5

// stepsTab draws, batch after batch, the statistics that show how training
// went: reward mean and std, each objective's mean, the frontier size and
// hypervolume, frac_zero_std_groups and the mean step_count; under them,
// the health findings.
type stepsTab struct {
	common        *Common
	width, height int

	// trends caches result's trends: a batch change keeps the result.
	result *engine.Result
	trends []engine.Trend
	series []stepSeries
	charts []linechart.Model
}

func newStepsTab(c *Common) Tab { return &stepsTab{common: c} }

func (t *stepsTab) Title() string { return "Steps" }

func (t *stepsTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.draw()
}

func (t *stepsTab) Update(msg tea.Msg) (Component, tea.Cmd) {
	if _, ok := msg.(SessionChangedMsg); ok {
		t.draw()
	}
	return t, nil
}

// refreshTrends takes the trends of a new result.
func (t *stepsTab) refreshTrends() {
	res := t.common.Session.Result
	if res == t.result {
		return
	}
	t.result, t.trends = res, t.common.Session.Trends()
	t.series = stepsSeries(res.Objectives, t.trends)
}

// stepsSeries returns the charted statistics; the hypervolume only for 2
// or 3 objectives, the others have none.
func stepsSeries(objectives []engine.Objective, trends []engine.Trend) []stepSeries {
	series := []stepSeries{
		{title: "reward mean"},
		{title: "reward std"},
	}
	for _, o := range objectives {
		series = append(series, stepSeries{title: textsafe.Line(fmt.Sprintf("%s mean (%s)", o.Name, o.Goal))})
	}
	series = append(series, stepSeries{title: "frontier size (rank 0)"})
	hypervolume := len(objectives) == 2 || len(objectives) == 3
	if hypervolume {
		series = append(series, stepSeries{title: "hypervolume"})
	}
	series = append(series, stepSeries{title: "frac_zero_std_groups"}, stepSeries{title: "mean step_count"})
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
		for k, v := range values {
			series[k].values = append(series[k].values, v)
		}
	}
	return series
}

// layout returns the grid the charts fill: columns, rows and each cell's
// size. It takes the fewest columns (the widest charts) in which every
// chart fits; when none does, the most columns at least minStepsChartWidth
// wide, the rows that fit and a line to say what does not.
func (t *stepsTab) layout() (cols, rows, cellWidth, cellHeight int) {
	height := t.height - 1 - len(t.healthLines()) // under the legend, over the findings
	maxCols := min(max(t.width/minStepsChartWidth, 1), 3)
	for cols = 1; cols <= maxCols; cols++ {
		rows = (len(t.series) + cols - 1) / cols
		if rows*minStepsChartHeight <= height {
			return cols, rows, t.width / cols, height / rows
		}
	}
	cols, height = maxCols, height-1 // over the line that says so
	rows = max(height/minStepsChartHeight, 1)
	return cols, rows, t.width / cols, height / rows
}

// draw rebuilds every chart for the current batch.
func (t *stepsTab) draw() {
	if t.common.Session.Result == nil || t.width <= 0 || t.height <= 0 {
		return
	}
	t.refreshTrends()
	t.charts = t.charts[:0]
	if len(t.trends) == 0 {
		return
	}
	_, _, w, h := t.layout()
	for _, s := range t.series {
		t.charts = append(t.charts, t.chart(s, max(w-1, 10), max(h-1, 3)))
	}
}

// chart draws one series against the batches' steps: the current batch on
// a dotted vertical line and marked, a gap where a batch has no value.
func (t *stepsTab) chart(s stepSeries, width, height int) linechart.Model {
	st := t.common.Styles
	y0, y1 := paddedRange(finiteRange(s.values))
	lc := linechart.New(width, height, 0, 1, y0, y1,
		linechart.WithXYSteps(4, 2),
		linechart.WithStyles(st.Axis, st.AxisLabel, st.Bar))
	relabel(&lc)
	x0, x1 := t.stepRange(&lc)
	lc.SetXRange(x0, x1)
	lc.SetViewXRange(x0, x1)
	lc.XLabelFormatter = noLabel // drawStepLabels puts them under the points
	current := t.common.Session.Batch
	drawMarker(&lc, float64(t.trends[current].Step), st.Muted)
	var line []canvas.Float64Point
	for b, v := range s.values {
		if math.IsNaN(v) {
			drawPolyline(&lc, line, st.Bar)
			line = line[:0]
			continue
		}
		line = append(line, canvas.Float64Point{X: float64(t.trends[b].Step), Y: v})
	}
	drawPolyline(&lc, line, st.Bar)
	if v := s.values[current]; !math.IsNaN(v) {
		drawPoint(&lc, canvas.Float64Point{X: float64(t.trends[current].Step), Y: v}, currentRune, st.Selected)
	}
	lc.DrawXYAxisAndLabel()
	t.drawStepLabels(&lc, st.AxisLabel)
	return lc
}

// stepRange returns the x range that puts the first step's points in the
// column right of the y axis, not under it, and the last step's far enough
// from the right edge for its label, centred on them, to fit. A single
// step gets a padded range.
func (t *stepsTab) stepRange(lc *linechart.Model) (float64, float64) {
	firstStep, lastStep := t.trends[0].Step, t.trends[len(t.trends)-1].Step
	first, last := float64(firstStep), float64(lastStep)
	if first == last {
		return paddedRange(first, last)
	}
	left := max(1, (len(stepLabel(firstStep))-1)/2-lc.Origin().X)
	right := max(lc.GraphWidth()-len(stepLabel(lastStep))/2, left+1)
	perColumn := (last - first) / float64(right-left)
	return first - float64(left)*perColumn, last + float64(lc.GraphWidth()-right)*perColumn
}

// drawStepLabels writes the steps under the x axis, each centred on the
// column of its points: every kth batch's, k the smallest of 1, 2, 5, 10,
// 20, 50, … that leaves a blank column between two labels.
func (t *stepsTab) drawStepLabels(lc *linechart.Model, style lipgloss.Style) {
	k := 1
	for k < len(t.trends) && !t.labelsFit(lc, k) {
		k = nextStride(k)
	}
	for b := 0; b < len(t.trends); b += k {
		start, label := t.stepLabelAt(lc, b)
		lc.Canvas.SetStringWithStyle(canvas.Point{X: start, Y: lc.Origin().Y + 1}, label, style)
	}
}

// nextStride returns the number after k in 1, 2, 5, 10, 20, 50, ….
func nextStride(k int) int {
	if strconv.Itoa(k)[0] == '2' {
		return k / 2 * 5
	}
	return k * 2
}

// labelsFit reports whether every kth batch's label fits in the chart with
// a blank column before the next.
func (t *stepsTab) labelsFit(lc *linechart.Model, k int) bool {
	end := -2 // the column of the previous label's last character
	for b := 0; b < len(t.trends); b += k {
		start, label := t.stepLabelAt(lc, b)
		if start < end+2 || start+len(label) > lc.Canvas.Width() {
			return false
		}
		end = start + len(label) - 1
	}
	return true
}

// stepLabelAt returns batch b's step label and its first column, for the
// label to be centred on the column of the batch's points (an even-length
// label on its left middle character).
func (t *stepsTab) stepLabelAt(lc *linechart.Model, b int) (int, string) {
	label := stepLabel(t.trends[b].Step)
	col := lineCell(lc, canvas.Float64Point{X: float64(t.trends[b].Step), Y: lc.ViewMinY()}).X
	return col - (len(label)-1)/2, label
}

// stepLabel is a training step's label on the x axis.
func stepLabel(step int64) string { return strconv.FormatInt(step, 10) }

// noLabel leaves an axis without ntcharts' labels.
func noLabel(int, float64) string { return "" }

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
	if len(t.charts) == 0 {
		return ""
	}
	st := t.common.Styles
	cols, rows, w, _ := t.layout()
	gridRows := []string{st.Muted.Render(fmt.Sprintf("one point per batch, by training step · %c┊ the current batch ([ and ] move it)", currentRune))}
	for r := range rows {
		var cells []string
		for c := range cols {
			if j := r*cols + c; j < len(t.charts) {
				cells = append(cells, lipgloss.NewStyle().Width(w).Render(t.chartView(j)))
			}
		}
		gridRows = append(gridRows, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
	}
	if hidden := len(t.charts) - rows*cols; hidden > 0 {
		gridRows = append(gridRows, st.Warning.Render(
			count(hidden, "more chart does", "more charts do")+" not fit: enlarge the terminal"))
	}
	body := fitBox(strings.Join(gridRows, "\n"), t.width, t.height-len(t.healthLines()))
	return fitBox(body+"\n"+strings.Join(t.healthLines(), "\n"), t.width, t.height)
}

// healthLines lists the health findings under the charts: a title line
// with the badge, then the first maxFindingLines findings, in step order.
func (t *stepsTab) healthLines() []string {
	s, st := t.common.Session, t.common.Styles
	findings := s.Findings()
	baseline := cmp.Or(s.HealthConfig.Baseline, health.DefaultBaseline)
	lines := []string{st.Title.Render("health") + st.Muted.Render(fmt.Sprintf(" against the first %d batches · ", baseline)) + healthBadge(st, findings)}
	for j, f := range findings {
		if j == maxFindingLines-1 && len(findings) > maxFindingLines {
			lines = append(lines, st.Muted.Render(fmt.Sprintf("… and %d more (rewardlens stats --health lists them)", len(findings)-j)))
			break
		}
		lines = append(lines, findingLine(st, f))
	}
	return lines
}

// chartView is chart j under its title, which says the current batch's
// value.
func (t *stepsTab) chartView(j int) string {
	st := t.common.Styles
	s := t.series[j]
	b := t.common.Session.Batch
	title := st.Title.Render(s.title) + st.Muted.Render(fmt.Sprintf(" · %c step %d: ", currentRune, t.trends[b].Step)) + formatValue(s.values[b])
	return ansi.Truncate(title, t.charts[j].Width(), "…") + "\n" + t.charts[j].View()
}

// The Steps tab has no keys of its own: [ and ] move the marked batch.
func (t *stepsTab) ShortHelp() []key.Binding  { return nil }
func (t *stepsTab) FullHelp() [][]key.Binding { return nil }
