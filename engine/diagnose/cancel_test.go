package diagnose

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// cancelledAfter is a context that reports itself done from its
// (after+1)-th Err on, counting the times it is asked.
type cancelledAfter struct {
	context.Context
	after int64
	asked atomic.Int64
}

func (c *cancelledAfter) Err() error {
	if c.asked.Add(1) > c.after {
		return context.Canceled
	}
	return nil
}

// TestComputeStopsOnInterrupt: ComputeContext and TrendsContext look at
// the context before each comparison group they rank and each batch they
// compute, and once it is done return its error and no result, at once
// (stats --follow waited minutes for a compute after SIGTERM); the ranking
// cut short is not kept, so that the evaluation computed again gives what
// a fresh one gives.
func TestComputeStopsOnInterrupt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	ts := make([]scoring.Trajectory, 4000)
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: fmt.Sprint(i), Batch: int64(i / 500), Group: fmt.Sprint("g", i/4), Done: true,
			Metadata: map[string]any{"a": rng.Float64(), "b": rng.Float64()}}
	}
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "a", Expr: "a", Goal: scoring.Maximize, Weight: 1}, {Name: "b", Expr: "b", Goal: scoring.Minimize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	opts := engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Normalize: true, Epsilon: 1e-4}
	ev := engine.Evaluate(s, ts)
	// 1000 groups in 8 batches, stopped after 10: each range of groups
	// the ranking's workers take asks once more, not each group, and no
	// batch's rewards are computed.
	ctx := &cancelledAfter{Context: context.Background(), after: 10}
	if res, err := ev.ComputeContext(ctx, opts); res != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("ComputeContext after the interrupt: %v, %v; want no result, context.Canceled", res != nil, err)
	}
	if asked := ctx.asked.Load(); asked > 250 {
		t.Errorf("the context was asked %d times for 1000 groups: the groups were ranked on after the interrupt", asked)
	}
	got, err := ev.ComputeContext(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Evaluate(s, ts).Compute(opts)
	if !slices.Equal(got.Ranking.Ranks, want.Ranking.Ranks) || !slices.Equal(got.Rewards, want.Rewards) {
		t.Error("computed again after an interrupt, the ranks or rewards differ from a fresh computation's")
	}
	// The trends: stopped before their first batch's.
	fresh := engine.Evaluate(s, ts).Compute(opts)
	if trends, err := TrendsContext(&cancelledAfter{Context: context.Background()}, fresh, nil); trends != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("TrendsContext after the interrupt: %d trends, %v", len(trends), err)
	}
	trends, err := TrendsContext(context.Background(), fresh, nil)
	if err != nil || !slices.EqualFunc(trends, Trends(want, nil), func(a, b Trend) bool { return a.Hypervolume == b.Hypervolume && a.Reward == b.Reward }) {
		t.Errorf("TrendsContext: %v, or trends unlike Trends'", err)
	}
}

// TestRecomputeStopsOnInterrupt: RecomputeContext and TrendsSinceContext,
// a follower's computation of the trajectories that came, stop as
// ComputeContext does, prev staying valid, and the evaluation recomputed
// afterwards is what computing it from scratch gives.
func TestRecomputeStopsOnInterrupt(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	ts := make([]scoring.Trajectory, 3000)
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: fmt.Sprint(i), Batch: int64(i / 500), Group: fmt.Sprint("g", i/4), Done: true,
			Metadata: map[string]any{"a": rng.Float64(), "b": rng.Float64()}}
	}
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "a", Expr: "a", Goal: scoring.Maximize, Weight: 1}, {Name: "b", Expr: "b", Goal: scoring.Minimize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	opts := engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Normalize: true, Epsilon: 1e-4}
	prev := engine.Evaluate(s, ts[:1000]).Compute(opts)
	prevTrends := Trends(prev, nil)
	next := prev.Evaluation.Append(s, ts[1000:])
	ctx := &cancelledAfter{Context: context.Background(), after: 5}
	if res, err := next.RecomputeContext(ctx, prev); res != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("RecomputeContext after the interrupt: %v, %v; want no result, context.Canceled", res != nil, err)
	}
	if asked := ctx.asked.Load(); asked > 200 {
		t.Errorf("the context was asked %d times for 500 new groups: ranked on after the interrupt", asked)
	}
	res, err := next.RecomputeContext(context.Background(), prev)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Evaluate(s, ts).Compute(opts)
	if !slices.Equal(res.Ranking.Ranks, want.Ranking.Ranks) || !slices.Equal(res.Rewards, want.Rewards) {
		t.Error("recomputed after an interrupt, the ranks or rewards differ from a fresh computation's")
	}
	if trends, err := TrendsSinceContext(&cancelledAfter{Context: context.Background()}, res, prev, prevTrends, nil); trends != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("TrendsSinceContext after the interrupt: %d trends, %v", len(trends), err)
	}
	trends, err := TrendsSinceContext(context.Background(), res, prev, prevTrends, nil)
	if err != nil || !slices.EqualFunc(trends, Trends(want, nil), func(a, b Trend) bool { return a.Hypervolume == b.Hypervolume && a.Reward == b.Reward }) {
		t.Errorf("TrendsSinceContext: %v, or trends unlike Trends'", err)
	}
}
