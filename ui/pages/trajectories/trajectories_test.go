package trajectories

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

func TestGoldenTrajectories(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	golden.RequireEqual(t, uitest.Plain(tab))
}

func TestGoldenTrajectoryOpened(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	uitest.PressKeys(tab, "down", "enter")
	golden.RequireEqual(t, uitest.Plain(tab))
}

// rowRewards returns the listed rows' rewards, in table order.
func rowRewards(tab common.Tab, s *session.Session) []float64 {
	var rewards []float64
	for _, i := range tab.(*trajectoriesTab).rows.rows {
		rewards = append(rewards, s.Result.Rewards[i])
	}
	return rewards
}

func TestTrajectoriesSortByReward(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	if view := uitest.Plain(tab); !strings.Contains(view, "sorted by pareto ▼") {
		t.Fatalf("not sorted by reward at first:\n%s", view)
	}
	desc := rowRewards(tab, s)
	if len(desc) != 128 || !slices.IsSortedFunc(desc, func(a, b float64) int { return -compareFloats(a, b) }) {
		t.Errorf("rewards not in descending order: %v", desc)
	}
	uitest.PressKeys(tab, "S")
	if asc := rowRewards(tab, s); !slices.IsSorted(asc) || !strings.Contains(uitest.Plain(tab), "pareto ▲") {
		t.Errorf("S does not sort by ascending reward: %v", asc)
	}
	uitest.PressKeys(tab, "s") // B's rewards, grpo, then the rank
	if view := uitest.Plain(tab); !strings.Contains(view, "sorted by grpo ▲") {
		t.Errorf("s does not move the sort to B's column:\n%s", view)
	}
	uitest.PressKeys(tab, "s")
	if view := uitest.Plain(tab); !strings.Contains(view, "sorted by rank ▲") {
		t.Errorf("s does not move the sort to the next column:\n%s", view)
	}
}

func compareFloats(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestTrajectoriesFilterByGroup(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	uitest.PressKeys(tab, "/", "p", "0", "3")
	if !tab.(common.KeyCapturer).CapturesKeys() {
		t.Error("the tab does not capture keys while the filter is typed")
	}
	uitest.PressKeys(tab, "enter")
	rows := tab.(*trajectoriesTab).rows.rows
	if len(rows) != 8 {
		t.Errorf("filter p03 keeps %d rows, want the group's 8", len(rows))
	}
	for _, i := range rows {
		if s.Trajectories.At(i).Group != "p03" {
			t.Errorf("filter p03 keeps %s of group %s", s.Trajectories.At(i).ID, s.Trajectories.At(i).Group)
		}
	}
	if view := uitest.Plain(tab); !strings.Contains(view, "8 trajectories") || !strings.Contains(view, "filter p03") || strings.Contains(view, "p04") {
		t.Errorf("the view does not show the filter:\n%s", view)
	}
	uitest.PressKeys(tab, "esc")
	if n := len(tab.(*trajectoriesTab).rows.rows); n != 128 {
		t.Errorf("esc leaves %d rows, want all 128", n)
	}
}

func TestTrajectoriesOpenAndReturn(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	first := *s.Trajectories.At(tab.(*trajectoriesTab).rows.rows[0])
	uitest.PressKeys(tab, "enter")
	view := uitest.Plain(tab)
	words := strings.Fields(first.ResponseText())
	for _, want := range []string{"response", "metadata", words[0], words[len(words)-1], "read from"} {
		if !strings.Contains(view, want) {
			t.Errorf("the opened trajectory does not show %q:\n%s", want, view)
		}
	}
	uitest.PressKeys(tab, "esc")
	if view := uitest.Plain(tab); !strings.Contains(view, "sorted by pareto") {
		t.Errorf("esc does not return to the table:\n%s", view)
	}
}

func TestTrajectoriesShowInvalidCause(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	// Batch 5 holds one of the sample's invalid trajectories.
	uitest.ShowBatch(tab, s, 5)
	if view := uitest.Plain(tab); !strings.Contains(view, "1 invalid") {
		t.Errorf("batch 5's invalid trajectory is not counted:\n%s", view)
	}
	invalid := slices.IndexFunc(s.CurrentBatch().Members, func(i int) bool { return !s.Result.Evaluation.Valid[i] })
	uitest.PressKeys(tab, "/")
	uitest.PressKeys(tab, strings.Split(s.Trajectories.At(s.CurrentBatch().Members[invalid]).ID, "")...)
	uitest.PressKeys(tab, "enter")
	if view := uitest.Plain(tab); !strings.Contains(view, "invalid because") || !strings.Contains(view, "accuracy: missing") {
		t.Errorf("batch 5's invalid trajectory is not shown with its cause:\n%s", view)
	}
}

func TestTrajectoriesSanitiseAndAlign(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	top := tab.(*trajectoriesTab).rows.rows[0]
	// Wide characters, an OSC 52 clipboard write and a bidi override.
	s.Trajectories.At(top).ID = "軌跡-\x1b]52;c;ZXZpbA==\x07-\u202eabc"
	s.Trajectories.At(top).Response = []byte(`"line one\n\u001b[2Jline two"`)
	uitest.Refresh(tab, s)
	raw := tab.View()
	if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\u202e") {
		t.Errorf("the table prints the id's control sequences: %q", raw)
	}
	lines := strings.Split(uitest.Plain(tab), "\n")
	header := lines[1]
	for _, line := range lines[2:] {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if ansi.StringWidth(line) != ansi.StringWidth(header) || strings.Index(line, "p") > strings.Index(header, "group")+2 {
			t.Errorf("row out of line with the header:\n%s\n%s", header, line)
		}
	}
	uitest.PressKeys(tab, "enter")
	if raw := tab.View(); strings.Contains(raw, "\x1b[2J") || !strings.Contains(uitest.Plain(tab), `\x1b[2Jline two`) {
		t.Errorf("the response is not shown escaped: %q", uitest.Plain(tab))
	}
}

// TestTrajectoriesInNaturalOrder: ids numbered without leading zeros are
// sorted by id as a person counts (g2-c1 before g10-c1).
func TestTrajectoriesInNaturalOrder(t *testing.T) {
	var b strings.Builder
	for _, g := range []int{10, 2, 1, 100, 0} {
		for c := range 2 {
			fmt.Fprintf(&b, `{"id":"g%d-c%d","group":"g%d","metadata":{"a":%d,"b":%d}}`+"\n", g, c*9+1, g, c, g)
		}
	}
	s := uitest.TextSession(t, b.String())
	list := uitest.TabOn(s, New).(*trajectoriesTab).rows
	list.build(s, "", slices.IndexFunc(list.columns, func(c trajectoryColumn) bool { return c.title == "id" }), false, false)
	var ids []string
	for j := range list.rows {
		ids = append(ids, s.Trajectories.At(list.at(j)).ID)
	}
	if want := []string{"g0-c1", "g0-c10", "g1-c1", "g1-c10", "g2-c1", "g2-c10", "g10-c1", "g10-c10", "g100-c1", "g100-c10"}; !slices.Equal(ids, want) {
		t.Errorf("ids sorted %v, want %v", ids, want)
	}
}

// TestTrajectoriesBothMethodsKeepOrder: the table shows pareto's (A) and
// grpo's (B) rewards in columns named by method; a change of method keeps
// the rows where they were, and sorting again sorts by the new rewards.
func TestTrajectoriesBothMethodsKeepOrder(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	view := uitest.Plain(tab)
	if !strings.Contains(view, "pareto ▼") || !strings.Contains(view, " grpo ") {
		t.Fatalf("no pareto and grpo columns:\n%s", view)
	}
	before := slices.Clone(tab.(*trajectoriesTab).rows.rows)
	s.Options.Method = engine.RLOO
	s.Recompute()
	uitest.Refresh(tab, s)
	after := tab.(*trajectoriesTab).rows.rows
	if !slices.Equal(before, after) {
		t.Errorf("the rows moved when the method changed")
	}
	// The order is pareto's, which the status line names, kept from a
	// column no longer shown: the rloo column does not claim it with an
	// arrow.
	if view := uitest.Plain(tab); !strings.Contains(view, "order kept from pareto ▼ (s sorts)") || !strings.Contains(view, " rloo ") || strings.Contains(view, "rloo ▼") || !strings.Contains(view, " grpo ") {
		t.Errorf("after the change the columns are not rloo and grpo, in the order of pareto:\n%s", view)
	}
	uitest.PressKeys(tab, "S", "S") // sort again: by rloo, descending
	if desc := rowRewards(tab, s); !slices.IsSortedFunc(desc, func(a, b float64) int { return -compareFloats(a, b) }) {
		t.Errorf("sorting again did not sort by the new rewards: %v", desc)
	}
}

// TestTrajectoriesFollowEveryOptionChange: after each switch of method,
// scope or weights, the table holds the rows a tab opened on the new
// options shows, in columns as wide (the number formats the tab keeps of
// the columns a method does not change are those of the new values); the
// order may differ, since a switch keeps it.
func TestTrajectoriesFollowEveryOptionChange(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	sortedLines := func(tab common.Tab) []string {
		tab.SetSize(200, 1000) // every row on screen, whatever the order
		lines := strings.Split(strings.TrimRight(uitest.Plain(tab), " \n"), "\n")[1:]
		// The titles as wide, the sort column's arrow or not (a kept
		// order has none).
		lines[0] = strings.NewReplacer(" ▼", "  ", " ▲", "  ").Replace(lines[0])
		slices.Sort(lines)
		return lines
	}
	changes := append(uitest.EveryMethod(), uitest.WeightChange, uitest.ScopeChange(engine.ScopeBatch), uitest.WeightChange)
	for _, c := range changes {
		fresh := uitest.SwitchOptions(t, tab, s, c, uitest.SampleSession, New)
		if got, want := sortedLines(tab), sortedLines(fresh); !slices.Equal(got, want) {
			t.Fatalf("after %s the rows differ from a fresh tab's:\n%s\nwant\n%s", c.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestTrajectoriesCutTheSharedTemplate: groups that are prompts in one
// chat template (a line end in what they share) show what follows it in
// the group column, as the Groups tab does: the cut is found on the keys
// before their line ends are escaped.
func TestTrajectoriesCutTheSharedTemplate(t *testing.T) {
	var b strings.Builder
	for _, q := range []string{"Solve x + 3 = 5.", "Factor x^2 - 1."} {
		for c := range 2 {
			fmt.Fprintf(&b, `{"id":"%s-%d","group":"<|im_start|>user\n%s<|im_end|>","metadata":{"a":%d,"b":1}}`+"\n", q[:5], c, q, c)
		}
	}
	tab := uitest.TabOn(uitest.TextSession(t, b.String()), New)
	v := uitest.Plain(tab)
	if !strings.Contains(v, "…Solve x") || !strings.Contains(v, "…Factor x") || strings.Contains(v, "<|im_start|>") {
		t.Errorf("the group column does not leave out the shared template:\n%s", v)
	}
}

// TestTrajectoriesFilterKeepsTheBatchsCut: a filter leaving one group's
// rows cuts the prefix the batch's groups share, not what the rows left
// share (a single group: nothing), so that a group reads as unfiltered.
func TestTrajectoriesFilterKeepsTheBatchsCut(t *testing.T) {
	var b strings.Builder
	for _, q := range []string{"Solve x + 3 = 5.", "Factor x^2 - 1."} {
		for c := range 2 {
			fmt.Fprintf(&b, `{"id":"%s-%d","group":"<|im_start|>user\n%s<|im_end|>","metadata":{"a":%d,"b":1}}`+"\n", q[:5], c, q, c)
		}
	}
	tab := uitest.TabOn(uitest.TextSession(t, b.String()), New)
	uitest.PressKeys(tab, "/", "S", "o", "l", "v", "e", "enter")
	v := uitest.Plain(tab)
	if !strings.Contains(v, "…Solve x") || strings.Contains(v, "Factor") || strings.Contains(v, "<|im_start|>") {
		t.Errorf("filtered, the group column does not cut the batch's shared template:\n%s", v)
	}
}

// longIDs is 12 trajectories whose ids are 300 characters differing only
// at their end, in groups whose keys are 60 characters, with objectives
// a and b.
func longIDs(t *testing.T) *session.Session {
	var b strings.Builder
	for j := range 12 {
		fmt.Fprintf(&b, `{"id":"%s-%02d","group":"%d %s","metadata":{"a":%d,"b":1}}`+"\n", strings.Repeat("X", 300), j, j/4, strings.Repeat("g", 58), j)
	}
	return uitest.TextSession(t, b.String())
}

// TestTrajectoriesLongIDsStayDistinct: ids too long for their column are
// cut in their middle, so 12 ids differing at their end show as 12, and
// at 200 cells the id and group columns grow into the width the others
// leave free.
func TestTrajectoriesLongIDsStayDistinct(t *testing.T) {
	s := longIDs(t)
	tab := uitest.TabOn(s, New)
	for _, width := range []int{120, 200} {
		tab.SetSize(width, 40)
		lines := strings.Split(uitest.Plain(tab), "\n")
		ids := map[string]bool{}
		var table []string
		for _, l := range lines {
			if strings.HasPrefix(l, "XXX") {
				ids[strings.Fields(l)[0]] = true
				table = append(table, l)
			}
		}
		if len(ids) != 12 {
			t.Errorf("at %d cells the 12 ids show as %d:\n%s", width, len(ids), strings.Join(lines, "\n"))
		}
		if width == 200 {
			if w := ansi.StringWidth(strings.Fields(table[0])[0]); w <= common.MaxIDWidth {
				t.Errorf("at 200 cells the id column is %d cells, not grown:\n%s", w, strings.Join(table, "\n"))
			}
			if !strings.Contains(table[0], strings.Repeat("g", 58)) {
				t.Errorf("at 200 cells the group column did not grow to its 60 cells:\n%s", strings.Join(table, "\n"))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > width {
					t.Errorf("a line wider than %d: %q", width, l)
				}
			}
		}
	}
}

// TestTrajectoriesSortScrollsToTheColumn: at 60 cells, s onto a column
// off screen scrolls it into view, its arrow shown; sorting back by the
// reward scrolls back.
func TestTrajectoriesSortScrollsToTheColumn(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	tab.SetSize(60, 30)
	tt := tab.(*trajectoriesTab)
	for range len(tt.rows.columns) - 1 {
		uitest.PressKeys(tab, "s")
		title := tt.rows.columns[tt.rows.sortColumn].title
		head := strings.Split(uitest.Plain(tab), "\n")[1]
		if !strings.Contains(head, title+" ▲") && !strings.Contains(head, title+" ▼") {
			t.Errorf("sorted by %s, the header does not show it: %q", title, head)
		}
	}
}

// TestTrajectoriesIDsDifferingInTheMiddle: ids sharing a long head and
// tail, differing in their middle (a run's step, prompt and completion),
// cut to their column keep the middle: the 12 show as 12.
func TestTrajectoriesIDsDifferingInTheMiddle(t *testing.T) {
	var b strings.Builder
	for j := range 12 {
		fmt.Fprintf(&b, `{"id":"run-2026-11-27-experiment-very-long-identifier-s00-p%02d-c%d-suffix-xyz","group":"p%02d","metadata":{"a":%d,"b":1}}`+"\n", j/2, j%2, j/2, j)
	}
	tab := uitest.TabOn(uitest.TextSession(t, b.String()), New)
	tab.SetSize(70, 30)
	ids := map[string]bool{}
	view := uitest.Plain(tab)
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, "run-") {
			ids[strings.Fields(l)[0]] = true
		}
	}
	if len(ids) != 12 || !ids["run-2026-1…p03-c1-suffix-xyz"] {
		t.Errorf("the 12 ids show as %d:\n%s", len(ids), view)
	}
}

// TestTrajectoriesLongIntegersReadApart: an objective of integers past
// ten digits, 1e15 and 1e15+1, shows in exponent form, not whole, and the
// cell its digits round is marked, so the two read apart.
func TestTrajectoriesLongIntegersReadApart(t *testing.T) {
	tab := uitest.TabOn(uitest.TextSession(t, `{"id":"x","group":"g","metadata":{"a":1000000000000000,"b":1}}
{"id":"y","group":"g","metadata":{"a":1000000000000001,"b":2}}
`), New)
	view := uitest.Plain(tab)
	for _, want := range []string{" 1.000000000e+15 ", " ~1.000000000e+15 "} {
		if !strings.Contains(view, want) {
			t.Errorf("the table lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "1000000000000001") {
		t.Errorf("the table prints the integer whole:\n%s", view)
	}
}

// TestTrajectoryReadOffTheEventLoop: a trajectory of a lean session
// opened is read again from its file off the event loop: its view says it
// is being read until the tab's job lands with its response.
func TestTrajectoryReadOffTheEventLoop(t *testing.T) {
	s := uitest.FileSessionWith(t, `{"id":"c0","batch":0,"group":"g","response":"the whole answer","metadata":{"accuracy":1}}`+"\n", setup.Config{})
	tab := uitest.TabOn(s, New)
	tab.Update(uitest.KeyPress("enter"))
	if v := uitest.Plain(tab); strings.Contains(v, "the whole answer") || !strings.Contains(v, trajectory.ReadingText) {
		t.Fatalf("c0 was read on the event loop:\n%s", v)
	}
	uitest.Jobs(tab)
	if v := uitest.Plain(tab); !strings.Contains(v, "the whole answer") || strings.Contains(v, trajectory.ReadingText) {
		t.Errorf("c0, read, does not show its response:\n%s", v)
	}
}
