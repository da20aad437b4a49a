// Package prompts is the dashboard's Prompts tab: every prompt across the
// run (package prompts' analysis), as a heatmap of prompts x steps
// coloured by pass rate, sortable and filtered by the list component, with
// the selected prompt's history charted under it; enter opens the prompt's
// group at the chosen step in the Groups tab.
package prompts

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	analysis "github.com/rewardlens/rewardlens/prompts"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/list"
	"github.com/rewardlens/rewardlens/ui/components/plot"
)

// The sort columns, in the order the sort key cycles through them.
const (
	byStatus = iota
	byFirstSolved
	byMean
	byName
	sortColumns
)

var sortTitles = [sortColumns]string{"status", "first solved", "mean", "name"}

// solvedTitle heads the column of the step a prompt was first solved at:
// a step, not a count.
const solvedTitle = "solved at"

// The widths of the text columns left of the heatmap.
const (
	statusWidth = 9
	solvedWidth = len(solvedTitle)
	meanWidth   = 5
)

type keyMap struct {
	Up, Down, PageUp, PageDown, Home, End, PrevStep, NextStep, Open key.Binding
}

func newListKeyMap() list.KeyMap {
	return list.KeyMap{
		Sort:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		Reverse:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reverse the sort")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter by prompt or status")),
		ApplyFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep the filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear the filter")),
	}
}

func newKeyMap() keyMap {
	return keyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous prompt")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next prompt")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
		Home:     key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first prompt")),
		End:      key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last prompt")),
		PrevStep: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "step")),
		NextStep: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next step of the prompt")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "its group at the step")),
	}
}

type promptsTab struct {
	common        *common.Common
	keys          keyMap
	width, height int
	typing        bool

	// listing is every prompt of the session's result, as listed; steps
	// the result's steps, ascending.
	listing
	steps []int64
	// longest is the widest label of a prompt (label), in cells, before
	// its control characters are escaped: the column's width, not a cut.
	longest int
	// cut is how much of every prompt's start the rows leave out: what
	// all the prompts share (a system prompt), shown as "…".
	// tail is how much of every prompt's end the rows leave out (a chat
	// template's), shown as "…".
	cut, tail int
	// rows are the listed prompts (indices in analysis.Prompts), filtered
	// and sorted; cursor the selected row, top the first drawn; point the
	// chosen step of the selected prompt, an index in its history.
	rows        []int
	cursor, top int
	point       int
	list        list.List
	// sorted is the sort's buffer (listing.rowsOf).
	sorted []int
	// of is what the analysis shown was made of: it reads the evaluation
	// and its steps, not the method's rewards, so a recompute keeps it.
	// job is the analysis under way off the event loop, nil when the one
	// shown is up to date.
	of  analysisOf
	job *analysisJob
}

type analysisOf struct {
	ev             *engine.Evaluation
	n, steps, keys int
}

// New returns the Prompts tab.
func New(c *common.Common) common.Tab {
	return &promptsTab{common: c, keys: newKeyMap(), list: list.New(c.Styles, newListKeyMap(), "prompt or status")}
}

func (t *promptsTab) Title() string { return "Prompts" }

// CapturesKeys tells the root to leave every key to the filter being typed.
func (t *promptsTab) CapturesKeys() bool { return t.typing }

// OwnsFind tells the root that / is this tab's own filter, while it lists
// prompts: with nothing listed, / is the find of every tab.
func (t *promptsTab) OwnsFind() bool { return !t.nothingToList() }

// PrefetchHidden implements common.Prefetcher: the root starts the
// analysis before the tab is shown; refresh only starts it, off the event
// loop, and a recompute keeps it.
func (t *promptsTab) PrefetchHidden() bool { return true }

func (t *promptsTab) SetSize(width, height int) {
	t.width, t.height = width, height
	t.list.SetSize(width, height)
	t.scroll()
}

func (t *promptsTab) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case common.SessionChangedMsg:
		return t, t.refresh()
	case analyzedMsg:
		t.take(msg.job)
	case tea.KeyPressMsg:
		return t, t.handleKey(msg)
	}
	return t, nil
}

// nothingToList reports whether the tab has no prompt for its keys to
// move over, sort or filter: it says why there are none. While the
// analysis runs they apply (a sort chosen then orders what lands).
func (t *promptsTab) nothingToList() bool {
	return t.common.Session.Prompts == nil || t.of.ev != nil && len(t.analysis.Prompts) == 0
}

func (t *promptsTab) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if !t.typing && t.nothingToList() {
		return nil
	}
	if t.typing {
		cmd, done, _ := t.list.TypeFilter(msg)
		if done {
			t.typing = false
			t.list.StopFilter()
		}
		t.rebuild()
		return cmd
	}
	switch {
	case key.Matches(msg, t.list.Keys.Filter):
		t.typing = true
		return t.list.StartFilter()
	case key.Matches(msg, t.list.Keys.ClearFilter) && t.list.Filtered():
		t.list.Filter.Reset()
		t.rebuild()
	case t.list.Sorting(msg, sortColumns):
		t.rebuild()
	case key.Matches(msg, t.keys.Up):
		t.select_(t.cursor - 1)
	case key.Matches(msg, t.keys.Down):
		t.select_(t.cursor + 1)
	case key.Matches(msg, t.keys.PageUp):
		t.select_(t.cursor - t.heatRows())
	case key.Matches(msg, t.keys.PageDown):
		t.select_(t.cursor + t.heatRows())
	case key.Matches(msg, t.keys.Home):
		t.select_(0)
	case key.Matches(msg, t.keys.End):
		t.select_(len(t.rows) - 1)
	case key.Matches(msg, t.keys.PrevStep):
		t.point = max(t.point-1, 0)
	case key.Matches(msg, t.keys.NextStep):
		if p := t.selected(); p != nil {
			t.point = min(t.point+1, len(p.History)-1)
		}
	case key.Matches(msg, t.keys.Open):
		return t.open()
	}
	return nil
}

// select_ moves the cursor to row j, the chosen step to the prompt's last.
func (t *promptsTab) select_(j int) {
	j = min(max(j, 0), len(t.rows)-1)
	if j == t.cursor || j < 0 {
		return
	}
	t.cursor = j
	t.point = len(t.selected().History) - 1
	t.scroll()
}

// selected is the prompt under the cursor, nil when none is listed.
func (t *promptsTab) selected() *analysis.Prompt {
	if t.cursor >= len(t.rows) {
		return nil
	}
	return &t.analysis.Prompts[t.rows[t.cursor]]
}

// open asks the root to show the selected prompt's group at the chosen
// step: the group of a trajectory of the prompt in that step's batch.
func (t *promptsTab) open() tea.Cmd {
	p := t.selected()
	s := t.common.Session
	if p == nil || s.Prompts == nil {
		return nil
	}
	step := p.History[t.point].Step
	k := slices.Index(s.Prompts.Keys.Names, p.Key)
	for bi := range s.Result.Ranking.Batches {
		b := &s.Result.Ranking.Batches[bi]
		if b.Step != step {
			continue
		}
		for _, i := range b.Members {
			if int(s.Prompts.Keys.Of[i]) == k {
				return func() tea.Msg { return common.ShowGroupMsg{Batch: bi, Trajectory: i} }
			}
		}
	}
	return nil
}

// refresh starts analysing the session again, off the event loop, when
// its trajectories changed (a live run's new steps) and no analysis of
// them is under way; the analysis shown stays until the new one lands.
func (t *promptsTab) refresh() tea.Cmd {
	s := t.common.Session
	if s.Result == nil || s.Prompts == nil {
		return nil
	}
	of := analysisOf{s.Evaluation, s.Evaluation.N(), len(s.Result.Ranking.Batches), len(s.Prompts.Keys.Names)}
	if of == t.of || t.job != nil && t.job.of == of {
		return nil
	}
	j := newAnalysisJob(of, s.Result, s.Prompts, t.order())
	t.job = j
	gate := t.common.Background
	return func() tea.Msg {
		j.run(gate)
		return analyzedMsg{j}
	}
}

// take shows the analysis of j once it is done, unless a newer one was
// started since (j is stale): the selected prompt stays selected.
// maxMeasuredRunes is how much of a label the column's width is measured
// on: more than any screen gives the column, and a prompt of pages is not
// walked whole on the event loop.
const maxMeasuredRunes = 512

// measuredPart is label's first maxMeasuredRunes runes.
func measuredPart(label string) string {
	n := 0
	for i := range label {
		if n == maxMeasuredRunes {
			return label[:i]
		}
		n++
	}
	return label
}

func (t *promptsTab) take(j *analysisJob) {
	if j == nil || j != t.job || !j.done.Load() {
		return
	}
	var key string
	if p := t.selected(); p != nil {
		key = p.Key
	}
	t.job, t.of = nil, j.of
	t.listing, t.steps, t.cut, t.tail = j.listing, j.steps, j.cut, j.tail
	t.longest = 0
	for k := range t.analysis.Prompts {
		t.longest = max(t.longest, common.TextWidth(textsafe.Line(measuredPart(t.label(&t.analysis.Prompts[k])))))
	}
	if j.order == t.order() {
		t.rows = j.rows // listed off the event loop
	} else {
		t.rows, t.sorted = t.listing.rowsOf(t.rows[:0], t.sorted, t.order())
	}
	t.cursor = max(slices.IndexFunc(t.rows, func(r int) bool { return t.analysis.Prompts[r].Key == key }), 0)
	if p := t.selected(); p != nil {
		t.point = len(p.History) - 1
	}
	t.scroll()
}

// Settle runs the analysis under way, if any, on the calling goroutine
// and shows it: for a caller that drives the tab without a program (a
// test), where nothing runs the commands.
func (t *promptsTab) Settle() {
	if t.job != nil {
		t.job.run(nil)
		t.take(t.job)
	}
}

// rebuild lists the prompts that match the filter (a part of the name or
// the start of the status), sorted, keeping the selected one.
func (t *promptsTab) rebuild() {
	selected := -1
	if t.cursor < len(t.rows) {
		selected = t.rows[t.cursor]
	}
	t.rows, t.sorted = t.listing.rowsOf(t.rows[:0], t.sorted, t.order())
	t.cursor = max(slices.Index(t.rows, selected), 0)
	if p := t.selected(); p != nil {
		t.point = min(t.point, len(p.History)-1)
	}
	t.scroll()
}

// order is how the list lists the prompts: its sort and its filter.
func (t *promptsTab) order() listOrder {
	return listOrder{t.list.SortColumn, t.list.Descending, t.list.FilterText()}
}

// heatRows is how many prompts the heatmap shows: the body less the
// status line, the column titles, the steps' and the chart (a third, at
// least 5).
func (t *promptsTab) heatRows() int { return max(t.height-3-t.chartHeight(), 1) }

func (t *promptsTab) chartHeight() int { return max(t.height/3, 5) }

// scroll keeps the cursor's row drawn.
func (t *promptsTab) scroll() {
	n := t.heatRows()
	t.top = min(t.top, t.cursor)
	if t.cursor >= t.top+n {
		t.top = t.cursor - n + 1
	}
	t.top = max(min(t.top, len(t.rows)-n), 0)
}

func (t *promptsTab) View() string {
	st := t.common.Styles
	s := t.common.Session
	if s.Prompts == nil {
		why := "no prompts"
		if s.PromptsErr != nil {
			why = s.PromptsErr.Error()
		}
		// Whole: its end says which flag to give.
		return common.FitBox(st.Invalid.Render(common.WrapAtSpaces(textsafe.Line(why), t.width)), t.width, t.height)
	}
	// An analysis that landed while another tab was shown is taken here.
	t.take(t.job)
	if t.of.ev == nil {
		return st.Muted.Render(common.FitLine("analysing the prompts across the steps…", t.width))
	}
	if len(t.analysis.Prompts) == 0 {
		return st.Muted.Render(common.FitLine(fmt.Sprintf("no prompt has the task metric %s", s.Prompts.TaskName), t.width))
	}
	lines := []string{t.statusLine(), t.titleLine(), t.stepsLine()}
	for j := t.top; j < min(t.top+t.heatRows(), len(t.rows)); j++ {
		lines = append(lines, t.row(j))
	}
	for len(lines) < 3+t.heatRows() {
		lines = append(lines, "")
	}
	lines = append(lines, t.chart())
	return strings.Join(lines, "\n")
}

// statusLine is how many prompts are listed, the count per status (of
// the run), the sort and the filter.
func (t *promptsTab) statusLine() string {
	st := t.common.Styles
	var counts []string
	for _, c := range t.counts {
		if c.Count > 0 {
			counts = append(counts, fmt.Sprintf("%s %d", c.Status, c.Count))
		}
	}
	listed := common.Count(len(t.analysis.Prompts), "prompt", "prompts")
	if len(t.rows) < len(t.analysis.Prompts) {
		listed = fmt.Sprintf("%d of %d prompts", len(t.rows), len(t.analysis.Prompts))
	}
	listed = st.Title.Render(listed)
	// Before the counts, which a narrow line cuts first: a prompt left out
	// is never dropped silently (the CLI's warning, of the same analysis).
	if n := t.analysis.WithoutMetric; n > 0 {
		listed += " " + st.Warning.Render(fmt.Sprintf("(%d left out: no %s at any step)", n, textsafe.Line(t.common.Session.Prompts.TaskName)))
	}
	return t.list.Status(st, t.typing,
		listed+" "+strings.Join(counts, " "),
		st.Muted.Render("by ")+t.list.SortTitle(sortTitles[t.list.SortColumn]))
}

// nameWidth is the prompt column's width: a quarter of the width, at
// most 30 cells, and what a heatmap of fewer steps than its room leaves
// (a cell a step and its label after it), up to the longest prompt.
func (t *promptsTab) nameWidth() int {
	base := max(min(t.width/4, 30), 6)
	spare := t.width - base - statusWidth - solvedWidth - meanWidth - 4 - len(t.steps) - len(" steps")
	if spare <= 0 || t.longest <= base {
		return base
	}
	return min(base+spare, t.longest)
}

// heatWidth is the heatmap's width in cells.
func (t *promptsTab) heatWidth() int {
	return max(t.width-t.nameWidth()-statusWidth-solvedWidth-meanWidth-4, 1)
}

// titleLine is the columns' titles, "steps" over the heatmap's cells,
// centred and a cell in at least (where the dashboard's narrowest width
// leaves room): two spaces from "mean", as the other titles are apart,
// so that it does not read "mean steps".
func (t *promptsTab) titleLine() string {
	st := t.common.Styles
	const word = "steps"
	hw := t.heatWidth()
	in := max(min(max((min(hw, len(t.steps))-len(word))/2, 1), hw-len(word)), 0)
	return st.Muted.Render(pad("prompt", t.nameWidth()) + " " + pad("status", statusWidth) + " " +
		padLeft(solvedTitle, solvedWidth) + " " + padLeft("mean", meanWidth) + " " + strings.Repeat(" ", in) + ansi.Truncate(word, max(hw-in, 1), ""))
}

// stepsLine labels the heatmap's columns on a line of their own, under
// its title, so that no step reads as another column's ("mean 1"): the
// first step at the first cell, the last ending at the last; "1–2" from
// the first cell when the two do not fit apart, "1" for one step.
func (t *promptsTab) stepsLine() string {
	w := min(t.heatWidth(), len(t.steps))
	first, last := fmt.Sprint(t.steps[0]), fmt.Sprint(t.steps[len(t.steps)-1])
	labels := first
	switch {
	case len(t.steps) == 1:
	case w >= len(first)+1+len(last):
		labels = first + strings.Repeat(" ", w-len(first)-len(last)) + last
	default:
		labels = first + "–" + last
	}
	left := t.nameWidth() + statusWidth + solvedWidth + meanWidth + 4
	return t.common.Styles.Muted.Render(strings.Repeat(" ", left) + ansi.Truncate(labels, max(t.width-left, 1), ""))
}

// row draws listed prompt j: its name, status, first solved step, mean
// pass rate and heatmap.
func (t *promptsTab) row(j int) string {
	st := t.common.Styles
	p := &t.analysis.Prompts[t.rows[j]]
	solved := "-"
	if p.HasSolved {
		solved = fmt.Sprint(p.FirstSolved)
	}
	name := pad(common.FitMiddle(t.label(p), t.nameWidth()), t.nameWidth())
	if j == t.cursor {
		name = st.Selected.Render(name)
	}
	return name + " " + pad(string(p.Status), statusWidth) + " " + padLeft(solved, solvedWidth) + " " +
		padLeft(fmt.Sprintf("%.2f", t.mean[t.rows[j]]), meanWidth) + " " + t.heat(p, j == t.cursor)
}

// label is what the rows show of p's prompt, on one line: without the
// start and the end all the prompts share.
func (t *promptsTab) label(p *analysis.Prompt) string {
	return common.KeyLine(common.CutGroupKey(p.Key, t.cut, t.tail))
}

// shades are the heatmap's cells by pass rate, readable without colour:
// 0, under 1/3, under 2/3, under 1, and 1.
var shades = []rune{'·', '░', '▒', '▓', '█'}

// heat draws p's pass rates over the steps, each cell the steps that fall
// in it: the pass rate of all their completions, blank where p was not
// seen; on the selected row the chosen step's cell is marked.
func (t *promptsTab) heat(p *analysis.Prompt, selected bool) string {
	w := min(t.heatWidth(), len(t.steps))
	passed, n := make([]int, w), make([]int, w)
	chosen := -1
	for k, pt := range p.History {
		c := t.cell(pt.Step, w)
		passed[c] += pt.Passed
		n[c] += pt.N
		if selected && k == t.point {
			chosen = c
		}
	}
	var b strings.Builder
	for c := range w {
		if n[c] == 0 {
			b.WriteByte(' ')
			continue
		}
		rate := float64(passed[c]) / float64(n[c])
		r := shades[shade(rate)]
		style := lipgloss.NewStyle()
		if !t.common.Styles.NoColor {
			style = style.Foreground(heatColor(rate))
		}
		if c == chosen {
			style = style.Reverse(true)
		}
		b.WriteString(style.Render(string(r)))
	}
	return b.String()
}

// shade is the index in shades of a pass rate: 0 for none, 4 for all,
// else 1 + floor(rate*3) capped at 3.
func shade(rate float64) int {
	switch {
	case rate <= 0:
		return 0
	case rate >= 1:
		return 4
	}
	return min(1+int(rate*3), 3)
}

// heatColor runs from red (no pass) through yellow to green (all pass).
func heatColor(rate float64) color.Color {
	r, g := 255, 255
	if rate < 0.5 {
		g = int(rate * 2 * 255)
	} else {
		r = int((1 - rate) * 2 * 255)
	}
	return lipgloss.Color(fmt.Sprintf("#%02x%02x40", r, g))
}

// cell is the heatmap column of step among w: the steps spread evenly.
func (t *promptsTab) cell(step int64, w int) int {
	k, _ := slices.BinarySearch(t.steps, step)
	return k * w / len(t.steps)
}

// chart draws the selected prompt's pass rate over its steps, the chosen
// step marked.
func (t *promptsTab) chart() string {
	st := t.common.Styles
	p := t.selected()
	if p == nil {
		return st.Muted.Render("no prompt matches the filter")
	}
	pt := p.History[t.point]
	title := fmt.Sprintf("%s · step %d: pass rate %.2f (%d/%d) · enter opens its group", common.FitLine(t.label(p), t.width/2), pt.Step, pt.PassRate(), pt.Passed, pt.N)
	// The run's steps, as the heatmap: prompts' charts side by side.
	first, last := float64(t.steps[0]), float64(t.steps[len(t.steps)-1])
	f := plot.NewStepFrame(t.width, t.chartHeight()-1, first, last,
		func(rows int) chart.Axis {
			// A pass rate's axis is its range, 0 to 1, both ends labelled:
			// on two rows, a row apart.
			return chart.FitRange(0, 1, rows, chart.Options{NonNegative: true, MinGap: min(rows-1, 2)})
		})
	line := make([]canvas.Float64Point, len(p.History))
	for k, h := range p.History {
		line[k] = canvas.Float64Point{X: float64(h.Step), Y: h.PassRate()}
	}
	f.BrailleLines([][]canvas.Float64Point{line}, st.Bar)
	f.Mark(float64(pt.Step), pt.PassRate(), '◆', st.Selected)
	f.DrawAxes(st.Axis, st.AxisLabel)
	return st.Title.Render(common.FitLine(title, t.width)) + "\n" + f.View()
}

func pad(s string, w int) string { return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) }

func padLeft(s string, w int) string {
	return strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) + s
}

func (t *promptsTab) ShortHelp() []key.Binding {
	if !t.typing && t.nothingToList() {
		return nil
	}
	if t.typing {
		return []key.Binding{t.list.Keys.ApplyFilter, t.list.Keys.ClearFilter}
	}
	if t.list.Filtered() {
		return []key.Binding{t.keys.Open, t.keys.PrevStep, t.list.Keys.Filter, t.list.Keys.ClearFilter}
	}
	return []key.Binding{t.keys.Open, t.keys.PrevStep, t.list.Keys.Sort, t.list.Keys.Filter}
}

func (t *promptsTab) FullHelp() [][]key.Binding {
	if t.nothingToList() {
		return nil
	}
	return [][]key.Binding{
		{t.keys.Up, t.keys.Down, t.keys.PageUp, t.keys.PageDown, t.keys.Home, t.keys.End},
		{t.keys.PrevStep, t.keys.Open},
		{t.list.Keys.Sort, t.list.Keys.Reverse, t.list.Keys.Filter, t.list.Keys.ApplyFilter, t.list.Keys.ClearFilter},
	}
}
