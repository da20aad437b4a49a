package uitest

import (
	"fmt"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// PromptRun returns the run the prompt benchmarks share (that of
// prompts.BenchmarkAnalyze1M): 2^20 trajectories over 500 steps, 2,000
// prompts in groups of 8, objectives accuracy (0 or 1) and x, and its
// config (grpo).
func PromptRun() ([]scoring.Trajectory, setup.Config) {
	const n, steps, prompts = 1 << 20, 500, 2000
	ts := make([]scoring.Trajectory, n)
	per := n / steps
	for i := range ts {
		g := i / 8
		acc := float64((i*2654435761)>>7%10) / 10
		ts[i] = scoring.Trajectory{ID: fmt.Sprint(i), Batch: int64(i / per), Group: fmt.Sprintf("prompt %05d", g*7919%prompts), Done: true,
			Metadata: map[string]any{"accuracy": float64(int(acc + 0.5)), "x": acc}}
	}
	return ts, setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "accuracy", Expr: "accuracy"}, {Name: "x", Expr: "x"}}}
}
