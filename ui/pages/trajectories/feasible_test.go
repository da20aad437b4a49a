package trajectories

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// constrainedSession is the sample with --constraint 'safety >= 0.8'.
func constrainedSession(t *testing.T) *session.Session {
	t.Helper()
	return uitest.SampleSessionWith(t, func(cfg *setup.Config) { cfg.Constraints = []string{"safety >= 0.8"} })
}

// columnTitles returns the titles of the tab's columns.
func columnTitles(tab *trajectoriesTab) []string {
	var titles []string
	for _, c := range tab.rows.columns {
		titles = append(titles, c.title)
	}
	return titles
}

// TestTrajectoriesFeasibleColumn: with constraints, a feasible column
// after crowding says what the engine says of each trajectory ("✓" or
// "✗ X", X the violation in one precision for the column, "-" for an
// invalid one), sorts by feasibility then
// violation (engine.Evaluation.FeasibilityKeys: the invalid last); without,
// there is none.
func TestTrajectoriesFeasibleColumn(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	if titles := columnTitles(tab.(*trajectoriesTab)); slices.Contains(titles, "feasible") {
		t.Errorf("without constraints the columns are %v", titles)
	}

	s := constrainedSession(t)
	tab = uitest.TabOn(s, New)
	uitest.ShowBatch(tab, s, 30) // the hacked prompts' safety has fallen
	tt := tab.(*trajectoriesTab)
	if titles := columnTitles(tt); len(titles) <= feasibleColumn || titles[feasibleColumn] != "feasible" {
		t.Fatalf("with a constraint the columns are %v, want feasible after crowding", titles)
	}
	ev := s.Result.Evaluation
	feasible, infeasible := 0, 0
	cells := tt.rows.dataColumns(s)[feasibleColumn]
	decimals := map[int]bool{} // of the violations shown: one precision
	for j := range tt.rows.len() {
		i, got := tt.rows.row(j), cells.Cell(j)
		switch {
		case !ev.Valid[i]:
			if got != "-" {
				t.Errorf("invalid trajectory %d: feasible %q, want -", i, got)
			}
		case ev.Feasible(i):
			feasible++
			if got != "✓" {
				t.Errorf("feasible trajectory %d: feasible %q, want ✓", i, got)
			}
		default:
			infeasible++
			number, ok := strings.CutPrefix(got, "✗ ")
			x, err := strconv.ParseFloat(number, 64)
			_, fraction, _ := strings.Cut(number, ".")
			decimals[len(fraction)] = true
			if !ok || err != nil || math.Abs(x-ev.ViolationOf(i)) > math.Pow(10, -float64(len(fraction)))/2 {
				t.Errorf("trajectory %d: feasible %q, want ✗ and its violation %v", i, got, ev.ViolationOf(i))
			}
		}
	}
	if len(decimals) != 1 {
		t.Errorf("the violations show with %v decimals: want one precision for the column", slices.Collect(maps.Keys(decimals)))
	}
	if feasible == 0 || infeasible == 0 {
		t.Fatalf("batch 30 has %d feasible and %d infeasible trajectories: the test needs both", feasible, infeasible)
	}
	// s from the reward: B's, the rank, the crowding, then feasible (the
	// order stays descending); S turns it.
	uitest.PressKeys(tab, "s", "s", "s", "s")
	if view := uitest.Plain(tab); !strings.Contains(view, "sorted by feasible ▼") {
		t.Fatalf("s does not reach the feasible column:\n%s", view)
	}
	checkFeasibilityOrder(t, tt, ev, true)
	uitest.PressKeys(tab, "S")
	checkFeasibilityOrder(t, tt, ev, false)
}

// checkFeasibilityOrder fails t unless the tab's rows are by feasibility
// then violation, the invalid where a NaN score sorts: descending (the
// default), the infeasible by violation, then the feasible, then the
// invalid; ascending the reverse.
func checkFeasibilityOrder(t *testing.T, tt *trajectoriesTab, ev *engine.Evaluation, descending bool) {
	t.Helper()
	key := func(i int) float64 {
		switch {
		case !ev.Valid[i]:
			return math.Inf(-1) // first ascending, as floatorder.Key puts NaN
		case ev.Feasible(i):
			return -1
		}
		return ev.ViolationOf(i)
	}
	var keys []float64
	for _, i := range tt.rows.rows {
		keys = append(keys, key(i))
	}
	if descending {
		slices.Reverse(keys)
	}
	if !slices.IsSorted(keys) {
		t.Errorf("sorted by feasible (descending %v), the keys are %v", descending, keys)
	}
	if last := tt.rows.rows[len(tt.rows.rows)-1]; descending && ev.Valid[last] && slices.ContainsFunc(tt.rows.rows, func(i int) bool { return !ev.Valid[i] }) {
		t.Errorf("sorted by feasible ▼ (the default), the last row is valid: the invalid go last, as by score")
	}
}

// TestTrajectoriesFeasibleStrictConstraint: under a strict comparison a
// trajectory at equality is infeasible with violation 0: sorted by
// feasible, every feasible one still comes before it.
func TestTrajectoriesFeasibleStrictConstraint(t *testing.T) {
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) { cfg.Constraints = []string{"accuracy > 0"} })
	tab := uitest.TabOn(s, New)
	tt := tab.(*trajectoriesTab)
	ev := s.Result.Evaluation
	zero := slices.IndexFunc(s.CurrentBatch().Members, func(i int) bool { return ev.Valid[i] && !ev.Feasible(i) && ev.ViolationOf(i) == 0 })
	if zero < 0 {
		t.Fatal("no infeasible trajectory of violation 0: the test shows nothing")
	}
	uitest.PressKeys(tab, "s", "s", "s", "s", "S")
	checkFeasibilityOrder(t, tt, ev, false)
}

// TestTrajectoriesSortStaysOnItsObjective: the feasible column coming or
// going with the constraints leaves the sort on the objective it was on.
func TestTrajectoriesSortStaysOnItsObjective(t *testing.T) {
	plain, constrained := uitest.SampleSession(t), constrainedSession(t)
	var l trajectoryList
	l.build(plain, "", sortByCrowding+2, false, false) // the second objective
	title := l.columns[l.sortColumn].title
	for _, s := range []*session.Session{constrained, plain} {
		l.build(s, "", l.sortColumn, false, false)
		if got := l.columns[l.sortColumn].title; got != title {
			t.Errorf("constraints %v: sorted by %s, want %s", s.Config.Constraints, got, title)
		}
	}
}

// TestTrajectoryDetailFeasible: an opened trajectory gives feasible and
// violation, the engine's, with constraints only.
func TestTrajectoryDetailFeasible(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	uitest.PressKeys(tab, "enter")
	if view := uitest.Plain(tab); detailValue(view, "feasible") != "" || detailValue(view, "violation") != "" {
		t.Errorf("without constraints the detail gives feasible or a violation:\n%s", view)
	}

	s := constrainedSession(t)
	tab = uitest.TabOn(s, New)
	uitest.ShowBatch(tab, s, 30)
	tt := tab.(*trajectoriesTab)
	ev := s.Result.Evaluation
	for _, wantFeasible := range []bool{true, false} {
		row := slices.IndexFunc(tt.rows.rows, func(i int) bool { return ev.Valid[i] && ev.Feasible(i) == wantFeasible })
		tt.list.Table.SetCursor(row)
		uitest.PressKeys(tab, "enter")
		i := tt.list.Opened.I
		feasible := "no"
		if wantFeasible {
			feasible = "yes"
		}
		view := uitest.Plain(tab)
		for name, want := range map[string]string{"feasible": feasible, "violation": common.FormatValue(ev.ViolationOf(i))} {
			if got := detailValue(view, name); got != want {
				t.Errorf("trajectory %d: the detail gives %s %q, want %q:\n%s", i, name, got, want, view)
			}
		}
		uitest.PressKeys(tab, "esc")
	}
}

// detailValue returns the value of the first line of view that names
// name, "" when none does.
func detailValue(view, name string) string {
	for line := range strings.Lines(view) {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			return f[1]
		}
	}
	return ""
}

// TestTrajectoriesFeasibleOrderOfOtherConstraints: rows kept in the order
// of the violations of other constraints are not said to be sorted by
// feasible.
func TestTrajectoriesFeasibleOrderOfOtherConstraints(t *testing.T) {
	s := constrainedSession(t)
	other := uitest.SampleSessionWith(t, func(cfg *setup.Config) { cfg.Constraints = []string{"safety >= 0.9"} })
	var l trajectoryList
	l.build(s, "", feasibleColumn, false, false)
	if !l.sorted(s) {
		t.Fatal("rows just sorted by feasible are not sorted")
	}
	l.build(other, "", feasibleColumn, false, true)
	if l.sorted(other) {
		t.Error("rows kept from safety >= 0.8's violations are said to be sorted by safety >= 0.9's")
	}
}

// TestTrajectoriesFeasibleColumnIsCompact: with a constraint, at 120
// cells, the feasible column takes no more than its title, and every
// objective stays on screen.
func TestTrajectoriesFeasibleColumnIsCompact(t *testing.T) {
	s := constrainedSession(t)
	tab := uitest.TabOn(s, New)
	uitest.ShowBatch(tab, s, 30)
	view := uitest.Plain(tab)
	head := strings.Split(view, "\n")[1]
	if !strings.Contains(head, "feasible  accuracy  safety  length") || strings.Contains(view, "columns →") {
		t.Errorf("at 120 cells the feasible column pushes the objectives off screen:\n%s", view)
	}
}

// TestTrajectoriesFeasibleFormatKept: the feasible column's format (of
// the violations shown) is kept as the other number columns' are, by its
// keys' array and the rows: a rebuild over the same rows of the same
// evaluation takes it, and its cells are those of the first build.
func TestTrajectoriesFeasibleFormatKept(t *testing.T) {
	s := constrainedSession(t)
	var l trajectoryList
	l.build(s, "", sortByReward, true, false)
	first := l.dataColumns(s)[feasibleColumn]
	vals, stride, offset := l.columns[feasibleColumn].values()
	key := formatKey{&vals[0], len(vals), stride, offset, &l.inOrder[0], len(l.inOrder)}
	if _, ok := l.formats[key]; !ok {
		t.Fatal("the feasible column's format is not kept")
	}
	again := l.dataColumns(s)[feasibleColumn]
	for j := range l.len() {
		if a, b := first.Cell(j), again.Cell(j); a != b {
			t.Fatalf("row %d: %q, then %q", j, a, b)
		}
	}
}
