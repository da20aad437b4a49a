package diagnose

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
)

// BenchmarkSwitch1M is the engine's part of a method switch on the
// dashboard at a million trajectories (one batch, groups of 8, three
// objectives): the next method's result prepared in the arrays of the one
// before last, the batch computed, and its statistics (what the Rewards
// tab shows).
func BenchmarkSwitch1M(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 3)
	c := benchComputer(b, ts, engine.Pareto)
	ev := engine.Evaluate(c.Scorer, ts)
	opts := c.Options
	shown, spare := ev.Compute(opts), (*engine.Result)(nil)
	StatsOf(shown, &shown.Ranking.Batches[0])
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		opts.Method = engine.Methods[i%len(engine.Methods)]
		res := ev.Prepare(opts, spare)
		StatsOf(res, &res.Ranking.Batches[0])
		shown, spare = res, shown
	}
}

// BenchmarkTrendsAfterSwitch1M is the background's part of a method switch
// at a million trajectories: the trends of a new method's result, what
// does not depend on the method (the hypervolume, the scores' statistics)
// being kept from the results before.
func BenchmarkTrendsAfterSwitch1M(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 3)
	c := benchComputer(b, ts, engine.Pareto)
	ev := engine.Evaluate(c.Scorer, ts)
	opts := c.Options
	Trends(ev.Compute(opts), nil)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		opts.Method = engine.Methods[i%len(engine.Methods)]
		b.StopTimer()
		res := ev.Compute(opts)
		b.StartTimer()
		Trends(res, nil)
	}
}
