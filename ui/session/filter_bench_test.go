package session_test

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// BenchmarkFilterToggle1M times what f's command does on 2^20
// trajectories over 500 steps in groups of 8 (the run of
// BenchmarkPromptsFirstFrame1M): the group filter on objective 0, the
// evaluation without the dropped groups and its result's batch shown.
func BenchmarkFilterToggle1M(b *testing.B) {
	ts, cfg := uitest.PromptRun()
	c, err := engine.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ev := engine.Evaluate(c.Scorer, ts)
	ts = nil
	ev.Prepare(c.Options, nil) // the evaluation's own caches, as the dashboard has them
	for b.Loop() {
		filtered, _ := session.FilterOf(ev, 0, true)
		res := filtered.Prepare(c.Options, nil)
		res.ComputeBatch(len(res.Ranking.Batches) - 1)
	}
}
