package engine

import (
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
)

// TestShownRewardSettled checks that a grpo or rloo group whose valid
// scores all equal shows reward 0, its invalid member too, while Rewards
// keeps the rounding leftover the arithmetic gives (7 times 0.9369... has
// a mean that differs from it in the last bit: -1.1e-12 after grpo's
// division by std + 1e-4).
func TestShownRewardSettled(t *testing.T) {
	const x = 0.9369000000000001
	ts := enginetest.Scored(map[string][]float64{"same": {x, x, x, x, x, x, x, math.NaN()}, "spread": {1, 2}, "one": {3}}, "same", "spread", "one")
	grpo := Options{Method: GRPO, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true, Epsilon: 1e-4}
	res := oneObjective(t, grpo).Compute(ts, GRPO)
	if res.Rewards[0] == 0 {
		t.Fatalf("grpo reward of the equal group = 0: no rounding leftover to test")
	}
	want := []float64{0, 0, 0, 0, 0, 0, 0, 0, res.Rewards[8], res.Rewards[9], 0}
	for i, w := range want {
		if got := res.ShownReward(i); got != w {
			t.Errorf("grpo ShownReward(%d) = %v, want %v (reward %v)", i, got, w, res.Rewards[i])
		}
	}
	assertFloats(t, "grpo ShownRewards", res.ShownRewards(), want)
	if res.Settled(8) || math.Abs(res.ShownReward(8)) < 0.5 {
		t.Errorf("a group with spread is settled: %v", res.ShownReward(8))
	}

	// --group-of-one score rewards a lone valid trajectory by its score:
	// it has signal.
	score := grpo
	score.GroupOfOne = GroupOfOneScore
	if res := oneObjective(t, score).Compute(ts, GRPO); res.Settled(10) || res.ShownReward(10) == 0 {
		t.Errorf("group of one under --group-of-one score: settled, reward shown %v", res.ShownReward(10))
	}

	rloo := Options{Method: RLOO, Scope: ScopeGroup}
	if res := oneObjective(t, rloo).Compute(ts, RLOO); res.Rewards[0] == 0 || res.ShownReward(0) != 0 {
		t.Errorf("rloo equal group: reward %v shown %v, want a leftover shown 0", res.Rewards[0], res.ShownReward(0))
	}

	// A method whose zeros are exact shows its rewards as they are.
	abs := Options{Method: Absolute, Scope: ScopeGroup}
	res = oneObjective(t, abs).Compute(ts, Absolute)
	if res.Settled(0) || res.ShownReward(0) != x || &res.ShownRewards()[0] != &res.Rewards[0] {
		t.Errorf("absolute: settled %v, shown %v, want the rewards themselves", res.Settled(0), res.ShownReward(0))
	}
}
