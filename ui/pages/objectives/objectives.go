package objectives

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
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
	stats  engine.BatchStats
	values [][]float64 // per objective, the valid trajectories' raw values
	table  table.Table
	view   string
	// source is the source shown, with --source-by (sources.go).
	source    common.SourcePick
	sourceKey key.Binding
}

// New returns the Objectives tab.
func New(c *common.Common) common.Tab {
	t := &objectivesTab{common: c, table: table.New(c.Styles), sourceKey: common.NewSourceKey()}
	t.table.NoSelection = true // a summary: no row to open
	return t
}

func (t *objectivesTab) Title() string { return "Objectives" }

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

// View implements Component.
func (t *objectivesTab) View() string { return t.view }

// ShortHelp implements help.KeyMap: ←/→ when the table has columns off
// screen, s with sources.
func (t *objectivesTab) ShortHelp() []key.Binding {
	source := common.PairHelp(t.sourceKey, "s", "source")
	if t.table.ScrollHint() == "" {
		return []key.Binding{source}
	}
	return []key.Binding{t.table.Keys.Left, source}
}

// FullHelp implements help.KeyMap.
func (t *objectivesTab) FullHelp() [][]key.Binding {
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
	t.stats = s.BatchStats()
	t.values = make([][]float64, s.Result.Evaluation.M)
	for k := range t.values {
		t.values[k] = common.ValidObjective(s.Result, b, k)
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
	title := st.Title.Render(fmt.Sprintf("Objectives: batch step %d, %d valid trajectories", t.stats.Step, t.stats.Trajectories-t.stats.Invalid)) + t.sourceTitle()
	if h := t.table.ScrollHint(); h != "" {
		title += st.Muted.Render(" · " + h)
	}
	top := lipgloss.JoinVertical(lipgloss.Left,
		ansi.Truncate(title, t.width, "…"),
		t.table.View(),
		"",
	)
	grid := correlationView(st, t.stats.Objectives, t.stats.Correlation)
	if cs := t.common.Session.Result.Evaluation.Constraints; len(cs) > 0 {
		grid += "\n\n" + constraintsView(st, cs, t.stats)
	}
	gridWidth := lipgloss.Width(grid)
	distWidth := max(t.width-gridWidth-4, 0)
	dist := distributionsView(st, t.stats.Objectives, t.values, distWidth, t.height-lipgloss.Height(top))
	t.view = top + "\n" + lipgloss.JoinHorizontal(lipgloss.Top, grid, "    ", dist)
}

// fillTable puts one row per objective in the table: its name (which
// stays on screen when the others scroll sideways), goal, weight, count
// and statistics, each column as wide as its content.
func (t *objectivesTab) fillTable() {
	objs := t.stats.Objectives
	n := len(objs)
	stat := func(title string, pick func(o *engine.ObjectiveStats) float64) table.Column {
		return textNumberColumn(title, n, func(j int) string { return common.FormatNumber(pick(&objs[j])) })
	}
	columns := []table.Column{
		table.TextColumn("objective", n, 20, func(j int) string { return textsafe.Line(objs[j].Name) }),
		table.TextColumn("goal", n, 4, func(j int) string { return string(objs[j].Goal) }),
		textNumberColumn("weight", n, func(j int) string { return fmt.Sprintf("%.2f", objs[j].Weight) }),
		table.IntColumn("count", n, func(j int) int { return objs[j].Count }),
		stat("mean", func(o *engine.ObjectiveStats) float64 { return o.Mean }),
		stat("std", func(o *engine.ObjectiveStats) float64 { return o.Std }),
		stat("min", func(o *engine.ObjectiveStats) float64 { return o.Min }),
		stat("p25", func(o *engine.ObjectiveStats) float64 { return o.P25 }),
		stat("median", func(o *engine.ObjectiveStats) float64 { return o.Median }),
		stat("p75", func(o *engine.ObjectiveStats) float64 { return o.P75 }),
		stat("max", func(o *engine.ObjectiveStats) float64 { return o.Max }),
	}
	t.table.SetSize(t.width, n+1)
	t.table.SetRows(n)
	t.table.SetColumns(columns, 1)
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

// correlationCell is the width of a correlation cell: " +0.53 ".
const correlationCell = 7

// correlationView renders the Pearson correlation matrix as a grid coloured
// from -1 to +1, with a legend; NaN (a constant objective) is written so.
func correlationView(st *common.Styles, objs []engine.ObjectiveStats, corr [][]float64) string {
	if corr == nil && len(objs) > engine.MaxCorrelationObjectives {
		return st.Title.Render("Pearson correlation") + "\n" + st.Muted.Render(fmt.Sprintf("not computed for more than %d objectives", engine.MaxCorrelationObjectives))
	}
	nameWidth := 0
	for _, o := range objs {
		nameWidth = max(nameWidth, min(ansi.StringWidth(textsafe.Line(o.Name)), 12))
	}
	name := func(o engine.ObjectiveStats, width int) string {
		return ansi.Truncate(textsafe.Line(o.Name), width, "…")
	}
	var b strings.Builder
	b.WriteString(st.Title.Render("Pearson correlation") + "\n")
	b.WriteString(strings.Repeat(" ", nameWidth+1))
	for _, o := range objs {
		b.WriteString(st.Label.Render(common.PadLeft(name(o, correlationCell-1), correlationCell)))
	}
	for i, o := range objs {
		b.WriteString("\n" + st.Label.Render(common.PadRight(name(o, nameWidth), nameWidth+1)))
		for j := range objs {
			b.WriteString(st.Correlation(corr[i][j]).Render(fmt.Sprintf("%*s ", correlationCell-1, formatCorrelation(corr[i][j]))))
		}
	}
	if !st.NoColor {
		b.WriteString("\n" + strings.Repeat(" ", nameWidth+1))
		for _, r := range []float64{-1, -0.5, 0, 0.5, 1} {
			b.WriteString(st.Correlation(r).Render(fmt.Sprintf("%*s ", correlationCell-1, formatCorrelation(r))))
		}
	}
	b.WriteString("\n" + st.Muted.Render("NaN: a constant objective"))
	return b.String()
}

// formatCorrelation writes r with its sign and two decimals.
func formatCorrelation(r float64) string {
	if math.IsNaN(r) {
		return "NaN"
	}
	return fmt.Sprintf("%+.2f", r)
}

// distributionsView renders, per objective, its bins' range and a
// sparkline of its histogram (nice bins, as the Rewards tab's),
// each bin stretched over the columns that width allows.
func distributionsView(st *common.Styles, objs []engine.ObjectiveStats, values [][]float64, width, height int) string {
	if width < 10 || len(objs) == 0 {
		return ""
	}
	// Each objective takes a caption line and a sparkline as tall as the
	// height allows, from 1 to 6 rows.
	sparkHeight := min(max((height-1)/len(objs)-1, 1), 6)
	lines := []string{st.Title.Render("Distributions (count per bin)")}
	for k, o := range objs {
		edges := histogram.NiceBins(values[k], &o.Summary, width)
		caption := textsafe.Line(o.Name) + "  " + histogram.BinsCaption(edges)
		lines = append(lines, st.Label.Render(ansi.Truncate(caption, width, "…")), histogram.Sparkline(st, values[k], edges, width, sparkHeight))
	}
	return strings.Join(lines, "\n")
}

// constraintsView gives the batch's share of valid trajectories meeting
// each constraint (BatchStats.ConstraintFeasible) and every one
// (BatchStats.Feasible), as percentages.
func constraintsView(st *common.Styles, cs []engine.ConstraintDef, stats engine.BatchStats) string {
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
