package diagnose

import (
	"context"
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// countedContext counts the values asked of it: pause.Checkpoint asks
// its context for the gate once a checkpoint.
type countedContext struct {
	context.Context
	asked *int
}

func (c countedContext) Value(key any) any {
	*c.asked++
	return c.Context.Value(key)
}

// TestHypervolumeCheckpoints: the hypervolume of one large batch looks
// at its context's gate every hypervolumeStride members and before the
// volume, and is the one computed without checkpoints.
func TestHypervolumeCheckpoints(t *testing.T) {
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{
		{Name: "x", Expr: "metadata.x"},
		{Name: "y", Expr: "metadata.y"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	n := 3*hypervolumeStride + 5
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = enginetest.Traj(0, fmt.Sprint(i%97), "x", float64(i%1013), "y", float64(i%389))
	}
	res := c.Compute(ts, engine.Absolute)
	b := &res.Ranking.Batches[0]
	ref := orientRef(res, DefaultHVRef(res))
	want := hypervolume(context.Background(), res, b, ref)
	asked := 0
	got := hypervolume(countedContext{context.Background(), &asked}, res, b, ref)
	if got != want {
		t.Errorf("hypervolume %v with checkpoints, %v without", got, want)
	}
	if wantAsked := n/hypervolumeStride + 1; asked != wantAsked {
		t.Errorf("%d checkpoints over %d members, want %d", asked, n, wantAsked)
	}
}
