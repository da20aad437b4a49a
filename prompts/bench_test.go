package prompts

import (
	"fmt"
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// gradedRun returns ts's result under grpo, their objective the metadata
// field x, and the keys of their prompts.
func gradedRun(b *testing.B, ts []scoring.Trajectory) (*engine.Result, *Keys) {
	scorer, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: `metadata["x"]`, Goal: scoring.Maximize, Weight: 1}})
	if err != nil {
		b.Fatal(err)
	}
	opts := engine.DefaultOptions()
	opts.Method = engine.GRPO
	res := engine.Evaluate(scorer, ts).Compute(opts)
	return res, GroupKeys(res.Evaluation)
}

// BenchmarkAnalyze1M follows 2,000 prompts over 500 steps of 2,000
// trajectories (groups of 8), as scripts/bench-prompts.sh does: the
// analysis alone, on a computed result.
func BenchmarkAnalyze1M(b *testing.B) {
	const n, steps, prompts = 1 << 20, 500, 2000
	ts := make([]scoring.Trajectory, n)
	task := make([]float64, n)
	per := n / steps
	for i := range ts {
		s, g := i/per, i/8
		p := g * 7919 % prompts
		acc := float64((i*2654435761)>>7%10) / 10
		task[i] = math.Round(acc)
		ts[i] = scoring.Trajectory{Batch: int64(s), Group: fmt.Sprintf("prompt %05d", p), Done: true, Metadata: map[string]any{"x": acc}}
	}
	res, keys := gradedRun(b, ts)
	b.ResetTimer()
	for range b.N {
		a := Analyze(res, task, keys, 1)
		if len(a.Prompts) != prompts {
			b.Fatalf("%d prompts", len(a.Prompts))
		}
	}
}

// BenchmarkAnalyzeOneBatch1M follows the 131,072 prompts (groups of 8) of
// 2^20 trajectories in one batch, the shape of scripts/bench-dashboard.sh's
// run: a history of one point per prompt.
func BenchmarkAnalyzeOneBatch1M(b *testing.B) {
	const n = 1 << 20
	ts := make([]scoring.Trajectory, n)
	task := make([]float64, n)
	for i := range ts {
		acc := float64((i*2654435761)>>7%10) / 10
		task[i] = math.Round(acc)
		ts[i] = scoring.Trajectory{Group: fmt.Sprintf("g%d", i/8), Done: true, Metadata: map[string]any{"x": acc}}
	}
	res, keys := gradedRun(b, ts)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		a := Analyze(res, task, keys, 1)
		if len(a.Prompts) != n/8 {
			b.Fatalf("%d prompts", len(a.Prompts))
		}
	}
}
