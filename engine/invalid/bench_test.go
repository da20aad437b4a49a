package invalid

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// BenchmarkInvalidReports1M is what reporting the invalid trajectories
// adds to a computation of 1M trajectories (one batch, groups of 8) in
// the worst case, every one invalid (an objective's field misspelt):
// NoValid's error and MostlyBatches' warning, which the CLI and the
// dashboard's status line ask for on every result.
func BenchmarkInvalidReports1M(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	ts := make([]scoring.Trajectory, 1_000_000)
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: fmt.Sprint("t", i), Group: fmt.Sprint("g", i/8), Done: true,
			Metadata: map[string]any{"o1": rng.Float64(), "o2": rng.Float64()}}
	}
	c, err := engine.New(setup.Config{Method: string(engine.Pareto), Objectives: []setup.ObjectiveConfig{{Name: "e1", Expr: "metadata.o9"}}})
	if err != nil {
		b.Fatal(err)
	}
	res := c.Compute(ts, engine.Pareto)
	fields := scoring.FieldNames(&ts[0])
	b.ReportAllocs()
	for b.Loop() {
		if NoValid(res, c.Scorer, fields) == nil || len(MostlyBatches(res)) != 1 {
			b.Fatal("not all invalid")
		}
	}
}
