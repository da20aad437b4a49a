package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
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
	shown, _ := res.ShownRewardsOf(&res.Ranking.Batches[0]) // the one batch, from trajectory 0
	assertFloats(t, "grpo ShownRewardsOf", shown, want)
	// GatherShown, in an order of its own and in chunks on every core.
	index := make([]int, 3*gatherChunk+5)
	for j := range index {
		index[j] = (len(want) - 1 - j%len(want) + j/len(want)) % len(want)
	}
	for j, v := range res.GatherShown(make([]float64, len(index)), index) {
		if v != want[index[j]] {
			t.Fatalf("grpo GatherShown[%d] (trajectory %d) = %v, want %v", j, index[j], v, want[index[j]])
		}
	}
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
	if shown, _ := res.ShownRewardsOf(&res.Ranking.Batches[0]); res.Settled(0) || res.ShownReward(0) != x || &shown[0] != &res.Rewards[0] {
		t.Errorf("absolute: settled %v, shown %v, want the rewards themselves", res.Settled(0), res.ShownReward(0))
	}
}

// TestShownRewardsOfBatch checks ShownRewardsOf against ShownReward of the
// finished result on
// random batches whose members interleave, of groups with equal scores
// (rounding leftovers) or not, with invalid members: each batch's shown
// rewards alike, and the batches not asked for not computed.
func TestShownRewardsOfBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	var ts []scoring.Trajectory
	for g := range 60 {
		step, equal := int64(rng.IntN(6)), rng.IntN(2) == 0
		size := 1 + rng.IntN(8)
		if equal {
			size = 7 + rng.IntN(2) // seven equal scores leave a leftover (TestShownRewardSettled), an eighth is invalid
		}
		for k := range size {
			tr := enginetest.Traj(step, fmt.Sprint("g", g))
			switch {
			case equal && k < 7:
				tr.Metadata["x"] = 0.9369000000000001
			case equal || rng.IntN(8) == 0: // invalid: no x
			default:
				tr.Metadata["x"] = float64(rng.IntN(4))
			}
			ts = append(ts, tr)
		}
	}
	rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
	for _, opts := range []Options{
		{Method: GRPO, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true, Epsilon: 1e-4},
		{Method: RLOO, Scope: ScopeGroup},
		{Method: Absolute, Scope: ScopeGroup},
	} {
		ev := oneObjective(t, opts).NewEvaluatorFor(ts)
		whole := ev.Compute(opts)
		want := make([]float64, len(whole.Rewards))
		for i := range want {
			want[i] = whole.ShownReward(i)
		}
		res := ev.Prepare(opts, nil)
		if len(res.Ranking.Batches) < 4 {
			t.Fatalf("%d batches, want several", len(res.Ranking.Batches))
		}
		leftovers := 0
		for bi := range res.Ranking.Batches {
			b := &res.Ranking.Batches[bi]
			if bi < len(res.Ranking.Batches)-1 && res.Finished() {
				t.Fatalf("%s: every batch computed before batch %d was asked for", opts.Method, bi)
			}
			shown, first := res.ShownRewardsOf(b)
			for _, i := range b.Members {
				if !sameFloat(shown[i-first], want[i]) {
					t.Errorf("%s batch %d: shown reward of %d = %v, want the finished result's %v (reward %v)", opts.Method, b.Step, i, shown[i-first], want[i], res.Rewards[i])
				}
				if res.Settled(i) && res.Rewards[i] != 0 {
					leftovers++
				}
			}
		}
		if opts.Method != Absolute && leftovers == 0 {
			t.Errorf("%s: no rounding leftover to test", opts.Method)
		}
	}
}

// TestSettledOfEveryMethod: a method whose MethodSpec.Settled says a
// zero-spread group is 0 computes it within float noise of 0 and shows
// exactly 0 (gpg and grpo-passk as grpo and rloo); its lone member is
// settled as Settled says (gpg rewards it alpha s); a method without
// Settled settles nothing (a group whitened over the batch is not 0).
func TestSettledOfEveryMethod(t *testing.T) {
	const x = 0.9369000000000001
	ts := enginetest.Scored(map[string][]float64{"same": {x, x, x, x, x, x, x}, "spread": {1, 2}, "one": {3}}, "same", "spread", "one")
	const lone = 9
	settling := map[Method]bool{}
	for _, m := range Methods {
		o := Options{Method: m, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true, Epsilon: 1e-4}
		res := oneObjective(t, o).Compute(ts, m)
		spec := Spec(m)
		if !spec.Settled {
			if res.Settled(0) || res.Settled(lone) {
				t.Errorf("%s: settled without MethodSpec.Settled", m)
			}
			continue
		}
		settling[m] = true
		for i := range 7 {
			if math.Abs(res.Rewards[i]) > 1e-9 || !res.Settled(i) || res.ShownReward(i) != 0 {
				t.Errorf("%s: equal group's member %d: reward %v, settled %v, shown %v", m, i, res.Rewards[i], res.Settled(i), res.ShownReward(i))
			}
		}
		if res.Settled(7) {
			t.Errorf("%s: a group with spread settled", m)
		}
		wantLone := !o.ScoresGroupOfOne()
		if res.Settled(lone) != wantLone || wantLone != (res.Rewards[lone] == 0) {
			t.Errorf("%s: the group of one: settled %v, reward %v", m, res.Settled(lone), res.Rewards[lone])
		}
	}
	for _, m := range []Method{GRPO, RLOO, GRPOPassK, GPG} {
		if !settling[m] {
			t.Errorf("%s: zero-spread groups not settled", m)
		}
	}
}
