package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestGroupRunsGroupsByPosition: with GroupRuns, a group is a run of
// consecutive rows of one batch and group value, cut every GroupRuns rows,
// as TRL groups a generation batch (num_generations rows after another): a
// prompt drawn twice in a row, or again later in the batch, is two groups,
// where grouping by value merged them. Rows of another batch between two
// of a run do not end it. Evaluating at once, appending row by row and
// appending to a Filter give the same groups.
func TestGroupRunsGroupsByPosition(t *testing.T) {
	// Step 1: A A A A B B A A, step 2's rows interleaved after the first two.
	var ts []scoring.Trajectory
	for i, g := range []string{"A", "A", "A", "A", "B", "B", "A", "A"} {
		ts = append(ts, enginetest.Traj(1, g, "x", float64(i)))
		if i == 1 {
			ts = append(ts, enginetest.Traj(2, "A", "x", 1.0), enginetest.Traj(2, "A", "x", 2.0))
		}
	}
	groupsOf := func(ev *Evaluation) string {
		var out []string
		for _, b := range ev.Partition(ScopeGroup) {
			for _, g := range b.Groups {
				out = append(out, fmt.Sprintf("%d:%s%v", b.Step, g.Key, g.Members))
			}
		}
		return strings.Join(out, " ")
	}
	const want = "1:A[0 1] 1:A[4 5] 1:B[6 7] 1:A[8 9] 2:A[2 3]"
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, GroupRuns: 2})
	if err != nil {
		t.Fatal(err)
	}
	e := c.NewEvaluator()
	e.Add(ts)
	if got := groupsOf(e.Evaluation()); got != want {
		t.Errorf("evaluated at once: %s, want %s", got, want)
	}
	e = c.NewEvaluator()
	e.Add(ts[:3])
	ev := e.Evaluation()
	for i := 3; i < len(ts); i++ {
		ev = ev.Append(c.Scorer, ts[i:i+1])
	}
	if got := groupsOf(ev); got != want {
		t.Errorf("appended row by row: %s, want %s", got, want)
	}
	e = c.NewEvaluator()
	e.Add(ts[:5])
	kept := e.Evaluation().Filter(func(int) bool { return true }).Append(c.Scorer, ts[5:])
	if got := groupsOf(kept); got != want {
		t.Errorf("appended to a Filter: %s, want %s", got, want)
	}
	// Without GroupRuns, groups by value.
	c.GroupRuns = 0
	e = c.NewEvaluator()
	e.Add(ts)
	var sizes []int
	for _, g := range e.Evaluation().Partition(ScopeGroup)[0].Groups {
		sizes = append(sizes, len(g.Members))
	}
	if !slices.Equal(sizes, []int{6, 2}) {
		t.Errorf("by value: group sizes %v, want [6 2]", sizes)
	}
}

// TestGroupRunsCutFirstRunFromItsEnd: a batch's first run, once another
// run of the batch ends it, is cut from its end, its first group the
// rest, as TRL's table keeps only the last rows of its deques (a group cut
// at the table's start, the next of the same prompt whole); the batch's
// other runs are cut from their start, and so is a first run that ends
// the batch's rows (a cap on the rows read, a step still written, cuts
// its end). Evaluating at once, in chunks, appending row by row and
// appending to a Filter give the same groups, and an evaluation appended
// to keeps its own.
func TestGroupRunsCutFirstRunFromItsEnd(t *testing.T) {
	// Step 1: A×5 B×3 A×4; step 2, one run of A×4, after step 1's first
	// row.
	var ts []scoring.Trajectory
	for i, g := range strings.Split("AAAAABBBAAAA", "") {
		ts = append(ts, enginetest.Traj(1, g, "x", float64(i)))
		if i == 0 {
			for j := range 4 {
				ts = append(ts, enginetest.Traj(2, "A", "x", float64(j)))
			}
		}
	}
	groupsOf := func(ev *Evaluation) string {
		var out []string
		for _, b := range ev.Partition(ScopeGroup) {
			for _, g := range b.Groups {
				out = append(out, fmt.Sprintf("%d:%s%v", b.Step, g.Key, g.Members))
			}
		}
		return strings.Join(out, " ")
	}
	const want = "1:A[0 5] 1:A[6 7 8] 1:B[9 10 11] 1:A[12 13 14] 1:A[15] 2:A[1 2 3] 2:A[4]"
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, GroupRuns: 3})
	if err != nil {
		t.Fatal(err)
	}
	e := c.NewEvaluator()
	e.Add(ts)
	if got := groupsOf(e.Evaluation()); got != want {
		t.Errorf("evaluated at once: %s, want %s", got, want)
	}
	e = c.NewEvaluator()
	for i := 0; i < len(ts); i += 3 {
		e.Add(ts[i:min(i+3, len(ts))])
	}
	if got := groupsOf(e.Evaluation()); got != want {
		t.Errorf("evaluated in chunks of 3: %s, want %s", got, want)
	}
	e = c.NewEvaluator()
	e.Add(ts[:2])
	evs := []*Evaluation{e.Evaluation()}
	made := []string{groupsOf(evs[0])}
	for i := 2; i < len(ts); i++ {
		evs = append(evs, evs[len(evs)-1].Append(c.Scorer, ts[i:i+1]))
		made = append(made, groupsOf(evs[len(evs)-1]))
	}
	if got := made[len(made)-1]; got != want {
		t.Errorf("appended row by row: %s, want %s", got, want)
	}
	for k, ev := range evs {
		if got := groupsOf(ev); got != made[k] {
			t.Errorf("evaluation %d, appended to: %s, was %s", k, got, made[k])
		}
	}
	e = c.NewEvaluator()
	e.Add(ts[:7])
	kept := e.Evaluation().Filter(func(int) bool { return true }).Append(c.Scorer, ts[7:])
	if got := groupsOf(kept); got != want {
		t.Errorf("appended to a Filter: %s, want %s", got, want)
	}
}
