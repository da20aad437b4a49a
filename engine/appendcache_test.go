package engine

import (
	"github.com/rewardlens/rewardlens/engine/setup"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
)

// TestAppendKeepsNoCaches checks that an appended evaluation inherits
// none of the method-independent caches of the one it extends (the
// scores, the valid members, the hypervolumes): they are of fewer
// trajectories.
func TestAppendKeepsNoCaches(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	c := newTestComputer(t)
	ev := Evaluate(c.Scorer, enginetest.ManyBatches(rng, 600, 4))
	res := ev.Compute(c.Options)
	res.ValidOf(&res.Ranking.Batches[0])
	ev.cache.Put(CacheKey{Of: OfHypervolume}, 1.0)
	if ev.scores == nil || ev.cache.count(ofValid) == 0 {
		t.Fatal("the evaluation kept no scores or valid members to inherit")
	}
	next := ev.Append(c.Scorer, enginetest.ManyBatches(rng, 200, 6))
	if next.scores != nil || next.cache.count(OfHypervolume) != 0 || next.cache.count(ofValid) != 0 {
		t.Fatal("an appended evaluation inherited the method-independent caches")
	}
}

// newTestComputer returns a pareto computer on x (max), y (min) and z.
func newTestComputer(t testing.TB) *RewardComputer {
	t.Helper()
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "y", Expr: "y", Goal: "min"}, {Name: "z", Expr: "metadata.z"}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
