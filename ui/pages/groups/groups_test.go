package groups

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/natural"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// listedGroups returns the groups tab's listed summaries, in table order.
func listedGroups(tab common.Tab) []*diagnose.GroupSummary {
	g := tab.(*groupsTab)
	out := make([]*diagnose.GroupSummary, len(g.rows))
	for j, r := range g.rows {
		out[j] = &g.summaries[r]
	}
	return out
}

func TestGroupsSort(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	gs := listedGroups(tab)
	if len(gs) != len(s.CurrentBatch().Groups) || !slices.IsSortedFunc(gs, func(a, b *diagnose.GroupSummary) int { return natural.Compare(a.Key, b.Key) }) {
		t.Fatalf("not every group listed by key at first: %d of %d", len(gs), len(s.CurrentBatch().Groups))
	}
	uitest.PressKeys(tab, "s", "s", "s", "s") // group, signal, n, valid, score mean
	if v := uitest.Plain(tab); !strings.Contains(v, "sorted by score mean ▲") || !strings.Contains(v, "score mean ▲") {
		t.Fatalf("four s do not sort by the score mean:\n%s", v)
	}
	means := func() []float64 {
		var m []float64
		for _, g := range listedGroups(tab) {
			m = append(m, g.Score.Mean)
		}
		return m
	}
	if !slices.IsSorted(means()) {
		t.Errorf("score means not ascending: %v", means())
	}
	uitest.PressKeys(tab, "S")
	if m := means(); !slices.IsSortedFunc(m, func(a, b float64) int { return cmp.Compare(b, a) }) || !strings.Contains(uitest.Plain(tab), "score mean ▼") {
		t.Errorf("S does not reverse the sort: %v", m)
	}
}

func TestGroupsFilterByKeyAndTrajectoryID(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	uitest.PressKeys(tab, "/", "p", "1", "0")
	if !tab.(common.KeyCapturer).CapturesKeys() {
		t.Error("the tab does not capture keys while the filter is typed")
	}
	uitest.PressKeys(tab, "enter")
	if gs := listedGroups(tab); len(gs) != 1 || gs[0].Key != "p10" {
		t.Errorf("filter p10 lists %d groups", len(gs))
	}
	uitest.PressKeys(tab, "esc", "/")
	uitest.PressKeys(tab, strings.Split("S00-P03-C2", "")...) // any case
	uitest.PressKeys(tab, "enter")
	if gs := listedGroups(tab); len(gs) != 1 || gs[0].Key != "p03" {
		t.Errorf("filter by the id s00-p03-c2 does not list its group p03 alone: %d groups", len(gs))
	}
	if v := uitest.Plain(tab); !strings.Contains(v, "1 group ·") || !strings.Contains(v, "filter S00-P03-C2") {
		t.Errorf("the status line does not show the filter:\n%s", v)
	}
	uitest.PressKeys(tab, "esc")
	if n := len(listedGroups(tab)); n != 16 {
		t.Errorf("esc leaves %d groups, want the batch's 16", n)
	}
}

// TestGroupsZeroSpreadMarked checks that exactly the groups the engine
// finds of zero spread are marked, and counted in the status line.
func TestGroupsZeroSpreadMarked(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	zero := 0
	lines := strings.Split(uitest.Plain(tab), "\n")
	for _, g := range diagnose.GroupSummaries(s.Result, s.CurrentBatch()) {
		var row string
		for _, l := range lines {
			if strings.HasPrefix(l, g.Key+" ") {
				row = l
			}
		}
		if row == "" {
			t.Fatalf("group %s not shown:\n%s", g.Key, strings.Join(lines, "\n"))
		}
		if marked := strings.Contains(row, " none "); marked != g.ZeroSpread {
			t.Errorf("group %s: marked %v, zero spread %v: %q", g.Key, marked, g.ZeroSpread, row)
		}
		if g.ZeroSpread {
			zero++
		}
	}
	if zero == 0 {
		t.Fatal("the sample's first batch has no zero-spread group to mark")
	}
	if !strings.Contains(lines[0], "2 without GRPO signal (zero spread)") || zero != 2 {
		t.Errorf("the status line does not count %d zero-spread groups: %q", zero, lines[0])
	}
	uitest.PressKeys(tab, "s", "S") // signal, descending: the groups with one first
	if gs := listedGroups(tab); gs[len(gs)-1].ZeroSpread != true || gs[0].ZeroSpread {
		t.Error("sorting by signal does not put the zero-spread groups at one end")
	}
}

// TestGroupsOpenGroupAndCompletion walks enter, enter, esc, esc.
func TestGroupsOpenGroupAndCompletion(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	uitest.PressKeys(tab, "down", "enter") // p01
	g := tab.(*groupsTab)
	v := uitest.Plain(tab)
	if !strings.Contains(v, "prompt  p01") || !strings.Contains(v, "8 completions") {
		t.Fatalf("enter does not open group p01:\n%s", v)
	}
	var rewards []float64
	for _, i := range g.group.members {
		rewards = append(rewards, s.Result.Rewards[i])
		if s.Trajectories.At(i).Group != "p01" {
			t.Errorf("%s is not of group p01", s.Trajectories.At(i).ID)
		}
	}
	if len(rewards) != 8 || !slices.IsSortedFunc(rewards, func(a, b float64) int { return cmp.Compare(b, a) }) {
		t.Errorf("completions not ranked by reward: %v", rewards)
	}
	top := s.Trajectories.At(g.group.members[0])
	firstLine, _, _ := strings.Cut(strings.TrimSpace(top.ResponseText()), "\n")
	if !strings.Contains(v, firstLine[:20]) || !strings.Contains(v, "│████") {
		t.Errorf("the best completion's response or its reward bar is not shown:\n%s", v)
	}
	uitest.PressKeys(tab, "down", "enter")
	second := s.Trajectories.At(g.group.members[1])
	if v := uitest.Plain(tab); !strings.Contains(v, second.ID+" · in group p01") || !strings.Contains(v, "read from") {
		t.Errorf("enter does not open the second completion, %s:\n%s", second.ID, v)
	}
	uitest.PressKeys(tab, "esc")
	if v := uitest.Plain(tab); !strings.Contains(v, "prompt  p01") {
		t.Errorf("esc does not go back to the group:\n%s", v)
	}
	uitest.PressKeys(tab, "esc")
	if v := uitest.Plain(tab); !strings.Contains(v, "16 groups") {
		t.Errorf("esc does not go back to the groups:\n%s", v)
	}
}

func TestZeroSpreadGroupSaysSo(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	uitest.PressKeys(tab, "/", "p", "1", "0", "enter", "enter")
	if v := uitest.Plain(tab); !strings.Contains(v, "zero spread: no GRPO signal") {
		t.Errorf("the opened zero-spread group does not say so:\n%s", v)
	}
}

// TestGroupsAfterSwitches checks the table that switches of method,
// weights and scope leave, with and without a filter, against a tab opened
// on those options (the columns that do not depend on the method are
// measured once per summaries and filter, the reward columns every time):
// on the sample, and on groups whose scores differ by orders of magnitude,
// which a filter takes apart (filters "big" and "tiny" list as many
// groups).
func TestGroupsAfterSwitches(t *testing.T) {
	changes := append(uitest.EveryMethod(), uitest.WeightChange, uitest.MethodChange(engine.Relative),
		uitest.ScopeChange(engine.ScopeBatch), uitest.MethodChange(engine.GRPO), uitest.ScopeChange(engine.ScopeGroup))
	var b strings.Builder
	for g, scale := range []float64{1e5, 3e4, 1e-2, 3e-2} {
		key := []string{"big1", "big2", "tiny1", "tiny2"}[g]
		for c := range 4 {
			fmt.Fprintf(&b, `{"id":"%s-c%d","group":"%s","metadata":{"a":%g,"b":%g}}`+"\n", key, c, key, scale*float64(c+1), float64(c%2))
		}
	}
	for _, data := range []struct {
		name    string
		open    func(testing.TB) *session.Session
		filters []string
	}{
		{"sample", uitest.SampleSession, []string{"", "p1"}},
		{"spread", func(t testing.TB) *session.Session { return uitest.TextSession(t, b.String()) }, []string{"big", "tiny", ""}},
	} {
		s := data.open(t)
		tab := uitest.TabOn(s, New)
		for _, filter := range data.filters {
			keys := []string{"esc"} // clears the filter before
			if filter != "" {
				keys = append(append(append(keys, "/"), strings.Split(filter, "")...), "enter")
			}
			uitest.PressKeys(tab, keys...)
			for _, c := range changes {
				fresh := uitest.SwitchOptions(t, tab, s, c, data.open, New)
				uitest.PressKeys(fresh, keys...)
				if got, want := uitest.Plain(tab), uitest.Plain(fresh); got != want {
					t.Fatalf("%s, filter %q, after %s the table is not that of a tab opened on it:\n%s\nwant:\n%s", data.name, filter, c.Name, got, want)
				}
			}
		}
	}
}

// naturalRun is two trajectories in each of the groups g10, g2, g1, g100
// and g0, numbered without leading zeros, with objectives a and b.
func naturalRun() string {
	var b strings.Builder
	for _, g := range []int{10, 2, 1, 100, 0} {
		for c := range 2 {
			fmt.Fprintf(&b, `{"id":"g%d-c%d","group":"g%d","metadata":{"a":%d,"b":%d}}`+"\n", g, c*9+1, g, c, g)
		}
	}
	return b.String()
}

// TestGroupsInNaturalOrder: prompts numbered without leading zeros are
// listed as a person counts (g2 before g10).
func TestGroupsInNaturalOrder(t *testing.T) {
	tab := uitest.TabOn(uitest.TextSession(t, naturalRun()), New)
	var keys []string
	for _, g := range listedGroups(tab) {
		keys = append(keys, g.Key)
	}
	if want := []string{"g0", "g1", "g2", "g10", "g100"}; !slices.Equal(keys, want) {
		t.Errorf("groups listed %v, want %v", keys, want)
	}
}

// TestGroupsReadsOnlyVisibleResponses opens a group of a lean session:
// only its first maxSharedRows completions and those on screen have their
// response read again.
func TestGroupsReadsOnlyVisibleResponses(t *testing.T) {
	// One group of more completions than are read when it opens, lean as
	// the dashboard loads files.
	var lines strings.Builder
	for i := range maxSharedRows + 64 {
		lines.WriteString(`{"id":"t` + strconv.Itoa(i) + `","batch":0,"group":"g","response":"answer ` + strconv.Itoa(i) + `\nmore","metadata":{"accuracy":` + strconv.Itoa(i%5) + `}}` + "\n")
	}
	s := uitest.FileSessionWith(t, lines.String(), setup.Config{})
	for _, tr := range s.Trajectories.All() {
		if !tr.Lean || tr.Metadata != nil || tr.Response != nil {
			t.Fatalf("%s is kept whole", tr.Where())
		}
	}
	tab := uitest.TabOn(s, New)
	uitest.PressKeys(tab, "enter")
	g := tab.(*groupsTab)
	v := uitest.Plain(tab)
	top := s.Trajectories.At(g.group.members[0])
	if !strings.Contains(v, "answer "+strings.TrimPrefix(top.ID, "t")) {
		t.Fatalf("the best completion's first line is not shown:\n%s", v)
	}
	// Those read when it opened (for the start they share) and the rows
	// on screen: the group's height under its summary, less the table's
	// header.
	if page := max(g.group.height-g.group.tableTop()-1, 1); len(g.group.completionLines) < maxSharedRows || len(g.group.completionLines) > maxSharedRows+page {
		t.Errorf("%d responses read again for %d rows on screen and %d read when the group opened", len(g.group.completionLines), page, maxSharedRows)
	}
}

// TestGroupsCountWhatHealthCounts: the status line's count of groups
// without signal is the statistics' (frac_zero_std_groups, health's
// zero_spread): the groups holding a valid trajectory without signal. a
// (1, 0) has signal; e (2, 2) has none; b, a group of one, has signal
// under verl's grpo (--group-of-one score), none under TRL's (zero); f,
// whose one trajectory is invalid, is marked "none" but counted apart,
// as the statistics count no group without a valid trajectory: 1 and 2.
func TestGroupsCountWhatHealthCounts(t *testing.T) {
	rows := []struct {
		g string
		x any
	}{{"a", 1.0}, {"a", 0.0}, {"b", 1.0}, {"e", 2.0}, {"e", 2.0}, {"f", "bad"}}
	ts := make([]scoring.Trajectory, len(rows))
	for i, r := range rows {
		ts[i] = scoring.Trajectory{ID: strconv.Itoa(i), Group: r.g, Metadata: map[string]any{"x": r.x}}
	}
	for _, c := range []struct {
		groupOfOne engine.GroupOfOne
		want       int
	}{{engine.GroupOfOneScore, 1}, {engine.GroupOfOneZero, 2}} {
		cfg := setup.Config{Method: string(engine.GRPO), GroupOfOne: string(c.groupOfOne), Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}}
		s, err := session.Open("runs.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
		if err != nil {
			t.Fatal(err)
		}
		tab := uitest.TabOn(s, New)
		tab.SetSize(120, 20)
		view := uitest.Plain(tab)
		if st := s.BatchStats(); st.ZeroStdGroups != c.want {
			t.Errorf("%s: the statistics count %d groups without signal, want %d", c.groupOfOne, st.ZeroStdGroups, c.want)
		}
		if want := fmt.Sprintf("%d without GRPO signal (zero spread) · 1 without a valid trajectory", c.want); !strings.Contains(view, want) {
			t.Errorf("%s: the tab lacks %q:\n%s", c.groupOfOne, want, view)
		}
	}
}

// TestGroupsPromptColumnGrowsIntoFreeWidth: at 200 cells, prompts of 100
// characters take the width the other columns leave, beyond the 40 the
// column is capped at when the width is short.
func TestGroupsPromptColumnGrowsIntoFreeWidth(t *testing.T) {
	var b strings.Builder
	for j := range 6 {
		prompt := fmt.Sprintf("question %d: %s end %d", j/2, strings.Repeat("w", 84), j/2)
		fmt.Fprintf(&b, `{"id":"t%d","group":"%s","metadata":{"a":%d,"b":1}}`+"\n", j, prompt, j)
	}
	tab := uitest.TabOn(uitest.TextSession(t, b.String()), New)
	for _, c := range []struct {
		width, ws int // the w shown of the prompt's 84
	}{{120, maxGroupKeyWidth - len("question 0: ") - 1}, {200, 84}} {
		tab.SetSize(c.width, 30)
		view := uitest.Plain(tab)
		var row string
		for _, l := range strings.Split(view, "\n") {
			if strings.HasPrefix(l, "question 0") {
				row = l
			}
		}
		if got := strings.Count(row, "w"); got < c.ws {
			t.Errorf("at %d cells the prompt column shows %d w, want %d at least:\n%s", c.width, got, c.ws, view)
		}
	}
}

// TestGroupsSortScrollsToTheColumn: at 60 cells, s onto a column off
// screen scrolls it into view, its arrow shown.
func TestGroupsSortScrollsToTheColumn(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	tab.SetSize(60, 30)
	g := tab.(*groupsTab)
	hidden := 0
	for range len(g.columns) - 1 {
		uitest.PressKeys(tab, "s")
		title := g.columns[g.list.SortColumn].title
		head := strings.Split(uitest.Plain(tab), "\n")[1]
		if !strings.Contains(head, title+" ▲") && !strings.Contains(head, title+" ▼") {
			t.Errorf("sorted by %q, the columns' titles do not show it: %q", title, head)
		}
		if strings.HasPrefix(g.list.Table.ScrollHint(), "←") {
			hidden++
		}
	}
	if hidden == 0 {
		t.Error("no sort column needed a scroll: the test shows nothing at 60 cells")
	}
}

// TestGroupViewScrollKeepsTheRewardWithItsBar: in a group's view at 80
// and 60 cells, → scrolls the columns after A's reward and its bar, which
// keep their title and numbers; the summary keeps the columns' hint and
// the sort, shortening the rest.
func TestGroupViewScrollKeepsTheRewardWithItsBar(t *testing.T) {
	for _, width := range []int{80, 60} {
		tab, s := uitest.SampleTab(t, New)
		tab.SetSize(width, 24)
		uitest.PressKeys(tab, "down", "enter", "right") // p01
		g := tab.(*groupsTab)
		lines := strings.Split(uitest.Plain(tab), "\n")
		summary, head, first := lines[1], lines[2], lines[3]
		want := common.FormatValue(s.Result.Rewards[g.group.members[0]])
		if !strings.Contains(head, "pareto") || !strings.Contains(first, want) || !strings.Contains(first, "│") {
			t.Errorf("at %d cells, after →, the reward lost its title or number %s beside its bar:\n%s", width, want, strings.Join(lines[:5], "\n"))
		}
		if !strings.Contains(summary, "← 1") || !strings.Contains(summary, "sorted by pareto ▼") {
			t.Errorf("at %d cells the summary lost the columns' hint or the sort: %q", width, summary)
		}
		uitest.PressKeys(tab, "left")
		if summary := strings.Split(uitest.Plain(tab), "\n")[1]; !strings.Contains(summary, "column") || !strings.Contains(summary, "→") || !strings.Contains(summary, "sorted by pareto ▼") {
			t.Errorf("at %d cells the summary lost the columns' hint or the sort: %q", width, summary)
		}
	}
}

// TestGroupViewIDs: a group's completions whose ids differ in their
// middle show distinct when cut; at 200 cells the id column grows
// before the response to show them whole; an invalid completion is
// marked in a column of its own, its id cut as the others'.
func TestGroupViewIDs(t *testing.T) {
	var b strings.Builder
	for j := range 6 {
		a := strconv.Itoa(j)
		if j == 5 {
			a = `"x"` // invalid
		}
		fmt.Fprintf(&b, `{"id":"run-2026-11-27-experiment-very-long-identifier-c%d-s00-p00-suffix-xyz","group":"p00","response":"%s","metadata":{"a":%s,"b":1}}`+"\n", j, strings.Repeat("r", 150), a)
	}
	tab := uitest.TabOn(uitest.TextSession(t, b.String()), New)
	uitest.PressKeys(tab, "enter")
	for _, width := range []int{100, 200} {
		tab.SetSize(width, 30)
		view := uitest.Plain(tab)
		ids := map[string]bool{}
		for _, l := range strings.Split(view, "\n") {
			if f := strings.Fields(l); len(f) > 2 && (strings.HasPrefix(f[1], "run-") || f[1] == "✗") {
				id := f[1]
				if id == "✗" {
					id = f[2]
				}
				ids[id] = true
				if width == 200 && len(id) != 68 {
					t.Errorf("at 200 cells an id is cut: %q", l)
				}
			}
		}
		if len(ids) != 6 {
			t.Errorf("at %d cells the 6 ids show as %d:\n%s", width, len(ids), view)
		}
	}
}

// TestGroupViewFeasibleColumn: under a constraint a group's completions
// have the Trajectories tab's feasible column: "✓", or "✗" and the
// violation, in one precision for the column.
func TestGroupViewFeasibleColumn(t *testing.T) {
	var b strings.Builder
	for j, v := range []string{"0.61", "0.9", "0.41", "0.59", "0.3"} {
		fmt.Fprintf(&b, `{"id":"c%d","group":"p0","metadata":{"a":%d,"safe":%s}}`+"\n", j, j, v)
	}
	res, err := loaders.Read(strings.NewReader(b.String()), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := setup.Config{Method: "grpo", Constraints: []string{"safe >= 0.6"},
		Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "safe", Expr: "metadata.safe"}}}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	uitest.PressKeys(tab, "enter")
	tab.SetSize(150, 20)
	view := uitest.Plain(tab)
	want := map[string]string{"c0": "✓", "c1": "✓", "c2": "✗ 0.1900", "c3": "✗ 0.0100", "c4": "✗ 0.3000"}
	header := ""
	for _, l := range strings.Split(view, "\n") {
		f := strings.Fields(l)
		if len(f) > 1 && f[1] == "id" {
			header = l
		}
		if len(f) < 2 || want[f[1]] == "" || header == "" {
			continue
		}
		k := strings.Index(header, "feasible")
		if got := strings.TrimSpace(ansi.Cut(l, ansi.StringWidth(header[:k]), ansi.StringWidth(header[:k])+8)); got != want[f[1]] {
			t.Errorf("%s: feasible %q, want %q", f[1], got, want[f[1]])
		}
		delete(want, f[1])
	}
	if len(want) > 0 {
		t.Errorf("no feasible cell of %v:\n%s", want, view)
	}
}

// TestGroupsWithOnePromptShowTheirKeys: verl's uid groups of a prompt
// drawn twice in a batch show the same prompt; their rows start with the
// opening of the uid that tells them apart, and the view of one says its
// uid. A group whose prompt is its own shows none.
func TestGroupsWithOnePromptShowTheirKeys(t *testing.T) {
	const (
		uid1 = "3f2a1c9b-0001-4000-8000-000000000001"
		uid2 = "3f2a1c9b-0002-4000-8000-000000000002"
	)
	var b strings.Builder
	for j, g := range []struct{ uid, prompt string }{{uid1, "What is 2+2?"}, {uid2, "What is 2+2?"}, {"u3", "Name a prime."}} {
		for k := range 2 {
			fmt.Fprintf(&b, `{"id":"t%d%d","group":%q,"metadata":{"input":%q,"a":%d,"b":1}}`+"\n", j, k, g.uid, g.prompt, k)
		}
	}
	res, err := loaders.Read(strings.NewReader(b.String()), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := setup.Config{Method: "grpo", PromptField: "input", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b"}}}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	view := uitest.Plain(tab)
	for _, want := range []string{"[3f2a1c9b-0001…] What is 2+2?", "[3f2a1c9b-0002…] What is 2+2?"} {
		if !strings.Contains(view, want) {
			t.Errorf("no row %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "[u3") {
		t.Errorf("the group of its own prompt shows its key:\n%s", view)
	}
	shown := map[string]bool{}
	for j := range 3 {
		uitest.PressKeys(tab, "home")
		for range j {
			uitest.PressKeys(tab, "down")
		}
		uitest.PressKeys(tab, "enter")
		view = uitest.Plain(tab)
		for _, uid := range []string{uid1, uid2, "u3"} {
			if strings.Contains(view, "group "+uid) {
				shown[uid] = true
			}
		}
		uitest.PressKeys(tab, "esc")
	}
	if !shown[uid1] || !shown[uid2] || shown["u3"] {
		t.Errorf("the open groups say the uids %v, want %s and %s", shown, uid1, uid2)
	}
}

// decimalsOf returns how cell shows its number: its decimals, -1 in
// exponent form.
func decimalsOf(cell string) int {
	if strings.Contains(cell, "e") {
		return -1
	}
	_, fraction, _ := strings.Cut(cell, ".")
	return len(fraction)
}

// oneQuantitySession is groups a (scores -1, -1), b (0, 0.5) and c, a
// group of one (0.25), under grpo with the group of one convention
// groupOfOne.
func oneQuantitySession(t *testing.T, method engine.Method, groupOfOne engine.GroupOfOne) *session.Session {
	t.Helper()
	rows := []struct {
		g string
		x float64
	}{{"a", -1}, {"a", -1}, {"b", 0}, {"b", 0.5}, {"c", 0.25}}
	ts := make([]scoring.Trajectory, len(rows))
	for i, r := range rows {
		ts[i] = scoring.Trajectory{ID: strconv.Itoa(i), Group: r.g, Metadata: map[string]any{"x": r.x}}
	}
	cfg := setup.Config{Method: string(method), GroupOfOne: string(groupOfOne), Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}}
	s, err := session.Open("runs.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGroupsOneQuantityOneFormat: the columns of one quantity show their
// numbers in one format: the scores' mean, std, min and max (a's -1 is
// not "-1" in min beside "-1.000" in the mean), the rewards' min and max;
// the std of c, a group of one, is "-", not NaN.
func TestGroupsOneQuantityOneFormat(t *testing.T) {
	tab := uitest.TabOn(oneQuantitySession(t, engine.GRPO, engine.GroupOfOneScore), New)
	g := tab.(*groupsTab)
	quantities := map[string][]string{
		"score":  {"score mean", "std1", "min", "max"},
		"reward": {"reward min", "reward max"},
	}
	for q, titles := range quantities {
		shown := map[int][]string{} // decimals: cells
		for _, title := range titles {
			c := slices.IndexFunc(g.columns, func(c groupColumn) bool { return c.title == title })
			if c < 0 {
				t.Fatalf("no column %s", title)
			}
			for j := range g.rows {
				cell := g.measured.cols[c].Cell(j)
				if title == "std1" && g.summaries[g.rows[j]].Key == "c" {
					if cell != undefinedScore {
						t.Errorf("the std of c, a group of one, shows %q, want %q", cell, undefinedScore)
					}
					continue
				}
				shown[decimalsOf(cell)] = append(shown[decimalsOf(cell)], title+" "+cell)
			}
		}
		if len(shown) != 1 {
			t.Errorf("the %s columns show several formats: %v\n%s", q, shown, uitest.Plain(tab))
		}
	}
	if v := uitest.Plain(tab); strings.Contains(v, "NaN") {
		t.Errorf("the table shows NaN:\n%s", v)
	}
}

// TestGroupsStdOfOneSaysWhy: c's view, a group of one, shows its std as
// "–" and says why (the std of one score is undefined) and what the
// method made of the group: grpo under each convention for a group of
// one, and the methods whose trainer fixes it as the methods table says
// (gpg and rpp-baseline take its mean as 0: the group has signal, no zero
// spread; rloo-whitened and grpo-passk give it 0); in fewer words on a
// narrower line (120 cells).
func TestGroupsStdOfOneSaysWhy(t *testing.T) {
	for _, c := range []struct {
		method     engine.Method
		groupOfOne engine.GroupOfOne
		width      int
		want       string
	}{
		{engine.GRPO, engine.GroupOfOneScore, 200, "std1 – · (the std of one score is undefined: grpo takes mean 0 and std 1, s / (1 + ε), --group-of-one score, verl's)"},
		{engine.GRPO, engine.GroupOfOneZero, 200, "std1 – · (the std of one score is undefined: grpo rewards it 0, --group-of-one zero, TRL's)"},
		{engine.GRPO, engine.GroupOfOneScore, 120, "std1 – · (undefined for one score: grpo takes 1)"},
		{engine.GRPO, engine.GroupOfOneZero, 120, "std1 – · (undefined for one score: grpo gives 0)"},
		{engine.GPG, "", 200, "(the std of one score is undefined: gpg takes mean 0, the group has signal, as in verl gpg)"},
		{engine.GPG, "", 120, "(undefined for one score: gpg takes mean 0)"},
		{engine.RPPBaseline, "", 240, "(the std of one score is undefined: rpp-baseline takes mean 0, the group has signal, as in verl reinforce_plus_plus_baseline)"},
		{engine.RPPBaseline, "", 140, "(undefined for one score: rpp-baseline takes mean 0)"},
		{engine.RLOOWhitened, "", 260, "(the std of one score is undefined: rloo-whitened rewards it 0, as in TRL RLOOTrainer, normalize_advantages=True)"},
		{engine.GRPOPassK, "", 120, "(undefined for one score: grpo-passk gives 0)"},
	} {
		tab := uitest.TabOn(oneQuantitySession(t, c.method, c.groupOfOne), New)
		tab.SetSize(c.width, 20)
		uitest.PressKeys(tab, "end", "enter") // c, last by key
		v := uitest.Plain(tab)
		if !strings.Contains(v, c.want) {
			t.Errorf("%s %s at %d cells: c's view lacks %q:\n%s", c.method, c.groupOfOne, c.width, c.want, v)
		}
		if o := tab.(*groupsTab).common.Session.Result.Options; o.ScoresGroupOfOne() && strings.Contains(v, "zero spread") {
			t.Errorf("%s: c's view says zero spread, but a group of one has signal:\n%s", c.method, v)
		}
	}
}

// TestGroupViewShowsWhatTellsCompletionsApart: completions sharing a long
// start show the ends that tell them apart (their answers), and prompts
// sharing a chat template's start and end show the question between,
// their line breaks as the completions' "↵", at 80x24 and 140x45.
func TestGroupViewShowsWhatTellsCompletionsApart(t *testing.T) {
	var b strings.Builder
	for _, q := range []string{"What is 17 * 23?", "Compute 2^12."} {
		prompt := "<|im_start|>system\nPlease reason step by step, and put your final answer within \\boxed{}.<|im_end|>\n<|im_start|>user\n" + q + "<|im_end|>\n<|im_start|>assistant\n"
		for j, answer := range []string{"391", "4096", "7"} {
			fmt.Fprintf(&b, `{"id":"%s-%d","group":%q,"response":"Let me think.\nFirst, I'll set it up, carefully.\nSo the answer is \\boxed{%s}","metadata":{"a":%d,"b":1}}`+"\n", q[:4], j, prompt, answer, j)
		}
	}
	tab := uitest.TabOn(uitest.TextSession(t, b.String()), New)
	for _, size := range [][2]int{{80, 24}, {140, 45}} {
		tab.SetSize(size[0], size[1])
		uitest.PressKeys(tab, "esc")
		list := uitest.Plain(tab)
		for _, label := range []string{"…What is 17 * 23?…", "…Compute 2^12.…"} {
			if !strings.Contains(list, label) {
				t.Errorf("at %dx%d the groups do not show %q:\n%s", size[0], size[1], label, list)
			}
		}
		uitest.PressKeys(tab, "enter")
		view := uitest.Plain(tab)
		for _, answer := range []string{`\boxed{391}`, `\boxed{4096}`, `\boxed{7}`} {
			if !strings.Contains(view, answer) {
				t.Errorf("at %dx%d the group does not show %q:\n%s", size[0], size[1], answer, view)
			}
		}
		if strings.Contains(view+list, `\n`) {
			t.Errorf(`at %dx%d a line break shows as \n:%s%s`, size[0], size[1], list, view)
		}
	}
}

// TestGroupViewResponseGrowsWhenScrolled: scrolled sideways, the response
// column takes the width the columns scrolled off leave.
func TestGroupViewResponseGrowsWhenScrolled(t *testing.T) {
	var b strings.Builder
	for j := range 3 {
		fmt.Fprintf(&b, `{"id":"c%d","group":"g","response":"%s %d","metadata":{"accuracy":%d,"safety":%d,"length":%d}}`+"\n", j, strings.Repeat("word ", 30), j, j, j, j)
	}
	tab := uitest.TabOn(uitest.TextSession(t, b.String()), New)
	tab.SetSize(80, 24)
	uitest.PressKeys(tab, "enter")
	width := func() int {
		for _, l := range strings.Split(uitest.Plain(tab), "\n") {
			if i := strings.Index(l, "word"); i >= 0 {
				return ansi.StringWidth(strings.TrimRight(l, " ")) - ansi.StringWidth(l[:i])
			}
		}
		t.Fatalf("no response shown:\n%s", uitest.Plain(tab))
		return 0
	}
	before := width()
	uitest.PressKeys(tab, "right", "right")
	if after := width(); after <= before {
		t.Errorf("scrolled, the response stays %d cells wide (%d before):\n%s", after, before, uitest.Plain(tab))
	}
}

// TestGroupsScrollHintKeptWhole: where the line over the groups is too
// long, its start is cut, not the hint of the columns off screen, at
// 80x24; at 200x60 every column shows and there is no hint.
func TestGroupsScrollHintKeptWhole(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		tab.SetSize(size[0], size[1])
		status := strings.SplitN(uitest.Plain(tab), "\n", 2)[0]
		hint := regexp.MustCompile(` · \d+ columns? →$`).MatchString(strings.TrimRight(status, " "))
		if hint != (size[0] == 80) {
			t.Errorf("at %dx%d the line over the groups: %q", size[0], size[1], status)
		}
	}
}

// TestGroupViewStdOfTheResult: while a recompute for another std is under
// way (the session's options changed, not its result), the group's view
// shows the std of the result it shows, as its note does.
func TestGroupViewStdOfTheResult(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	uitest.PressKeys(tab, "down", "enter")
	shown := diagnose.StdName(s.Result.Options.Std)
	s.Options.Std = engine.StdPopulation
	if s.Result.Options.Std == engine.StdPopulation {
		s.Options.Std = engine.StdSample
	}
	if v := uitest.Plain(tab); !strings.Contains(v, " "+shown+" ") {
		t.Errorf("the result's std is %s, the view:\n%s", shown, v)
	}
}

// TestGroupReadOffTheEventLoop: opening a group of a lean session reads
// none of its completions on the event loop: its rows say "reading…"
// until the tab's job (common.Worker) lands with them; the read of a
// group left for another before it landed is dropped.
func TestGroupReadOffTheEventLoop(t *testing.T) {
	var lines strings.Builder
	for g, start := range []string{"alpha", "beta"} {
		for j := range 4 {
			fmt.Fprintf(&lines, `{"id":"%s%d","batch":0,"group":"g%d","response":"%s: the reasoning, then answer %d","metadata":{"accuracy":%d}}`+"\n", start, j, g, start, j, j)
		}
	}
	s := uitest.FileSessionWith(t, lines.String(), setup.Config{})
	tab := uitest.TabOn(s, New)
	g := tab.(*groupsTab)
	tab.Update(uitest.KeyPress("enter")) // g0, alpha's
	if v := uitest.Plain(tab); len(g.group.completionLines) != 0 || !strings.Contains(v, readingText) || strings.Contains(v, "alpha:") {
		t.Fatalf("opening the group read %d completions on the event loop:\n%s", len(g.group.completionLines), v)
	}
	alpha := g.Job()
	if alpha == nil {
		t.Fatal("opening the group hands out no read")
	}
	tab.Update(uitest.KeyPress("esc"))
	tab.Update(uitest.KeyPress("down"))
	tab.Update(uitest.KeyPress("enter")) // g1, beta's
	beta := g.Job()
	tab.Update(alpha())
	if v := uitest.Plain(tab); strings.Contains(v, "alpha:") || !strings.Contains(v, readingText) {
		t.Errorf("the first group's read, landed once the second was open, is shown:\n%s", v)
	}
	tab.Update(beta())
	v := uitest.Plain(tab)
	for j := range 4 {
		if want := fmt.Sprintf("beta: the reasoning, then answer %d", j); !strings.Contains(v, want) {
			t.Errorf("the second group does not show %q once read:\n%s", want, v)
		}
	}
	if strings.Contains(v, readingText) || strings.Contains(v, "alpha:") {
		t.Errorf("the second group, read, still says %q or shows the first's:\n%s", readingText, v)
	}
}

// TestGroupRowsPastTheFirstReadOffTheEventLoop: the rows of a large
// group past the completions read when it opened are read off the event
// loop too, once on screen: they say "reading…" until the tab's job lands
// with them, and are asked for once.
func TestGroupRowsPastTheFirstReadOffTheEventLoop(t *testing.T) {
	// The first maxSharedRows completions are right, the others, past
	// the first read, wrong: they sort last.
	var lines strings.Builder
	last := maxSharedRows + 63
	for i := range last + 1 {
		fmt.Fprintf(&lines, `{"id":"t%d","batch":0,"group":"g","response":"answer %d","metadata":{"accuracy":%d}}`+"\n", i, i, boolInt(i < maxSharedRows))
	}
	s := uitest.FileSessionWith(t, lines.String(), setup.Config{})
	tab := uitest.TabOn(s, New)
	g := tab.(*groupsTab)
	tab.Update(uitest.KeyPress("enter"))
	tab.Update(g.Job()())
	if job := g.Job(); job != nil {
		t.Errorf("the rows on screen, read when the group opened, are read again")
	}
	tab.Update(uitest.KeyPress("end"))
	want := fmt.Sprintf("answer %d", last)
	if v := uitest.Plain(tab); strings.Contains(v, want) || !strings.Contains(v, readingText) {
		t.Fatalf("the last rows were read on the event loop:\n%s", v)
	}
	job := g.Job()
	if job == nil {
		t.Fatal("the rows on screen past the first read are not read")
	}
	if again := g.Job(); again != nil {
		t.Error("the rows being read are asked for again")
	}
	tab.Update(job())
	if v := uitest.Plain(tab); !strings.Contains(v, want) || strings.Contains(v, readingText) {
		t.Errorf("the last rows, read, do not show:\n%s", v)
	}
}

// TestGroupCompletionReadOffTheEventLoop: a completion of a lean session
// opened is read again from its file off the event loop: its view says it
// is being read until the tab's job lands with its response; the read of
// one left for another before it landed is dropped.
func TestGroupCompletionReadOffTheEventLoop(t *testing.T) {
	var lines strings.Builder
	for j := range 2 {
		fmt.Fprintf(&lines, `{"id":"c%d","batch":0,"group":"g","response":"the whole answer %d","metadata":{"accuracy":%d}}`+"\n", j, j, 1-j)
	}
	s := uitest.FileSessionWith(t, lines.String(), setup.Config{})
	tab := uitest.TabOn(s, New)
	g := tab.(*groupsTab)
	uitest.PressKeys(tab, "enter")       // the group, its lines read
	tab.Update(uitest.KeyPress("enter")) // c0, the best
	if v := uitest.Plain(tab); strings.Contains(v, "the whole answer") || !strings.Contains(v, trajectory.ReadingText) {
		t.Fatalf("c0 was read on the event loop:\n%s", v)
	}
	first := g.Job()
	if first == nil {
		t.Fatal("opening c0 hands out no read")
	}
	tab.Update(uitest.KeyPress("esc"))
	tab.Update(uitest.KeyPress("down"))
	tab.Update(uitest.KeyPress("enter")) // c1
	second := g.Job()
	tab.Update(first())
	if v := uitest.Plain(tab); strings.Contains(v, "the whole answer") || !strings.Contains(v, trajectory.ReadingText) {
		t.Errorf("c0's read, landed once c1 was open, is shown:\n%s", v)
	}
	tab.Update(second())
	if v := uitest.Plain(tab); !strings.Contains(v, "the whole answer 1") || strings.Contains(v, trajectory.ReadingText) {
		t.Errorf("c1, read, does not show its response:\n%s", v)
	}
}

// TestGroupsFloat32Ties: under --score-precision float32 (the TRL layout's)
// a group whose rows (0.5, 0.2) and (0.7, 0) sum to the same float32 0.7,
// as in TRL's nansum, is marked none, its rewards 0, beside a group
// with signal.
func TestGroupsFloat32Ties(t *testing.T) {
	rows := []struct {
		g    string
		a, b float64
	}{{"tied", 0.5, 0.2}, {"tied", 0.7, 0}, {"tied", 0.5, 0.2}, {"tied", 0.7, 0}, {"spread", 1, 0.2}, {"spread", 0, 0}}
	ts := make([]scoring.Trajectory, len(rows))
	for i, r := range rows {
		ts[i] = scoring.Trajectory{ID: strconv.Itoa(i), Group: r.g, Metadata: map[string]any{"a": float64(float32(r.a)), "b": float64(float32(r.b))}}
	}
	one := 1.0
	cfg := setup.Config{Method: string(engine.GRPO), ScorePrecision: string(engine.ScoreFloat32),
		Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a", Weight: &one}, {Name: "b", Expr: "metadata.b", Weight: &one}}}
	s, err := session.Open("runs.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	view := uitest.Plain(uitest.TabOn(s, New))
	found := 0
	for _, l := range strings.Split(view, "\n") {
		tied, spread := strings.HasPrefix(l, "tied "), strings.HasPrefix(l, "spread ")
		if tied || spread {
			found++
		}
		if tied && !strings.Contains(l, " none ") || spread && strings.Contains(l, " none ") {
			t.Errorf("row %q: the tied group (and it alone) is marked none", l)
		}
	}
	if found != 2 {
		t.Fatalf("%d of the 2 groups shown:\n%s", found, view)
	}
	for i, r := range s.Result.Rewards[:4] {
		if r != 0 {
			t.Errorf("trajectory %d of the tied group: reward %v, want 0", i, r)
		}
	}
}

// TestGroupsDroppedApartFromEmpty: with the group filter on (objective
// a), the groups it dropped (x, z: zero spread) are said dropped, not
// without a valid trajectory as the group of no valid a (w) is, at 60 to
// 200 columns.
func TestGroupsDroppedApartFromEmpty(t *testing.T) {
	s := uitest.FilteredSession(t, uitest.DroppedAndEmptyRun)
	tab := uitest.TabOn(s, New)
	if v := uitest.Plain(tab); !strings.Contains(v, "1 without a valid trajectory · 2 dropped") {
		t.Errorf("the status does not say 1 without a valid trajectory, 2 dropped:\n%s", v)
	}
	for _, width := range []int{60, 80, 120, 200} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tab.SetSize(width, 8)
			golden.RequireEqual(t, uitest.Plain(tab))
		})
	}
}

// TestGroupsSignalIsScoreSpreadUnderPassK: the signal column is GRPO's,
// the scores' spread, under every method (CONTRACT, Statistics): under
// grpo-passk a group whose two best scores tie, rewarded 0 throughout,
// is not marked, its reward columns saying 0 and 0; a group of equal
// scores is.
func TestGroupsSignalIsScoreSpreadUnderPassK(t *testing.T) {
	text := `{"id":"t1","group":"tied","metadata":{"a":1}}
{"id":"t2","group":"tied","metadata":{"a":1}}
{"id":"t3","group":"tied","metadata":{"a":0}}
{"id":"e1","group":"equal","metadata":{"a":1}}
{"id":"e2","group":"equal","metadata":{"a":1}}
`
	s := uitest.TextSessionWith(t, text, setup.Config{Method: string(engine.GRPOPassK), Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}}})
	v := uitest.Plain(uitest.TabOn(s, New))
	rows := map[string][]string{}
	for _, l := range strings.Split(v, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			rows[f[0]] = f
		}
	}
	zero := func(f string) bool { x, err := strconv.ParseFloat(f, 64); return err == nil && x == 0 }
	if r := rows["tied"]; len(r) < 3 || slices.Contains(r, "none") || !zero(r[len(r)-1]) || !zero(r[len(r)-2]) {
		t.Errorf("the group of tied best is marked, or its rewards are not 0 and 0: %q", r)
	}
	if r := rows["equal"]; !slices.Contains(r, "none") {
		t.Errorf("the group of equal scores is not marked: %q", r)
	}
	if !strings.Contains(v, "1 without GRPO signal (zero spread)") {
		t.Errorf("the status line does not count the one group of zero spread:\n%s", v)
	}
}
