package session

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// BenchmarkFilterToggle1M times what f's command does on 2^20
// trajectories over 500 steps in groups of 8 (the run of
// BenchmarkPromptsFirstFrame1M): the group filter on objective 0, the
// evaluation without the dropped groups and its result's batch shown.
func BenchmarkFilterToggle1M(b *testing.B) {
	const n, steps, prompts = 1 << 20, 500, 2000
	ts := make([]scoring.Trajectory, n)
	per := n / steps
	for i := range ts {
		g := i / 8
		acc := float64((i*2654435761)>>7%10) / 10
		ts[i] = scoring.Trajectory{ID: fmt.Sprint(i), Batch: int64(i / per), Group: fmt.Sprintf("prompt %05d", g*7919%prompts), Done: true,
			Metadata: map[string]any{"accuracy": float64(int(acc + 0.5)), "x": acc}}
	}
	c, err := engine.New(engine.Config{Method: "grpo", Objectives: []engine.ObjectiveConfig{{Name: "accuracy", Expr: "accuracy"}, {Name: "x", Expr: "x"}}})
	if err != nil {
		b.Fatal(err)
	}
	ev := engine.Evaluate(c.Scorer, ts)
	ts = nil
	ev.Prepare(c.Options, nil) // the evaluation's own caches, as the dashboard has them
	for b.Loop() {
		filtered, _ := FilterOf(ev, "accuracy", 0, true)
		res := filtered.Prepare(c.Options, nil)
		res.ComputeBatch(len(res.Ranking.Batches) - 1)
	}
}
