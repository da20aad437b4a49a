package engine

import (
	"github.com/rewardlens/rewardlens/engine/setup"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestBatchIndex: a ranking's batch of a step is found at its place in
// the ascending step order, whatever order the rows came in; a step
// without a batch is not found, and its index is where that batch would
// go (before the first, between two, past the last).
func TestBatchIndex(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}})
	if err != nil {
		t.Fatal(err)
	}
	var ts []scoring.Trajectory
	for _, step := range []int64{7, -2, 3, 7, 3} {
		ts = append(ts, enginetest.Traj(step, "g", "x", 1.0))
	}
	r := Evaluate(c.Scorer, ts).Ranking(ScopeGroup)
	for _, tc := range []struct {
		step  int64
		index int
		found bool
	}{
		{-2, 0, true}, {3, 1, true}, {7, 2, true},
		{-5, 0, false}, {0, 1, false}, {5, 2, false}, {8, 3, false},
	} {
		i, found := r.BatchIndex(tc.step)
		if i != tc.index || found != tc.found {
			t.Errorf("BatchIndex(%d) = %d, %v; want %d, %v", tc.step, i, found, tc.index, tc.found)
		}
		if found && r.Batches[i].Step != tc.step {
			t.Errorf("BatchIndex(%d) = %d, the batch of step %d", tc.step, i, r.Batches[i].Step)
		}
	}
	if i, found := (&Ranking{}).BatchIndex(0); i != 0 || found {
		t.Errorf("BatchIndex of a ranking without batches = %d, %v; want 0, false", i, found)
	}
}
