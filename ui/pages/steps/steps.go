package steps

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
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
	// note, when not "", tells the legend why the chart is there.
	note string
}

// minYTicks is the fewest ticks of a chart's y axis: a change of 0.002
// labelled by one tick reads as a collapse.
const minYTicks = 3

// maxFindingLines is how many health findings the Steps tab lists.
const maxFindingLines = 5

type stepsKeyMap struct {
	Prev, Next  key.Binding
	First, Last key.Binding
	Open, Close key.Binding
	Source      key.Binding
}

func newStepsKeyMap() stepsKeyMap {
	return stepsKeyMap{
		Prev:  key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous chart")),
		Next:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next chart")),
		First: key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first chart")),
		Last:  key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last chart")),
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "full screen")),
		Close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "all charts"), key.WithDisabled()),
	}
}

// stepsTab draws, batch after batch, the statistics that show how training
// went: reward mean (the score's when the reward's is 0 in every batch)
// and std, each objective's mean, the frontier size and
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
	trends []diagnose.Trend
	series []stepSeries
	// selected is the selected chart, top the first grid row shown, and
	// full whether the selected chart fills the tab.
	selected, top int
	full          bool
	// charts are the drawn charts, titles included, of the rows shown;
	// frames their plots.
	charts map[int]string
	frames map[int]*plot.Frame
	// source is the source charted, with --source-by (sources.go), and
	// trendsSource the one trends are of.
	source       common.SourcePick
	trendsSource int
	// pending is set while a source's trends are computed off the event
	// loop (common.Worker); job is that computation until the root takes
	// it, gen numbers it.
	pending    bool
	pendingFor trendsOf
	job        func() tea.Msg
	gen        int
}

// sourceTrendsMsg is job gen's trends of source src of res.
type sourceTrendsMsg struct {
	gen    int
	res    *engine.Result
	src    int
	trends []diagnose.Trend
	series []stepSeries
}

// New returns the Steps tab.
func New(c *common.Common) common.Tab {
	k := newStepsKeyMap()
	k.Source = common.NewSourceKey()
	return &stepsTab{common: c, keys: k}
}

func (t *stepsTab) Title() string { return "Steps" }

func (t *stepsTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.draw()
}

func (t *stepsTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SessionChangedMsg, common.HealthReadyMsg:
		t.draw()
	case sourceTrendsMsg:
		if msg.gen == t.gen && t.pending {
			t.pending = false
			t.take(msg.res, msg.src, msg.trends, msg.series)
			t.draw()
		}
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
	case key.Matches(msg, t.keys.First):
		t.selected = 0
	case key.Matches(msg, t.keys.Last):
		t.selected = max(len(t.series)-1, 0)
	case key.Matches(msg, t.keys.Open):
		t.full = true
	case key.Matches(msg, t.keys.Close):
		t.full = false
	case key.Matches(msg, t.keys.Source):
		t.source.Next(t.common.Session.Result.Evaluation)
	default:
		return
	}
	t.keys.Open.SetEnabled(!t.full)
	t.keys.Close.SetEnabled(t.full)
	t.draw()
}

// WaitsForHealth implements common.HealthWaiter: the charts are the
// health job's trends.
func (t *stepsTab) WaitsForHealth() bool { return true }

// refreshTrends takes the trends of a new result, once its health job
// computed them off the event loop; a source's, it has computed off the
// event loop too (Job).
func (t *stepsTab) refreshTrends() {
	res := t.common.Session.Result
	src := t.source.Source(res.Evaluation)
	// A source's trends too wait for the health job: it finishes the
	// result (every batch's rewards), which they read.
	if !t.common.Session.HealthReady() || (res == t.result && src == t.trendsSource && !t.pending) {
		return
	}
	common.SetSourceKey(&t.keys.Source, res.Evaluation)
	if src < 0 {
		t.gen++ // a source's trends still computed are not wanted
		t.pending, t.job = false, nil
		trends := t.common.Session.Trends()
		t.take(res, src, trends, stepsSeries(res.Objectives, res.Evaluation.Constraints, trends))
		return
	}
	if t.pending && t.pendingFor == (trendsOf{res, src}) {
		return // asked for already
	}
	t.gen++
	gen := t.gen
	t.pending, t.pendingFor = true, trendsOf{res, src}
	t.job = func() tea.Msg {
		trends, series := sourceSeries(res, src)
		return sourceTrendsMsg{gen, res, src, trends, series}
	}
}

// trendsOf names the trends of source src of result res.
type trendsOf struct {
	res *engine.Result
	src int
}

// take shows trends, those of source src (-1: every source) of res, and
// their series.
func (t *stepsTab) take(res *engine.Result, src int, trends []diagnose.Trend, series []stepSeries) {
	t.result, t.trendsSource = res, src
	t.trends, t.series = trends, series
	t.selected = max(min(t.selected, len(t.series)-1), 0)
}

// Job returns the computation of a source's trends still to run, once.
func (t *stepsTab) Job() func() tea.Msg {
	job := t.job
	t.job = nil
	return job
}

// stepsSeries returns the charted statistics; the hypervolume only for 2
// or 3 objectives, the others have none; with constraints, the feasible
// share (BatchStats.Feasible), and each constraint's when there are
// several (BatchStats.ConstraintFeasible). When every batch's reward mean
// is 0 (a normalised or mean-centred method), the score's mean takes its
// chart: TRL's "reward", the mean of the raw reward.
func stepsSeries(objectives []scoring.Objective, constraints []scoring.ConstraintDef, trends []diagnose.Trend) []stepSeries {
	series := []stepSeries{
		{title: "reward mean"},
		{title: "reward std", nonNegative: true},
	}
	for _, o := range objectives {
		series = append(series, stepSeries{title: textsafe.Line(objectiveMeanTitle(o))})
	}
	hypervolume := len(objectives) == 2 || len(objectives) == 3
	frontier := stepSeries{title: "frontier size (rank 0)", nonNegative: true, integer: true}
	if !hypervolume { // said, else the chart's absence looks like a fault
		frontier.note = fmt.Sprintf("no hypervolume: it is computed for 2 or 3 objectives, not %d", len(objectives))
	}
	series = append(series, frontier)
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
	if len(trends) > 0 && allZero(series[0].values, series[1].values) {
		series[0] = stepSeries{title: "score mean", note: "score mean: the reward mean is 0 in every batch"}
		for _, tr := range trends {
			series[0].values = append(series[0].values, tr.Score.Mean)
		}
	}
	return append(series, deadSignalSeries(trends)...)
}

// objectiveMeanTitle is the title of objective o's mean chart: "NAME mean
// (GOAL)", "objective NAME mean (GOAL)" when NAME is reward or score,
// which the tab's own charts and legend name (open-instruct's objective
// is its reward).
func objectiveMeanTitle(o scoring.Objective) string {
	if o.Name == "reward" || o.Name == "score" {
		return fmt.Sprintf("objective %s mean (%s)", o.Name, o.Goal)
	}
	return fmt.Sprintf("%s mean (%s)", o.Name, o.Goal)
}

// allZero reports whether every mean that is not NaN is 0 but for
// rounding, |mean| <= 1e-9 × max(1, std), and one is not NaN.
func allZero(means, stds []float64) bool {
	some := false
	for b, m := range means {
		if math.IsNaN(m) {
			continue
		}
		if math.Abs(m) > 1e-9*max(1, stds[b]) {
			return false
		}
		some = true
	}
	return some
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
	// Trends of a result before (the health graded again, a source's
	// computed) may have fewer batches than the one shown: View says
	// computing until they come.
	if len(t.trends) == 0 || t.result != t.common.Session.Result {
		return
	}
	if t.full {
		t.charts[t.selected] = t.chartView(t.selected, t.width, t.chartsHeight(), 0)
		return
	}
	l := t.layout()
	row := t.selected / l.cols
	t.top = min(max(t.top, row-l.shown+1), row)
	// No blank rows under the last: a screen grown shows more from the top.
	t.top = max(min(t.top, l.rows-l.shown), 0)
	// Every chart of the grid leaves its y labels as wide a margin as the
	// widest needs: their plots, and so their x axes, are one.
	left := 0
	for _, s := range t.series {
		left = max(left, fitY(s, plotRows(l.cellHeight-1)).LabelWidth())
	}
	for j := t.top * l.cols; j < min((t.top+l.shown)*l.cols, len(t.series)); j++ {
		t.charts[j] = t.chartView(j, l.cellWidth-1, l.cellHeight, left)
	}
}

// chartView draws series j in width x height cells: its title, which says
// the current batch's value, over the chart, whose y labels take left
// columns (at least their own).
func (t *stepsTab) chartView(j, width, height, left int) string {
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
	name := common.FitWords(s.title, max(width-len(marker)-ansi.StringWidth(value), 1))
	title := marker + titleStyle.Render(name) + value
	margin := max(left-fitY(s, plotRows(height-1)).LabelWidth(), 0)
	f := t.chart(s, width-margin, height-1)
	t.frames[j] = f
	pad := strings.Repeat(" ", margin)
	return ansi.Truncate(title, width, "…") + "\n" + pad + strings.ReplaceAll(f.View(), "\n", "\n"+pad)
}

// plotRows returns the rows that plot.NewFrame leaves the plot of a
// chart height cells high: at least 4, less the x axis and its labels.
func plotRows(height int) int { return max(height, 4) - 2 }

// chart draws one series against the batches' steps as a braille line,
// the current batch on a dotted vertical line and marked, a gap where a
// batch has no value.
func (t *stepsTab) chart(s stepSeries, width, height int) *plot.Frame {
	st := t.common.Styles
	first, last := float64(t.trends[0].Step), float64(t.trends[len(t.trends)-1].Step)
	f := plot.NewStepFrame(width, height, first, last, func(rows int) chart.Axis { return fitY(s, rows) })
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

// shownDigits is how many significant digits the charts' captions show
// of a value ("◆ step 0: 0.9353").
const shownDigits = 4

// fitY fits the y axis of s to rows rows. Values whose spread is under
// one unit of their shownDigits-th significant digit are drawn as the
// constant they read as, a flat line in the middle: an axis fitted to
// such a spread (0.93526–0.93530, a GRPO reward std that epsilon and
// float32 rewards move in its fifth digit) would draw it as a swing.
func fitY(s stepSeries, rows int) chart.Axis {
	lo, hi := finiteRange(s.values)
	if hi > lo && hi-lo < math.Pow(10, 1-shownDigits)*max(math.Abs(lo), math.Abs(hi)) {
		lo = lo/2 + hi/2
		hi = lo
	}
	return chart.Fit(lo, hi, rows, chart.Options{NonNegative: s.nonNegative && lo >= 0, Integer: s.integer, MinTicks: minYTicks})
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
	if t.common.Session.Result != nil && (!t.common.Session.HealthReady() || t.pending) && t.width > 0 {
		return common.FitBox(common.Computing(t.common.Styles, "the trends", t.width), t.width, t.height)
	}
	if len(t.charts) == 0 {
		return ""
	}
	st := t.common.Styles
	var legend []string // the legend's parts, the first the most needed
	if src := t.sourceLegend(); src != "" {
		legend = append(legend, src)
	}
	var body string
	if t.full {
		legend = append(legend, "esc: all charts")
		body = t.charts[t.selected]
	} else {
		l := t.layout()
		if l.shown < l.rows {
			legend = append(legend, fmt.Sprintf("charts %d–%d of %d (↑/↓)", t.top*l.cols+1, min((t.top+l.shown)*l.cols, len(t.series)), len(t.series)))
		}
		var gridRows []string
		for r := t.top; r < t.top+l.shown; r++ {
			var cells []string
			for c := range l.cols {
				if view, ok := t.charts[r*l.cols+c]; ok {
					// Each cell as wide as the grid's: its chart, one
					// column narrower, ends in a gap before the next one's
					// title, which a full title met head on.
					lines := strings.Split(common.FitBox(view, l.cellWidth, l.cellHeight), "\n")
					for i, line := range lines {
						lines[i] = common.PadRight(line, l.cellWidth)
					}
					cells = append(cells, strings.Join(lines, "\n"))
				}
			}
			gridRows = append(gridRows, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
		}
		body = strings.Join(gridRows, "\n")
	}
	legend = append(legend, fmt.Sprintf("%c┊ the current batch ([ and ] move it)", currentRune))
	for _, s := range t.series {
		if s.note != "" {
			legend = append(legend, s.note)
		}
	}
	legend = append(legend, "one point per batch, by training step")
	body = common.FitBox(st.Muted.Render(fitParts(legend, t.width))+"\n"+body, t.width, t.height-len(t.healthLines()))
	return common.FitBox(body+"\n"+strings.Join(t.healthLines(), "\n"), t.width, t.height)
}

// fitParts joins parts with " · ", leaving out those that would pass
// width; the first is always kept (cut if need be).
func fitParts(parts []string, width int) string {
	line := parts[0]
	for _, p := range parts[1:] {
		if ansi.StringWidth(line)+3+ansi.StringWidth(p) <= width {
			line += " · " + p
		}
	}
	return line
}

// ListsFindings implements common.FindingsLister: ? lists the findings
// whole.
func (t *stepsTab) ListsFindings() {}

// seeWhole ends a finding cut to the width, as the status line ends
// a line cut short: ? lists the findings whole.
const seeWhole = " (? shows all)"

// healthLines lists the health findings under the charts: a title line
// with the header's badge (checks by their worst level) and the number of
// findings, then the first findings, ALERTs before WARNs (see
// common.AlertsFirst), up to maxFindingLines, fewer on a short screen.
func (t *stepsTab) healthLines() []string {
	s, st := t.common.Session, t.common.Styles
	findings := common.AlertsFirst(s.Findings())
	// The batches the health's baseline spans, fewer than the setting
	// when a provisional step is left out of a short run's.
	lines := []string{healthTitle(st, findings, s.Unread, s.Baseline(), t.width)}
	// A short screen keeps its rows for the charts.
	most := min(max((t.height-10)/4, 1), maxFindingLines)
	shown := findings
	if len(findings) > most {
		shown = findings[:most-1] // and a line for the rest
	}
	// The lines listed are of one form: padded when all fit so.
	padded := common.FindingsPadded(shown, t.width)
	for _, f := range shown {
		if !common.FindingFits(f, t.width) && t.width > 2*len(seeWhole) {
			lines = append(lines, common.FindingLine(st, f, t.width-len(seeWhole), padded)+st.Muted.Render(seeWhole))
			continue
		}
		lines = append(lines, common.FindingLine(st, f, t.width, padded))
	}
	if len(shown) < len(findings) {
		lines = append(lines, st.Muted.Render(fmt.Sprintf("… and %d more (? lists them whole)", len(findings)-len(shown))))
	}
	for j, l := range lines {
		// Cut after a word, visibly: never inside a number ("-5.…").
		lines[j] = common.FitWords(l, t.width)
	}
	return lines
}

// healthTitle is the title of the health findings: the baseline, the
// header's badge (with the followed files not read, unread) and the
// number of findings, in width cells: in fewer words when the whole does
// not fit (the badge's counts alone last), so that the number of
// findings is never cut.
func healthTitle(st *common.Styles, findings []health.Finding, unread []string, baseline, width int) string {
	against := st.Muted.Render(fmt.Sprintf(" against the first %d batches · ", baseline))
	titles := []string{st.Title.Render("health") + against + common.HealthBadge(st, findings, common.UnreadBadge(st, unread, false), false)}
	if len(findings) > 0 {
		// The lines are findings, a check's first WARN and first ALERT:
		// more than the checks the badge counts when one rose.
		count := common.Count(len(findings), "finding", "findings")
		compact := common.HealthBadge(st, findings, common.UnreadBadge(st, unread, true), true)
		titles = []string{
			titles[0] + st.Muted.Render(" · "+count+", each check's first step at a level:"),
			titles[0] + st.Muted.Render(" · "+count+":"),
			st.Title.Render("health") + against + compact + st.Muted.Render(" · "+count+":"),
			st.Title.Render("health ") + compact + st.Muted.Render(" · "+count+":"),
		}
	}
	for _, title := range titles {
		if ansi.StringWidth(title) <= width {
			return title
		}
	}
	return titles[len(titles)-1]
}

func (t *stepsTab) ShortHelp() []key.Binding {
	return []key.Binding{t.keys.Prev, t.keys.Next, t.keys.Open, t.keys.Close, common.PairHelp(t.keys.Source, "s", "source")}
}

func (t *stepsTab) FullHelp() [][]key.Binding {
	// The wheel moves as ↑ and ↓ do: said in the help, not the footer.
	prev, next := t.keys.Prev, t.keys.Next
	prev.SetHelp("↑/k/wheel", "previous chart")
	next.SetHelp("↓/j/wheel", "next chart")
	return [][]key.Binding{{prev, next, t.keys.First, t.keys.Last, t.keys.Open, t.keys.Close, t.keys.Source}}
}
