package objectives

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/stats"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/histogram"
	"github.com/rewardlens/rewardlens/ui/components/table"
)

// objectivesTab shows each objective of the shown batch: a table of its
// statistics, the objectives' correlation matrix and each one's
// distribution.
type objectivesTab struct {
	common        *common.Common
	width, height int
	// What SessionChangedMsg derives from the session; SetSize only draws
	// it again.
	stats  diagnose.BatchStats
	values [][]float64 // per objective, the valid trajectories' raw values
	// valuesOf is the batch values holds, of all sources (a switch of
	// method or weights keeps it); valuesGen numbers values, for dist.
	valuesOf  valuesKey
	valuesGen int
	table     table.Table
	view      string
	// dist is the distributions drawn, of distOf: drawing them bins
	// every value.
	dist   string
	distOf distKey
	// source is the source shown, with --source-by (sources.go).
	source    common.SourcePick
	sourceKey key.Binding
	// wait is the statistics computed off the event loop: the batch's
	// when the session has not, or the source's shown (common.StatsWait).
	wait common.StatsWait
}

// valuesKey identifies a batch's values: the evaluation, the batch and
// its size.
type valuesKey struct {
	eval     *engine.Evaluation
	batch, n int
}

// distKey identifies the distributions drawn: of values valuesGen, in
// width x height cells, in the styles of a background.
type distKey struct {
	valuesGen, width, height int
	dark                     bool
}

// New returns the Objectives tab.
func New(c *common.Common) common.Tab {
	t := &objectivesTab{common: c, table: table.New(c.Styles), sourceKey: common.NewSourceKey()}
	t.table.NoSelection = true // a summary: no row to open
	return t
}

func (t *objectivesTab) Title() string { return "Objectives" }

// ShortTitle is the title on a narrow tab bar.
func (t *objectivesTab) ShortTitle() string { return "Objs" }

// SetSize implements Component.
func (t *objectivesTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.render()
}

// Update implements Component: left and right scroll the table's
// columns when they do not all fit.
func (t *objectivesTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		t.refresh()
	case common.StatsReadyMsg:
		if !t.wait.Ready(msg) {
			break
		}
		if src, ok := msg.Value.(sourceStats); ok {
			t.stats = src.stats
			t.setValues(src.values, valuesKey{})
			t.render()
		} else {
			t.refresh()
		}
	case tea.KeyPressMsg:
		if key.Matches(msg, t.sourceKey) {
			t.source.Next(t.common.Session.Result.Evaluation)
			t.refresh()
		} else if key.Matches(msg, t.table.Keys.Left, t.table.Keys.Right) && t.table.Update(msg) {
			t.render()
		}
	}
	return t, nil
}

// ShowsStats implements common.StatsShower.
func (t *objectivesTab) ShowsStats() {}

// View implements Component.
func (t *objectivesTab) View() string {
	if v, waits := t.wait.View(t.common.Styles, t.width, t.height); waits {
		return v
	}
	return t.view
}

// ShortHelp implements help.KeyMap: ←/→ when the table has columns off
// screen, s with sources.
func (t *objectivesTab) ShortHelp() []key.Binding {
	source := common.PairHelp(t.sourceKey, "s", "source")
	if t.table.ScrollHint() == "" {
		return []key.Binding{source}
	}
	return []key.Binding{t.table.Keys.Left, source}
}

// FullHelp implements help.KeyMap: ←/→ only when they scroll, as in the
// footer (ShortHelp).
func (t *objectivesTab) FullHelp() [][]key.Binding {
	if t.table.ScrollHint() == "" {
		return [][]key.Binding{{t.sourceKey}}
	}
	return [][]key.Binding{{t.table.Keys.Left, t.sourceKey}}
}

// refresh takes the shown batch's statistics and values from the session.
func (t *objectivesTab) refresh() {
	s := t.common.Session
	b := s.CurrentBatch()
	common.SetSourceKey(&t.sourceKey, s.Result.Evaluation)
	if t.refreshSource() {
		t.render()
		return
	}
	if t.wait.Wait(s) {
		return
	}
	t.stats = s.BatchStats()
	if of := (valuesKey{s.Result.Evaluation, s.Batch, len(b.Members)}); of != t.valuesOf {
		values := make([][]float64, s.Result.Evaluation.M)
		for k := range values {
			values[k] = common.ValidObjective(s.Result, b, k)
		}
		t.setValues(values, of)
	}
	t.render()
}

// render draws the table on top, the correlation grid and the
// distributions side by side below it.
func (t *objectivesTab) render() {
	if t.values == nil {
		return // no session yet
	}
	st := t.common.Styles
	t.fillTable()
	title := st.Title.Render(fmt.Sprintf("Objectives: batch step %d, %d valid trajectories", t.stats.Step, t.stats.Valid())) + t.sourceTitle()
	if h := t.table.ScrollHint(); h != "" {
		title += st.Muted.Render(" · " + h)
	}
	top := lipgloss.JoinVertical(lipgloss.Left,
		ansi.Truncate(title, t.width, "…"),
		t.table.View(),
		"",
	)
	// The grid widens its cells to the names while the distributions keep
	// half the width, 40 columns at least.
	grid := correlationView(st, t.stats.Objectives, t.stats.Correlation, t.width-4-max(40, t.width/2))
	if cs := t.common.Session.Result.Evaluation.Constraints; len(cs) > 0 {
		grid += "\n\n" + constraintsView(st, cs, t.stats)
	}
	below := t.height - lipgloss.Height(top)
	grid = cutToHeight(st, grid, below)
	gridWidth := lipgloss.Width(grid)
	distWidth := max(t.width-gridWidth-4, 0)
	if of := (distKey{t.valuesGen, distWidth, below, st.IsDark}); of != t.distOf {
		t.dist, t.distOf = distributionsView(st, t.stats.Objectives, t.values, distWidth, below), of
	}
	t.view = top + "\n" + lipgloss.JoinHorizontal(lipgloss.Top, grid, "    ", t.dist)
}

// setValues shows values, those of the batch of (of a source's: the zero
// valuesKey, which no batch's equals).
func (t *objectivesTab) setValues(values [][]float64, of valuesKey) {
	t.values, t.valuesOf = values, of
	t.valuesGen++
}

// fillTable puts one row per objective in the table: its name (which
// stays on screen when the others scroll sideways), goal, weight, count,
// under nansum how many valid trajectories miss its value, and the
// statistics of the values present ("–" where there are none), each
// column as wide as its content.
func (t *objectivesTab) fillTable() {
	objs := t.stats.Objectives
	n := len(objs)
	formats := make([]table.NumberFormat, n)
	for j := range objs {
		formats[j] = rowFormat(&objs[j])
	}
	stat := func(title string, pick func(o *diagnose.ObjectiveStats) float64) table.Column {
		return textNumberColumn(title, n, func(j int) string {
			if x := pick(&objs[j]); !math.IsNaN(x) {
				return formats[j].Format(x)
			}
			return undefinedStat
		})
	}
	columns := []table.Column{
		table.TextColumn("objective", n, 20, func(j int) string { return textsafe.Line(objs[j].Name) }),
		table.TextColumn("goal", n, 4, func(j int) string { return string(objs[j].Goal) }),
		textNumberColumn("weight", n, func(j int) string {
			if ev := t.common.Session.Result.Evaluation; t.source.Source(ev) < 0 && ev.SourceLess(j) {
				return common.NoSourceWeight // not "by source": no source weighs it
			}
			return common.FormatWeight(objs[j].Weight)
		}),
		table.IntColumn("count", n, func(j int) int { return objs[j].Count }),
	}
	if t.common.Session.Result.Evaluation.Absent != nil { // nansum: a valid trajectory can miss a value
		columns = append(columns, table.IntColumn("missing", n, func(j int) int { return objs[j].Missing }))
	}
	columns = append(columns,
		stat("mean", func(o *diagnose.ObjectiveStats) float64 { return o.Mean }),
		stat("std", func(o *diagnose.ObjectiveStats) float64 { return o.Std }),
		stat("min", func(o *diagnose.ObjectiveStats) float64 { return o.Min }),
		stat("p25", func(o *diagnose.ObjectiveStats) float64 { return o.P25 }),
		stat("median", func(o *diagnose.ObjectiveStats) float64 { return o.Median }),
		stat("p75", func(o *diagnose.ObjectiveStats) float64 { return o.P75 }),
		stat("max", func(o *diagnose.ObjectiveStats) float64 { return o.Max }),
	)
	t.table.SetSize(t.width, n+1)
	t.table.SetRows(n)
	t.table.SetColumns(columns, 1)
}

// undefinedStat is the cell of a statistic of no values (NaN: an
// objective without a valid value in the batch), as the Rewards tab's
// summary shows it.
const undefinedStat = "–"

// rowFormat returns the format of an objective's statistics, one per row
// (the objectives' scales differ): chosen from the values that place it,
// its mean and quantiles, with the digits their spread needs to read
// distinct; its std is shown at their precision.
func rowFormat(o *diagnose.ObjectiveStats) table.NumberFormat {
	r := table.NewNumberRange()
	for _, x := range []float64{o.Mean, o.Min, o.P25, o.Median, o.P75, o.Max} {
		r.Add(x)
	}
	r.AddSpread(o.Std)
	return r.Format()
}

// textNumberColumn returns a right-aligned column of n numbers already
// formatted, text(j), as wide as the widest or the title.
func textNumberColumn(title string, n int, text func(j int) string) table.Column {
	w := ansi.StringWidth(title)
	for j := range n {
		w = max(w, ansi.StringWidth(text(j)))
	}
	return table.Column{Title: title, Number: true, Width: w, Cell: text}
}

// The widths of the correlation grid: a cell is " +0.53 " at least, and
// as wide as the names up to maxCorrelationCell; a row's name is cut at
// minRowName, or more when the grid has room, up to maxRowName.
const (
	correlationCell    = 7
	maxCorrelationCell = 13
	minRowName         = 12
	maxRowName         = 20
)

// scaleLabel names the row of the colour scale.
const scaleLabel = "scale"

// correlationView renders the Pearson correlation matrix as a grid coloured
// from -1 to +1, with the colour scale; NaN (a constant objective, or a
// pair too few trajectories have both of: another source's objective, a
// value nansum counted missing) is written so, and explained when there is
// one. The names are cut to what
// width leaves them.
func correlationView(st *common.Styles, objs []diagnose.ObjectiveStats, corr [][]float64, width int) string {
	if corr == nil && len(objs) > diagnose.MaxCorrelationObjectives {
		return st.Title.Render("Pearson correlation") + "\n" + st.Muted.Render(fmt.Sprintf("not computed for more than %d objectives", diagnose.MaxCorrelationObjectives))
	}
	longest := 0
	for _, o := range objs {
		longest = max(longest, ansi.StringWidth(textsafe.Line(o.Name)))
	}
	nameWidth, cell := min(longest, maxRowName), min(max(longest+1, correlationCell), maxCorrelationCell)
	for nameWidth+1+len(objs)*cell > width && cell > correlationCell {
		cell--
	}
	for nameWidth+1+len(objs)*cell > width && nameWidth > minRowName {
		nameWidth--
	}
	if !st.NoColor {
		nameWidth = max(nameWidth, len(scaleLabel))
	}
	name := func(o diagnose.ObjectiveStats, width int) string {
		return ansi.Truncate(textsafe.Line(o.Name), width, "…")
	}
	var b strings.Builder
	b.WriteString(st.Title.Render("Pearson correlation") + "\n")
	b.WriteString(strings.Repeat(" ", nameWidth+1))
	for _, o := range objs {
		b.WriteString(st.Label.Render(common.PadLeft(name(o, cell-1), cell)))
	}
	constant, unpaired := false, false
	for i, o := range objs {
		b.WriteString("\n" + st.Label.Render(common.PadRight(name(o, nameWidth), nameWidth+1)))
		for j := range objs {
			if math.IsNaN(corr[i][j]) {
				if varies(objs[i]) && varies(objs[j]) {
					unpaired = true
				} else {
					constant = true
				}
			}
			b.WriteString(st.Correlation(corr[i][j]).Render(fmt.Sprintf("%*s ", cell-1, formatCorrelation(corr[i][j]))))
		}
	}
	if !st.NoColor {
		b.WriteString("\n" + st.Label.Render(common.PadRight(scaleLabel, nameWidth+1)))
		for _, r := range []float64{-1, -0.5, 0, 0.5, 1} {
			b.WriteString(st.Correlation(r).Render(fmt.Sprintf("%*s ", correlationCell-1, formatCorrelation(r))))
		}
	}
	switch {
	case constant && unpaired:
		b.WriteString("\n" + st.Muted.Render("NaN: a constant objective, or under 2\ntrajectories having both"))
	case constant:
		b.WriteString("\n" + st.Muted.Render("NaN: a constant objective"))
	case unpaired:
		b.WriteString("\n" + st.Muted.Render("NaN: under 2 trajectories having both"))
	}
	return b.String()
}

// varies reports whether an objective's values over the batch spread: a
// NaN correlation of two that do is of the trajectories having both.
func varies(o diagnose.ObjectiveStats) bool { return o.Count >= 2 && o.Std > 0 }

// cutToHeight returns view's first lines that fit in height rows, the
// last of them saying how many are left out, or view whole when it fits.
func cutToHeight(st *common.Styles, view string, height int) string {
	lines := strings.Split(view, "\n")
	if len(lines) <= height || height < 1 {
		return view
	}
	left := len(lines) - height + 1
	return strings.Join(append(lines[:height-1], st.Muted.Render(fmt.Sprintf("… %d more %s (a taller terminal shows them)", left, english.Plural(left, "line")))), "\n")
}

// formatCorrelation writes r with its sign and two decimals.
func formatCorrelation(r float64) string {
	if math.IsNaN(r) {
		return "NaN"
	}
	return fmt.Sprintf("%+.2f", r)
}

// The heights of an objective's histogram: the most it takes, the least
// that draws it as the Rewards tab's (title, two rows of bars, the value
// axis, its labels and caption) rather than compact, and the least that
// draws it at all (a caption and a sparkline).
const (
	maxHistogramHeight  = 10
	fullHistogramHeight = 7
	minHistogramHeight  = 2
)

// distributionsView renders each objective's histogram (nice bins, as the
// Rewards tab's) in an equal share of height: with axes of counts and of
// values where the share allows a full one, else compact, down to two
// rows each (a caption naming the range, and the sparkline). When not
// even two rows each fit, it draws those that do and says how many are
// left out, rather than running past the bottom.
func distributionsView(st *common.Styles, objs []diagnose.ObjectiveStats, values [][]float64, width, height int) string {
	if width < 10 || len(objs) == 0 {
		return ""
	}
	// The rows for the histograms: under the title, and over the line
	// saying what is left out when some are.
	shown, more, rows := len(objs), "", height-1
	if rows/len(objs) < minHistogramHeight {
		rows--
		shown = max(rows/minHistogramHeight, 0)
		more = st.Muted.Render(common.FitWords(fmt.Sprintf("… %d more %s (a taller terminal shows all %d)", len(objs)-shown, english.Plural(len(objs)-shown, "objective"), len(objs)), width))
	}
	share := max(min(rows/max(shown, 1), maxHistogramHeight), minHistogramHeight)
	lines := []string{common.FitWords(st.Title.Render("Distributions (count per bin)"), width)} // after a word
	for k, o := range objs[:shown] {
		name := textsafe.Line(o.Name)
		if share >= fullHistogramHeight {
			h := histogram.Histogram{Title: name, Quantity: name, Values: values[k], Summary: &o.Summary}
			lines = append(lines, h.View(st, width, share))
			continue
		}
		lines = append(lines, compactHistogram(st, name, values[k], &o.Summary, width, share))
	}
	if more != "" {
		lines = append(lines, more)
	}
	return strings.Join(lines, "\n")
}

// compactHistogram draws values' histogram in width x height cells (2
// rows at least): a caption (the name, the bin width and the peak, the
// tallest bin's count, which is the sparkline's top), the sparkline, and
// under it the bins' edges labelled, on the value axis when there is a
// row for it. With two rows the caption names the first and last edges
// in place of the labels.
func compactHistogram(st *common.Styles, name string, values []float64, summary *stats.Summary, width, height int) string {
	edges := histogram.NiceBins(values, summary, width)
	if len(edges) < 2 {
		return st.Label.Render(ansi.Truncate(name, width, "…")) + "\n" + st.Muted.Render("no valid values")
	}
	if c, ok := histogram.Constant(values); ok { // one value, no bins
		return st.Label.Render(ansi.Truncate(name, width, "…")) + "\n" + st.AxisLabel.Render(ansi.Truncate(histogram.ConstantLabel(c), width, "…"))
	}
	counts := stats.Histogram(values, edges)
	bin := edges[1] - edges[0]
	decimals := chart.StepDecimals(bin)
	binWidth, peak := chart.Format(bin, decimals), slices.Max(counts)
	caption := fitCaption(name, width,
		fmt.Sprintf("  bins of %s, peak %d", binWidth, peak),
		fmt.Sprintf("  bin %s, peak %d", binWidth, peak))
	if height < 3 {
		from, to := chart.Format(edges[0], decimals), chart.Format(edges[len(edges)-1], decimals)
		caption = fitCaption(name, width,
			fmt.Sprintf("  %s to %s, bins of %s, peak %d", from, to, binWidth, peak),
			fmt.Sprintf("  %s–%s, bin %s, peak %d", from, to, binWidth, peak),
			fmt.Sprintf("  bin %s, peak %d", binWidth, peak))
		return st.Label.Render(caption) + "\n" + histogram.Sparkline(st, values, edges, width, 1)
	}
	stretch := width / len(counts)
	baseline, ticks := histogram.ValueAxis(edges, stretch, stretch*len(counts))
	// The sparkline keeps two rows before the value axis takes one.
	sparkHeight, axis := max(height-2, 1), []string{st.AxisLabel.Render(ticks)}
	if height-3 >= 2 {
		sparkHeight, axis = height-3, []string{st.Axis.Render(baseline), st.AxisLabel.Render(ticks)}
	}
	lines := []string{st.Label.Render(caption), histogram.Sparkline(st, values, edges, width, sparkHeight)}
	return strings.Join(append(lines, axis...), "\n")
}

// fitCaption is name and the first of tails (the numbers, said shorter
// each) that fits in width cells; else the first that leaves the name
// minName cells, cut; else the last, the name cut to what it leaves: a
// number is not cut ("peak 41…" of 4133) unless even the shortest tail
// is wider than width.
func fitCaption(name string, width int, tails ...string) string {
	for _, tail := range tails {
		if ansi.StringWidth(name+tail) <= width {
			return name + tail
		}
	}
	tail := tails[len(tails)-1]
	for _, t := range tails {
		if width-ansi.StringWidth(t) >= minName {
			tail = t
			break
		}
	}
	return ansi.Truncate(ansi.Truncate(name, max(width-ansi.StringWidth(tail), 1), "…")+tail, width, "…")
}

// minName is the fewest cells a caption's name is cut to while a
// shorter tail would leave it more.
const minName = 8

// constraintsView gives the batch's share of valid trajectories meeting
// each constraint (BatchStats.ConstraintFeasible) and every one
// (BatchStats.Feasible), as percentages.
func constraintsView(st *common.Styles, cs []scoring.ConstraintDef, stats diagnose.BatchStats) string {
	const exprWidth = 24
	line := func(name string, share float64) string {
		value := fmt.Sprintf("%6.1f%%", 100*share)
		if math.IsNaN(share) {
			value = "      –" // no valid trajectory
		}
		return st.Label.Render(common.PadRight(common.FitLine(name, exprWidth), exprWidth)) + " " + st.Value.Render(value)
	}
	lines := []string{st.Title.Render("Constraints: share meeting")}
	for c, d := range cs {
		lines = append(lines, line(textsafe.Line(d.Expr), stats.ConstraintFeasible[c]))
	}
	lines = append(lines, line("all (feasible)", stats.Feasible))
	return strings.Join(lines, "\n")
}
