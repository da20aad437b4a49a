package diagnose

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/stats"
)

func TestGroupSummariesByHand(t *testing.T) {
	// Group a: scores 1, 2, 2, 5 (mean 2.5, population std 1.5) and one
	// invalid; group b: 3, 3 (zero spread); group c: one valid.
	ts := enginetest.Scored(map[string][]float64{"a": {1, 2, math.NaN(), 2, 5}, "b": {3, 3}, "c": {7}}, "a", "b", "c")
	res := oneObjective(t, engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Scale: engine.ScaleGroup}).Compute(ts, engine.GRPO)
	gs := GroupSummaries(res, &res.Ranking.Batches[0])
	if len(gs) != 3 {
		t.Fatalf("%d groups, want 3", len(gs))
	}
	a := gs[0]
	if a.Key != "a" || a.N != 5 || a.Valid != 4 || a.ZeroSpread || a.Frontier != 1 {
		t.Errorf("group a: %+v", a)
	}
	assertFloats(t, "a's score mean, std, min, max", []float64{a.Score.Mean, a.Score.Std, a.Score.Min, a.Score.Max}, []float64{2.5, 1.5, 1, 5})
	// GRPO unnormalised: s - mean, from 1 - 2.5 to 5 - 2.5.
	ranges := GroupRewardRanges(res, &res.Ranking.Batches[0])
	assertFloats(t, "a's reward spread", []float64{ranges[0].Min, ranges[0].Max}, []float64{-1.5, 2.5})
	if b := gs[1]; !b.ZeroSpread || b.Score.Std != 0 || b.Frontier != 2 {
		t.Errorf("group b (3, 3) is not zero-spread with two on the frontier: %+v", b)
	}
	if c := gs[2]; !c.ZeroSpread || c.Valid != 1 {
		t.Errorf("group c (one valid) is not zero-spread: %+v", c)
	}
}

// TestGroupSummariesAgainstSummarize checks every group of random batches,
// in both scopes, against Summarize over the group's valid scores.
func TestGroupSummariesAgainstSummarize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var ts []scoring.Trajectory
	for i := range 600 {
		x := float64(rng.IntN(4)) // ties and zero-spread groups
		if rng.IntN(10) == 0 {
			x = math.NaN()
		}
		tr := enginetest.Scored(map[string][]float64{"": {x}}, "")[0]
		tr.Batch, tr.Group = int64(i%3), fmt.Sprintf("g%d", rng.IntN(40))
		ts = append(ts, tr)
	}
	for _, scope := range []engine.Scope{engine.ScopeGroup, engine.ScopeBatch} {
		res := oneObjective(t, engine.Options{Method: engine.Relative, Scope: scope}).Compute(ts, engine.Relative)
		for bi := range res.Ranking.Batches {
			b := &res.Ranking.Batches[bi]
			gs, ranges := GroupSummaries(res, b), GroupRewardRanges(res, b)
			if len(ranges) != len(gs) {
				t.Fatalf("scope %s: %d reward ranges for %d groups", scope, len(ranges), len(gs))
			}
			seen := 0
			for gi, g := range gs {
				var scores []float64
				lo, hi, frontier := math.Inf(1), math.Inf(-1), 0
				for _, i := range g.Members {
					if ts[i].Group != g.Key || ts[i].Batch != b.Step {
						t.Fatalf("scope %s: %d is not of group %s of batch %d", scope, i, g.Key, b.Step)
					}
					// The range is of every member's reward, an invalid
					// one's neutral reward too, as compute writes them.
					lo, hi = min(lo, res.Rewards[i]), max(hi, res.Rewards[i])
					if res.Evaluation.Valid[i] {
						scores = append(scores, res.Scores[i])
						if res.Ranking.Ranks[i] == 0 {
							frontier++
						}
					}
				}
				seen += len(g.Members)
				want := stats.Summarize(scores)
				if g.Valid != len(scores) || g.Frontier != frontier || g.ZeroSpread != (len(scores) < 2 || want.Min == want.Max) {
					t.Errorf("scope %s, group %s: %+v; want %d valid, %d on the frontier", scope, g.Key, g, len(scores), frontier)
				}
				assertFloats(t, "reward range", []float64{ranges[gi].Min, ranges[gi].Max}, []float64{lo, hi})
				if len(scores) > 0 {
					assertFloats(t, "score summary", []float64{g.Score.Mean, g.Score.Std, g.Score.Min, g.Score.Max},
						[]float64{want.Mean, want.Std, want.Min, want.Max})
				} else if r := ranges[gi]; scope == engine.ScopeGroup && (r.Min != 0 || r.Max != 0) {
					t.Errorf("scope group, group %s has no valid member: its rewards are 0, its range %v", g.Key, r)
				}
			}
			if seen != len(b.Members) {
				t.Errorf("scope %s, batch %d: the groups hold %d of %d members", scope, b.Step, seen, len(b.Members))
			}
			if again := GroupSummaries(res, b); &again[0] != &gs[0] {
				t.Error("the summaries were computed again for the same result and batch")
			}
			if again := GroupRewardRanges(res, b); &again[0] != &ranges[0] {
				t.Error("the reward ranges were computed again for the same result and batch")
			}
		}
	}
}

// BenchmarkGroupSummaries1M summarises the 125,000 groups of 8 of a batch
// of 1M trajectories, for new weights each time; BenchmarkGroupRewardRanges1M
// bounds their rewards, which a method switch computes again.
func BenchmarkGroupSummaries1M(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 3)
	ev := engine.Evaluate(benchComputer(b, ts, engine.GRPO).Scorer, ts)
	opts := engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Scale: engine.ScaleGroup, Normalize: true}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		opts.Weights = []float64{1, 1, 1 + rand.Float64()}
		res := ev.Compute(opts)
		b.StartTimer()
		GroupSummaries(res, &res.Ranking.Batches[0])
	}
}

func BenchmarkGroupRewardRanges1M(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 3)
	ev := engine.Evaluate(benchComputer(b, ts, engine.GRPO).Scorer, ts)
	opts := engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Scale: engine.ScaleGroup, Normalize: true}
	first := ev.Compute(opts)
	GroupSummaries(first, &first.Ranking.Batches[0])
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		res := ev.Compute(opts)
		b.StartTimer()
		GroupRewardRanges(res, &res.Ranking.Batches[0])
	}
}

// TestPopMeanStdSmall checks the groups' mean and std against PopMeanStd
// on random sets, huge values (whose sums overflow) among them.
func TestPopMeanStdSmall(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := range 2000 {
		x := make([]float64, 1+rng.IntN(12))
		for i := range x {
			x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(10)-5))
			if trial%50 == 0 {
				x[i] = math.MaxFloat64 / 2 * float64(1-2*rng.IntN(2))
			}
		}
		mean, std := popMeanStdSmall(x)
		wantMean, wantStd := stats.PopMeanStd(x)
		if !near(mean, wantMean) || math.Abs(std-wantStd) > 1e-12*max(1, wantStd) {
			t.Fatalf("%v: mean %g std %g, want %g %g", x, mean, std, wantMean, wantStd)
		}
	}
}

// TestGroupScoreStd: a group's score std as grpo takes it, by hand on
// scores 1, 2, 3, 4 (mean 2.5, squares 5): std1 sqrt(5/3), std0
// sqrt(5/4); a group of one has no std1 and std0 0. Each is what
// engine.Options.StdOf gives of the scores.
func TestGroupScoreStd(t *testing.T) {
	for _, tc := range []struct {
		scores     []float64
		std1, std0 float64
		names      [2]string
	}{
		{[]float64{1, 2, 3, 4}, math.Sqrt(5.0 / 3), math.Sqrt(5.0 / 4), [2]string{"std1", "std0"}},
		{[]float64{7}, math.NaN(), 0, [2]string{"std1", "std0"}},
	} {
		mean, std := stats.PopMeanStd(tc.scores)
		g := GroupSummary{Score: stats.Summary{Count: len(tc.scores), Mean: mean, Std: std}}
		for k, s := range []engine.Std{engine.StdSample, engine.StdPopulation} {
			want := []float64{tc.std1, tc.std0}[k]
			got := g.ScoreStd(s)
			if !(near(got, want) || math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("%v, %s: %v, want %v", tc.scores, s, got, want)
			}
			if of := (engine.Options{Std: s}).StdOf(tc.scores); !(near(got, of) || math.IsNaN(got) && math.IsNaN(of)) {
				t.Errorf("%v, %s: %v, StdOf gives %v", tc.scores, s, got, of)
			}
			if StdName(s) != tc.names[k] {
				t.Errorf("StdName(%s) = %s, want %s", s, StdName(s), tc.names[k])
			}
		}
	}
}
