package output

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// partsResult returns the rewards of n trajectories in groups of 7, some
// invalid, some with IDs and groups that need escaping, and their IDs.
func partsResult(t *testing.T, n int) ([][]byte, *engine.Result) {
	t.Helper()
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{
		{Name: "acc", Expr: "metadata.acc"}, {Name: `len"gth`, Expr: "metadata.len", Goal: "min"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 2))
	ts := make([]scoring.Trajectory, n)
	ids := make([][]byte, n)
	for i := range ts {
		ts[i] = scoring.Trajectory{
			ID: fmt.Sprintf("t<%d>", i), Batch: int64(i / 50), Group: fmt.Sprintf("g\t%d", i/7),
			Metadata: map[string]any{"acc": rng.Float64(), "len": float64(rng.IntN(100))},
		}
		switch rng.IntN(20) {
		case 0:
			delete(ts[i].Metadata, "acc")
		case 1:
			ts[i].Metadata["len"] = math.Inf(1)
		}
		ids[i] = []byte(ts[i].ID)
	}
	return ids, c.Compute(ts, engine.Pareto)
}

// TestRecordParts checks that the records put together from their parts
// are AppendRewardJSON's, whether the parts were formatted in the
// background, in part (stopped at once, or past a small budget) or not
// at all.
func TestRecordParts(t *testing.T) {
	const n = 1000
	ids, res := partsResult(t, n)
	id := func(i int) []byte { return ids[i] }
	for _, c := range []struct {
		name          string
		chunk, budget int
		stopAtOnce    bool
	}{
		{"whole", 64, partsBudget, false},
		{"one chunk", 2 * n, partsBudget, false},
		{"chunks of one", 1, partsBudget, false},
		{"past a budget", 10, 3000, false},
		{"stopped at once", 7, partsBudget, true},
	} {
		p := startRecordParts(res.Evaluation, id, c.chunk, c.budget)
		if !c.stopAtOnce {
			// Wait for the first chunk, or for all when the budget
			// allows them all.
			for k := range p.parts {
				if k == 0 || c.budget == partsBudget {
					<-p.parts[k].done
				}
			}
		}
		p.Stop()
		if c.budget < partsBudget && (p.next == 0 || p.next == len(p.parts)) {
			t.Errorf("%s: %d of %d chunks formatted in the background, want some", c.name, p.next, len(p.parts))
		}
		// Ranges of records, within a chunk or across several, in any
		// order.
		rng := rand.New(rand.NewPCG(uint64(c.chunk), 1))
		for range 200 {
			lo := rng.IntN(n)
			hi := min(lo+rng.IntN(3*c.chunk+2), n)
			want := []byte("x")
			for i := lo; i < hi; i++ {
				want = append(AppendRewardJSON(want, ids[i], res, i), ",\n"...)
			}
			if got := p.AppendRecords([]byte("x"), res, lo, hi, ",\n"); string(got) != string(want) {
				t.Fatalf("%s: records %d to %d\n got %s\nwant %s", c.name, lo, hi, got, want)
			}
		}
	}
}
