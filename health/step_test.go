package health

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// near reports whether a is b within a relative 1e-12.
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b))
}

// TestStepFindings: the findings of each batch hold the first firing of
// every check that Findings reports.
func TestStepFindings(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "z", Expr: "metadata.z"}}, Method: string(engine.GRPO)})
	if err != nil {
		t.Fatal(err)
	}
	ts := make([]scoring.Trajectory, 200)
	for i := range ts {
		step := int64(rng.IntN(6))
		x := float64(rng.IntN(4))
		if step >= 4 {
			x = 1 // zero spread from step 4 on
		}
		ts[i] = scoring.Trajectory{
			ID: fmt.Sprint(i), Batch: step, Group: fmt.Sprint("g", rng.IntN(4)), StepCount: int64(rng.IntN(9)),
			Metadata: map[string]any{"x": x, "z": float64(rng.IntN(5)) / 2},
		}
	}
	slices.SortStableFunc(ts, func(a, b scoring.Trajectory) int { return int(a.Batch - b.Batch) })
	res := c.Compute(ts, c.Options.Method)
	trends := diagnose.Trends(res, nil)
	cfg := Config{Baseline: 2}
	var all []Finding
	for b := range trends {
		for _, f := range StepFindings(res, trends, cfg, b) {
			if f.Step != trends[b].Step {
				t.Fatalf("a finding of batch %d has step %d", b, f.Step)
			}
			all = append(all, f)
		}
	}
	for _, f := range Findings(res, trends, cfg) {
		if !slices.Contains(all, f) {
			t.Errorf("Findings' %+v is in no batch's findings", f)
		}
	}
	if len(Findings(res, trends, cfg)) == 0 {
		t.Error("the data trips no check: the test checks nothing")
	}
}
