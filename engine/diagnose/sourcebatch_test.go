package diagnose

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/stats"
)

// sameNumber reports whether a and b are equal, or both NaN, to 1e-12.
func sameNumber(a, b float64) bool {
	return (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) <= 1e-12*max(1, math.Abs(a))
}

// sameSummary reports whether two summaries are equal to 1e-12.
func sameSummary(a, b stats.Summary) bool {
	return a.Count == b.Count && sameNumber(a.Mean, b.Mean) && sameNumber(a.Std, b.Std) && sameNumber(a.Min, b.Min) &&
		sameNumber(a.P25, b.P25) && sameNumber(a.Median, b.Median) && sameNumber(a.P75, b.P75) && sameNumber(a.Max, b.Max)
}

// TestSourceBatchStats checks, on random data with sources, ties, invalid
// trajectories and a constraint, each batch's statistics per source
// against their definitions computed here from the result's arrays: the
// source's members, its objectives' summaries and correlation, the
// scores', rewards', frontier, groups and feasible share, and the trend's
// mean step_count.
func TestSourceBatchStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 25))
	for trial := range 6 {
		cfg := restructureConfig(true)
		cfg.Constraints = []string{"c >= 1"}
		c, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ev := engine.Evaluate(c.Scorer, enginetest.RestructureData(uint64(trial), 100+rng.IntN(200)))
		opts := engine.DefaultOptions()
		opts.Method, opts.Scope = []engine.Method{engine.Pareto, engine.GRPO, engine.Relative}[trial%3], engine.Scopes[trial%2]
		res := ev.Compute(opts)
		for src, name := range ev.SourceNames {
			trends := SourceTrends(res, src)
			for bi := range res.Ranking.Batches {
				b := &res.Ranking.Batches[bi]
				var members, valid []int
				for _, i := range b.Members {
					if ev.SourceOf(i) == name {
						members = append(members, i)
						if ev.Valid[i] {
							valid = append(valid, i)
						}
					}
				}
				got := SourceBatchStats(res, b, src)
				if got.Trajectories != len(members) || got.Invalid != len(members)-len(valid) {
					t.Fatalf("%s batch %d: %d trajectories %d invalid, want %d %d", name, b.Step, got.Trajectories, got.Invalid, len(members), len(members)-len(valid))
				}
				cols := ev.SourceObjectives(src)
				if len(got.Objectives) != len(cols) {
					t.Fatalf("%s: %d objectives, want %d", name, len(got.Objectives), len(cols))
				}
				column := func(k int) []float64 {
					var x []float64
					for _, i := range valid {
						x = append(x, ev.Values[i*ev.M+k])
					}
					return x
				}
				for a, k := range cols {
					if got.Objectives[a].Name != ev.Objectives[k].Name || !sameSummary(got.Objectives[a].Summary, stats.Summarize(column(k))) {
						t.Fatalf("%s batch %d: objective %s differs", name, b.Step, ev.Objectives[k].Name)
					}
					for d, l := range cols {
						if !sameNumber(got.Correlation[a][d], stats.Pearson(column(k), column(l))) {
							t.Fatalf("%s batch %d: correlation %d %d differs", name, b.Step, a, d)
						}
					}
				}
				var scores, rewards []float64
				frontier, feasible, steps := 0, 0, 0.0
				groups := map[string]bool{}
				for _, i := range valid {
					scores, rewards = append(scores, res.Scores[i]), append(rewards, res.Rewards[i])
					if res.Ranking.Ranks[i] == 0 {
						frontier++
					}
					if ev.Feasible(i) {
						feasible++
					}
					steps += float64(ev.StepCount(i))
				}
				for _, g := range b.Groups {
					for _, i := range g.Members {
						if ev.Valid[i] && ev.SourceOf(i) == name {
							groups[g.Key+"\x00"+name] = true
						}
					}
				}
				n := float64(len(valid))
				if !sameSummary(got.Score, stats.Summarize(scores)) || !sameSummary(got.Reward, stats.Summarize(rewards)) ||
					got.FrontierSize != frontier || got.Groups != len(groups) || !sameNumber(got.Feasible, float64(feasible)/n) {
					t.Fatalf("%s batch %d (%s %s): scores, rewards, frontier, groups or feasible share differ", name, b.Step, opts.Method, opts.Scope)
				}
				if len(valid) > 0 && !sameNumber(trends[bi].MeanStepCount, steps/n) || !math.IsNaN(trends[bi].Hypervolume) {
					t.Fatalf("%s batch %d: the trend's mean step_count %v, want %v", name, b.Step, trends[bi].MeanStepCount, steps/n)
				}
				if !sameSummary(trends[bi].Reward, got.Reward) {
					t.Fatalf("%s batch %d: the trend's rewards differ from the statistics'", name, b.Step)
				}
			}
		}
	}
}
