package trajectories

import (
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// constrainedSession is the sample with --constraint 'safety >= 0.8'.
func constrainedSession(t *testing.T) *session.Session {
	t.Helper()
	return uitest.SampleSessionWith(t, func(cfg *engine.Config) { cfg.Constraints = []string{"safety >= 0.8"} })
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
// after crowding says what the engine says of each trajectory ("yes" or
// "no, violation X"), sorts by the violation; without, there is none.
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
	for _, i := range s.CurrentBatch().Members {
		want := "yes"
		if ev.Feasible(i) {
			feasible++
		} else {
			infeasible++
			want = "no, violation " + common.FormatValue(ev.ViolationOf(i))
		}
		if got := tt.rows.columns[feasibleColumn].text(i); got != want {
			t.Errorf("trajectory %d: feasible %q, want %q", i, got, want)
		}
	}
	if feasible == 0 || infeasible == 0 {
		t.Fatalf("batch 30 has %d feasible and %d infeasible trajectories: the test needs both", feasible, infeasible)
	}
	view := uitest.Plain(tab)
	if !strings.Contains(view, "feasible") || !strings.Contains(view, "no, violation ") {
		t.Errorf("the table does not show the feasible column:\n%s", view)
	}

	// s from the reward: B's, the rank, the crowding, then feasible (the
	// order stays descending); S turns it.
	uitest.PressKeys(tab, "s", "s", "s", "s")
	if view := uitest.Plain(tab); !strings.Contains(view, "sorted by feasible ▼") {
		t.Fatalf("s does not reach the feasible column:\n%s", view)
	}
	violations := func() []float64 {
		var v []float64
		for _, i := range tt.rows.rows {
			v = append(v, ev.ViolationOf(i))
		}
		return v
	}
	if v := violations(); !slices.IsSortedFunc(v, func(a, b float64) int { return compareFloats(b, a) }) || v[0] == 0 {
		t.Errorf("sorted by feasible ▼, the violations are %v", v)
	}
	uitest.PressKeys(tab, "S")
	if v := violations(); !slices.IsSorted(v) || v[0] != 0 {
		t.Errorf("sorted by feasible ▲, the violations are %v", v)
	}
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
	other := uitest.SampleSessionWith(t, func(cfg *engine.Config) { cfg.Constraints = []string{"safety >= 0.9"} })
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
