package engine

import (
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
)

// TestPopulationStd checks grpo and gdpo with the population std against
// hand-computed values: open-instruct's "standard" advantage,
// (s - mean) / (std + 1e-8) with numpy's std (ddof 0).
func TestPopulationStd(t *testing.T) {
	// Group a: 1, -1, 1, 1: mean 0.5, squares of deviations 0.25, 2.25,
	// 0.25, 0.25 (sum 3): population std sqrt(3/4), sample std 1. Group b:
	// one score, 3: population std 0, so (3 - 3) / eps = 0.
	ts := enginetest.Scored(map[string][]float64{"a": {1, -1, 1, 1}, "b": {3}}, "a", "b")
	const eps = 1e-8
	pop := Options{Method: GRPO, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true, Epsilon: eps, Std: StdPopulation}
	d := math.Sqrt(0.75) + eps
	assertFloats(t, "grpo population", rewards(t, ts, pop), []float64{0.5 / d, -1.5 / d, 0.5 / d, 0.5 / d, 0})

	// The sample std is the default: "" and StdSample agree.
	sample := pop
	sample.Std = StdSample
	assertFloats(t, "grpo sample", rewards(t, ts, sample), []float64{0.5 / (1 + eps), -1.5 / (1 + eps), 0.5 / (1 + eps), 0.5 / (1 + eps), 0})
	sample.Std = ""
	assertFloats(t, "grpo std unset", rewards(t, ts, sample), []float64{0.5 / (1 + eps), -1.5 / (1 + eps), 0.5 / (1 + eps), 0.5 / (1 + eps), 0})

	// Scale batch: 1, -1, 1, 1, 3 has mean 1 and sum of squares 8: the
	// population std is sqrt(8/5); each group is centred on its own mean.
	batch := pop
	batch.Scale = ScaleBatch
	d = math.Sqrt(8.0/5) + eps
	assertFloats(t, "grpo population scale batch", rewards(t, ts, batch), []float64{0.5 / d, -1.5 / d, 0.5 / d, 0.5 / d, 0})

	// gdpo: g = (x - 0.5) / (sqrt(3/4) + eps) in group a, 0 in b; then A
	// = (g - mean) / (population std of g + eps) over the batch.
	ga := 1 / (math.Sqrt(0.75) + eps)
	g := []float64{0.5 * ga, -1.5 * ga, 0.5 * ga, 0.5 * ga, 0}
	mean := (g[0] + g[1] + g[2] + g[3] + g[4]) / 5
	ss := 0.0
	for _, x := range g {
		ss += (x - mean) * (x - mean)
	}
	std := math.Sqrt(ss / 5)
	want := make([]float64, 5)
	for i, x := range g {
		want[i] = (x - mean) / (std + eps)
	}
	gdpo := Options{Method: GDPO, Scope: ScopeGroup, Normalize: true, Epsilon: eps, Std: StdPopulation}
	assertFloats(t, "gdpo population", rewards(t, ts, gdpo), want)
}

// TestConfigStd checks the std config key: population, sample, the
// default, and an unknown name refused.
func TestConfigStd(t *testing.T) {
	objs := []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}
	for name, want := range map[string]Std{"": StdSample, "sample": StdSample, "population": StdPopulation} {
		c, err := New(setup.Config{Objectives: objs, Std: name})
		if err != nil {
			t.Errorf("std %q: %v", name, err)
		} else if c.Options.Std != want {
			t.Errorf("std %q: got %q, want %q", name, c.Options.Std, want)
		}
	}
	if _, err := New(setup.Config{Objectives: objs, Std: "unbiased"}); err == nil {
		t.Error(`std "unbiased": no error`)
	}
}
