package health

import (
	"fmt"
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// BenchmarkFindingsSteps runs every check on runs of 500 and 5,000 steps
// (two groups of two rows each, with logged advantages, under grpo), so
// that the time per step of the two sizes tells whether a check looks
// each step up over all of them.
func BenchmarkFindingsSteps(b *testing.B) {
	comp, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, LoggedAdvantage: "adv"})
	if err != nil {
		b.Fatal(err)
	}
	for _, steps := range []int{500, 5000} {
		var ts []scoring.Trajectory
		for step := range int64(steps) {
			for i := range 4 {
				ts = append(ts, scoring.Trajectory{Batch: step, Group: fmt.Sprint(i / 2), Done: true, Metadata: map[string]any{"x": float64(i % 2), "adv": 0.5}})
			}
		}
		res := comp.Compute(ts, engine.GRPO)
		res.Finish()
		trends := diagnose.Trends(res, nil)
		b.Run(fmt.Sprint(steps), func(b *testing.B) {
			for b.Loop() {
				Findings(res, trends, Config{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(steps), "ns/step")
		})
	}
}

// BenchmarkNonFinite1M runs non_finite on one batch of a million rows, a
// third of them NaN and a third infinite: the rows' causes are counted,
// not each looked up.
func BenchmarkNonFinite1M(b *testing.B) {
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: "x", Weight: math.NaN()}})
	if err != nil {
		b.Fatal(err)
	}
	values := []map[string]any{{"x": 1.0}, {"x": math.NaN()}, {"x": math.Inf(1)}}
	ts := make([]scoring.Trajectory, 1_000_000)
	for i := range ts {
		ts[i] = scoring.Trajectory{Group: fmt.Sprint(i / 1024), Done: true, Metadata: values[i*3/len(ts)]}
	}
	res := engine.Evaluate(s, ts).Compute(engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Scale: engine.ScaleGroup, Normalize: true})
	trends := diagnose.Trends(res, nil)
	h := newHealthRun(res, trends, Config{})
	if f, ok := h.nonFinite(&trends[0]); !ok || f.Value < 600_000 {
		b.Fatalf("non_finite: %+v, want two thirds of the rows", f)
	}
	for b.Loop() {
		h.nonFinite(&trends[0])
	}
}
