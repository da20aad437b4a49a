package follow

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// trajectories returns n random trajectories of source src in the given
// steps, with two objectives a and b.
func trajectories(rng *rand.Rand, src string, n int, steps ...int64) []scoring.Trajectory {
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = scoring.Trajectory{
			ID: fmt.Sprint(src, i), Batch: steps[rng.IntN(len(steps))], Group: fmt.Sprint("g", rng.IntN(3)),
			StepCount: int64(rng.IntN(9)), Done: true,
			Metadata:    map[string]any{"a": float64(rng.IntN(5)), "b": rng.Float64()},
			LoaderState: scoring.LoaderState{Source: src},
		}
	}
	return ts
}

// TestStep follows two files through lines appended and a file read again
// from the start: each step's result and trends must be those computed
// from scratch on the trajectories held, and the previous ones unchanged.
func TestStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	c, err := engine.New(setup.Config{Method: string(engine.GRPO), Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a"}, {Name: "b", Expr: "b", Goal: "min"}}})
	if err != nil {
		t.Fatal(err)
	}
	held := slices.Concat(trajectories(rng, "x", 40, 0, 1), trajectories(rng, "y", 30, 1, 2))
	followed := live.New(c.Scorer, engine.Evaluate(c.Scorer, held), held)
	res := followed.Evaluation().Compute(c.Options)
	trends := diagnose.Trends(res, nil)
	for k, u := range []loaders.Update{
		{Trajectories: trajectories(rng, "x", 20, 2, 3)},
		{Trajectories: trajectories(rng, "y", 5, 3)},
		{Reloaded: []string{"x"}, Trajectories: trajectories(rng, "x", 25, 0, 3, 4)},
		{Reloaded: []string{"y"}},
	} {
		held = slices.DeleteFunc(held, func(t scoring.Trajectory) bool { return slices.Contains(u.Reloaded, t.Source) })
		held = append(held, u.Trajectories...)
		prevRewards, prevTrends := slices.Clone(res.Rewards), slices.Clone(trends)
		next, nextTrends := Step(followed, u, res, trends, nil)
		want := engine.Evaluate(c.Scorer, held).Compute(c.Options)
		if !reflect.DeepEqual(next.Rewards, want.Rewards) || !reflect.DeepEqual(next.Ranking.Batches, want.Ranking.Batches) {
			t.Fatalf("update %d: the result differs from one computed from scratch", k)
		}
		if !reflect.DeepEqual(nextTrends, diagnose.Trends(want, nil)) {
			t.Fatalf("update %d: the trends differ from those computed from scratch", k)
		}
		if !slices.Equal(res.Rewards, prevRewards) || !reflect.DeepEqual(trends, prevTrends) {
			t.Fatalf("update %d: the previous result or trends changed", k)
		}
		if _, none := Step(followed, loaders.Update{}, next, nil, nil); none != nil {
			t.Fatalf("update %d: trends without trends to carry forward", k)
		}
		res, trends = next, nextTrends
	}
}
