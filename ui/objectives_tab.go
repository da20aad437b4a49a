package ui

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// objectivesTab shows each objective of the shown batch: a table of its
// statistics, the objectives' correlation matrix and each one's
// distribution.
type objectivesTab struct {
	common        *Common
	width, height int
	// What SessionChangedMsg derives from the session; SetSize only draws
	// it again.
	stats  engine.BatchStats
	values [][]float64 // per objective, the valid trajectories' raw values
	table  table.Model
	view   string
}

func newObjectivesTab(c *Common) Tab { return &objectivesTab{common: c, table: table.New()} }

func (t *objectivesTab) Title() string { return "Objectives" }

// SetSize implements Component.
func (t *objectivesTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.render()
}

// Update implements Component.
func (t *objectivesTab) Update(msg tea.Msg) (Component, tea.Cmd) {
	if _, ok := msg.(SessionChangedMsg); ok {
		t.refresh()
	}
	return t, nil
}

// View implements Component.
func (t *objectivesTab) View() string { return t.view }

// ShortHelp implements help.KeyMap: the tab has no keys of its own.
func (t *objectivesTab) ShortHelp() []key.Binding { return nil }

// FullHelp implements help.KeyMap.
func (t *objectivesTab) FullHelp() [][]key.Binding { return nil }

// refresh takes the shown batch's statistics and values from the session.
func (t *objectivesTab) refresh() {
	s := t.common.Session
	b := s.CurrentBatch()
	t.stats = s.BatchStats()
	t.values = make([][]float64, s.Result.M)
	for k := range t.values {
		t.values[k] = validObjective(s.Result, b, k)
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
	top := lipgloss.JoinVertical(lipgloss.Left,
		st.Title.Render(fmt.Sprintf("Objectives: batch step %d, %d valid trajectories", t.stats.Step, t.stats.Trajectories-t.stats.Invalid)),
		t.table.View(),
		"",
	)
	grid := correlationView(st, t.stats.Objectives, t.stats.Correlation)
	gridWidth := lipgloss.Width(grid)
	distWidth := max(t.width-gridWidth-4, 0)
	dist := distributionsView(st, t.stats.Objectives, t.values, distWidth, t.height-lipgloss.Height(top))
	t.view = top + "\n" + lipgloss.JoinHorizontal(lipgloss.Top, grid, "    ", dist)
}

// fillTable puts one row per objective in the table, the statistics'
// columns sharing what width the name, goal, weight and count leave.
func (t *objectivesTab) fillTable() {
	st := t.common.Styles
	const padding = 2 // the cell style's, left and right
	nameWidth := len("objective")
	for _, o := range t.stats.Objectives {
		nameWidth = max(nameWidth, min(ansi.StringWidth(textsafe.Line(o.Name)), 20))
	}
	fixed := nameWidth + len("goal") + len("weight") + len("count") + 4*padding
	statWidth := min(max((t.width-fixed)/7-padding, 6), 10)
	columns := []table.Column{
		{Title: "objective", Width: nameWidth}, {Title: "goal", Width: len("goal")},
		{Title: "weight", Width: len("weight")}, {Title: "count", Width: len("count")},
	}
	for _, name := range []string{"mean", "std", "min", "p25", "median", "p75", "max"} {
		columns = append(columns, table.Column{Title: fmt.Sprintf("%*s", statWidth, name), Width: statWidth})
	}
	rows := make([]table.Row, len(t.stats.Objectives))
	for k, o := range t.stats.Objectives {
		num := func(v float64) string { return fmt.Sprintf("%*s", statWidth, formatNumber(v)) }
		rows[k] = table.Row{
			textsafe.Line(o.Name), string(o.Goal), fmt.Sprintf("%6.2f", o.Weight), fmt.Sprintf("%5d", o.Count),
			num(o.Mean), num(o.Std), num(o.Min), num(o.P25), num(o.Median), num(o.P75), num(o.Max),
		}
	}
	// The table is a read-only summary: no row is selected.
	styles := st.Table
	styles.Selected = lipgloss.NewStyle()
	t.table.SetStyles(styles)
	t.table.SetColumns(columns)
	t.table.SetRows(rows)
	t.table.SetWidth(t.width)
	t.table.SetHeight(len(rows) + 1)
}

// correlationCell is the width of a correlation cell: " +0.53 ".
const correlationCell = 7

// correlationView renders the Pearson correlation matrix as a grid coloured
// from -1 to +1, with a legend; NaN (a constant objective) is written so.
func correlationView(st *Styles, objs []engine.ObjectiveStats, corr [][]float64) string {
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
		b.WriteString(st.Label.Render(padLeft(name(o, correlationCell-1), correlationCell)))
	}
	for i, o := range objs {
		b.WriteString("\n" + st.Label.Render(padRight(name(o, nameWidth), nameWidth+1)))
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
func distributionsView(st *Styles, objs []engine.ObjectiveStats, values [][]float64, width, height int) string {
	if width < 10 || len(objs) == 0 {
		return ""
	}
	// Each objective takes a caption line and a sparkline as tall as the
	// height allows, from 1 to 6 rows.
	sparkHeight := min(max((height-1)/len(objs)-1, 1), 6)
	lines := []string{st.Title.Render("Distributions (count per bin)")}
	for k, o := range objs {
		edges := niceBins(values[k], &o.Summary, width)
		caption := textsafe.Line(o.Name) + "  " + binsCaption(edges)
		lines = append(lines, st.Label.Render(ansi.Truncate(caption, width, "…")), sparklineView(st, values[k], edges, width, sparkHeight))
	}
	return strings.Join(lines, "\n")
}
