package agreement

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// unitBatch returns groups of 8 trajectories, objectives x and y uniform
// in [0, 1], each logged trainer's float32 advantage.
func unitBatch(rnd *rand.Rand, groups int, trainer func(xs, ys [][]float32) [][]float32) []scoring.Trajectory {
	xs, ys := make([][]float32, groups), make([][]float32, groups)
	for g := range xs {
		for range 8 {
			xs[g] = append(xs[g], float32(rnd.Float64()))
			ys[g] = append(ys[g], float32(rnd.Float64()))
		}
	}
	var ts []scoring.Trajectory
	for g, as := range trainer(xs, ys) {
		for j, a := range as {
			ts = append(ts, enginetest.Traj(0, strconv.Itoa(g), "x", float64(xs[g][j]), "y", float64(ys[g][j]), "adv", float64(a)))
		}
	}
	return ts
}

// TestFloat32BoundsSeeWrongSettings: batches of the usual size (1024 and
// 4096 rows, rewards in [0, 1]) logged with TRL's float32 rloo-whitened
// and normalize_then_sum agree under their settings with the score in
// float32, and a weight of y 2% off, or under gdpo a wrong std
// (population for sample) or epsilon (1e-8 for 1e-4), still differs: the
// bound of a batch's float32 sums grows with their depth in torch's
// summation, not with the rows.
func TestFloat32BoundsSeeWrongSettings(t *testing.T) {
	type setting struct {
		name  string
		wy    float64
		std   string
		eps   *float64
		agree bool
	}
	right, weight := setting{"its settings", 0.5, "", nil, true}, setting{"y weighted 0.49", 0.49, "", nil, false}
	for _, c := range []struct {
		method   engine.Method
		trainer  func(xs, ys [][]float32) [][]float32
		settings []setting
	}{
		{engine.RLOOWhitened, trlRLOOWhitened32(0.5), []setting{right, weight}},
		{engine.GDPO, trlNormalizeThenSum32(0.5), []setting{right, weight,
			{"population std", 0.5, "population", nil, false}, {"epsilon 1e-8", 0.5, "", ptr(1e-8), false}}},
	} {
		for _, rows := range []int{1024, 4096} {
			ts := unitBatch(rand.New(rand.NewPCG(5, uint64(rows))), rows/8, c.trainer)
			for _, set := range c.settings {
				cfg := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}, {Name: "y", Expr: "y", Weight: ptr(set.wy)}},
					LoggedAdvantage: "adv", ScorePrecision: "float32", Std: set.std, Epsilon: set.eps}
				rc, err := engine.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				res := rc.Compute(ts, c.method)
				d, _ := CompareLogged(res, &res.Ranking.Batches[0])
				if d.Reproduced() != set.agree {
					t.Errorf("%s, %d rows, %s: %d of %d rows differ, reproduced %v, want %v", c.method, rows, set.name, d.Differing, d.Rows, d.Reproduced(), set.agree)
				}
			}
		}
	}
}

// TestFloat32TiedGroupsAgree: a group tied in float32 leaves the bound
// on, in batches of 8 groups of reward-model scale (x near base, an std
// of 0.01 in a group), where the float32 rounding passes the tolerance:
// rloo-whitened's group whose scores all tie (its leave-one-out residue
// within RLOOFloat32Bound, divided by the batch's std), gdpo's group
// whose binary y is all 1 (z exactly 0 there, exactSum32).
func TestFloat32TiedGroupsAgree(t *testing.T) {
	for _, c := range []struct {
		method     engine.Method
		base       float64
		tieX, tieY bool
		binaryY    bool
		trainer    func(xs, ys [][]float32) [][]float32
	}{
		{engine.RLOOWhitened, 20, true, true, false, trlRLOOWhitened32(0.5)},
		{engine.GDPO, 40, false, true, true, trlNormalizeThenSum32(0.5)},
	} {
		rnd := rand.New(rand.NewPCG(21, 5))
		xs, ys := make([][]float32, 8), make([][]float32, 8)
		for g := range xs {
			off := 0.03 * rnd.NormFloat64()
			for j := range 8 {
				x, y := float32(c.base+off+0.01*rnd.NormFloat64()), float32(3+0.005*rnd.NormFloat64())
				if c.binaryY {
					y = float32(j % 2)
				}
				if g == 0 && c.tieX {
					x = float32(c.base + 0.0123)
				}
				if g == 0 && c.tieY {
					y = 1
				}
				xs[g], ys[g] = append(xs[g], x), append(ys[g], y)
			}
		}
		var ts []scoring.Trajectory
		for g, as := range c.trainer(xs, ys) {
			for j, a := range as {
				ts = append(ts, enginetest.Traj(0, strconv.Itoa(g), "x", float64(xs[g][j]), "y", float64(ys[g][j]), "adv", float64(a)))
			}
		}
		if d, _ := compareMethod(t, ts, c.method, 0.5, "float32"); !d.Reproduced() {
			t.Errorf("%s, group 0 tied: %d of %d rows differ", c.method, d.Differing, d.Rows)
		}
	}
}

// trlScaleBatch32 is TRL's scale_rewards="batch" advantage of the sums
// x + w y in float32: each group's mean, the batch's sample std plus
// 1e-4 (_generate_and_score_completions).
func trlScaleBatch32(w float32) func(xs, ys [][]float32) [][]float32 {
	return func(xs, ys [][]float32) [][]float32 {
		var all []float32
		sums := make([][]float32, len(xs))
		for g := range xs {
			for j := range xs[g] {
				sums[g] = append(sums[g], xs[g][j]+w*ys[g][j])
			}
			all = append(all, sums[g]...)
		}
		std := float32Std(all, pairwise)
		out := make([][]float32, len(xs))
		for g, r := range sums {
			mean := sequential(r) / float32(len(r))
			for _, v := range r {
				out[g] = append(out[g], (v-mean)/(std+1e-4))
			}
		}
		return out
	}
}

// TestGRPOScaleBatchSeesWrongSettings: a batch of 4096 rows (rewards in
// [0, 1]) logged with TRL's float32 grpo under scale_rewards="batch"
// agrees under its settings with the score in float32, and a population
// std or an epsilon of 1e-8 still differs: the batch's std's bound grows
// with the depth of torch's sum, not the rows.
func TestGRPOScaleBatchSeesWrongSettings(t *testing.T) {
	ts := unitBatch(rand.New(rand.NewPCG(7, 4096)), 512, trlScaleBatch32(0.5))
	for _, c := range []struct {
		name  string
		std   string
		eps   *float64
		agree bool
	}{
		{"its settings", "", nil, true},
		{"population std", "population", nil, false},
		{"epsilon 1e-8", "", ptr(1e-8), false},
	} {
		rc, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}, {Name: "y", Expr: "y", Weight: ptr(0.5)}},
			LoggedAdvantage: "adv", ScorePrecision: "float32", Scale: "batch", Std: c.std, Epsilon: c.eps})
		if err != nil {
			t.Fatal(err)
		}
		res := rc.Compute(ts, engine.GRPO)
		d, _ := CompareLogged(res, &res.Ranking.Batches[0])
		if d.Reproduced() != c.agree {
			t.Errorf("%s: %d of %d rows differ, reproduced %v, want %v", c.name, d.Differing, d.Rows, d.Reproduced(), c.agree)
		}
	}
}

// trlGRPO32 is TRL's sum_then_normalize advantage of the sums x + w y in
// float32 under scale_rewards group (each group's mean and sample std
// plus 1e-4) or none (the mean alone).
func trlGRPO32(w float32, scale engine.Scale) func(xs, ys [][]float32) [][]float32 {
	return func(xs, ys [][]float32) [][]float32 {
		out := make([][]float32, len(xs))
		for g := range xs {
			r := make([]float32, len(xs[g]))
			for j := range r {
				r[j] = xs[g][j] + w*ys[g][j]
			}
			mean, std := sequential(r)/float32(len(r)), float32Std(r, sequential)
			for _, v := range r {
				a := v - mean
				if scale != engine.ScaleNone {
					a /= std + 1e-4
				}
				out[g] = append(out[g], a)
			}
		}
		return out
	}
}

// TestFloat32BoundsSeeOnePercentWeight: batches of 1024 and 4096 rows at
// a reward model's scale (x near 20, an std of 0.01 in a group, y near 3
// with 0.005), logged with TRL's float32 advantage, agree under their
// settings with the score in float32, and a weight 1% off still differs:
// y's (0.495 for 0.5) where the advantage is divided by an std, x's (0.99
// for 1) where it is not (grpo scale none, rloo: y's 1% moves it by about
// the fixed tolerance, float32 or not). Nearer 200 the float32 bound of a
// group's advantage passes the 1% weight's effect, and it is not seen.
func TestFloat32BoundsSeeOnePercentWeight(t *testing.T) {
	for _, c := range []struct {
		method  engine.Method
		scale   engine.Scale
		trainer func(xs, ys [][]float32) [][]float32
		wx, wy  float64 // the weight 1% off
	}{
		{engine.GRPO, engine.ScaleGroup, trlGRPO32(0.5, engine.ScaleGroup), 1, 0.495},
		{engine.GRPO, engine.ScaleBatch, trlScaleBatch32(0.5), 1, 0.495},
		{engine.GRPO, engine.ScaleNone, trlGRPO32(0.5, engine.ScaleNone), 0.99, 0.5},
		{engine.RLOO, "", float32MethodCases[0].trainer, 0.99, 0.5},
		{engine.RLOOWhitened, "", trlRLOOWhitened32(0.5), 1, 0.495},
		{engine.GDPO, "", trlNormalizeThenSum32(0.5), 1, 0.495},
	} {
		for _, rows := range []int{1024, 4096} {
			ts := trainerBatches(rand.New(rand.NewPCG(9, uint64(rows))), 1, rows/8, 20, c.trainer)
			for _, set := range []struct {
				name   string
				wx, wy float64
				agree  bool
			}{{"its settings", 1, 0.5, true}, {"a weight 1% off", c.wx, c.wy, false}} {
				rc, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(set.wx)}, {Name: "y", Expr: "y", Weight: ptr(set.wy)}},
					LoggedAdvantage: "adv", ScorePrecision: "float32", Scale: string(c.scale)})
				if err != nil {
					t.Fatal(err)
				}
				res := rc.Compute(ts, c.method)
				d, _ := CompareLogged(res, &res.Ranking.Batches[0])
				if d.Reproduced() != set.agree {
					t.Errorf("%s %s, %d rows, %s: %d of %d rows differ, reproduced %v, want %v", c.method, c.scale, rows, set.name, d.Differing, d.Rows, d.Reproduced(), set.agree)
				}
			}
		}
	}
}

// TestFloat32CoarseBoundsAgree: batches of 1024 rows far from 0 (x near
// 100, 200 and 2000, an std of 0.01 in a group), logged with TRL's
// float32 rloo-whitened and normalize_then_sum, agree under their
// settings, where the errors of the values whitened pass 1% of their std
// (whitened32's coarse bound, once switched off: a false ALERT); a
// weight of y 10% off, or the other method, differs or is said
// indistinguishable at this scale (Diff.Float32Coarse).
func TestFloat32CoarseBoundsAgree(t *testing.T) {
	for _, c := range []struct {
		method, other engine.Method
		trainer       func(xs, ys [][]float32) [][]float32
	}{
		{engine.RLOOWhitened, engine.GDPO, trlRLOOWhitened32(0.5)},
		{engine.GDPO, engine.RLOOWhitened, trlNormalizeThenSum32(0.5)},
	} {
		for _, base := range []float64{100, 200, 2000} {
			ts := trainerBatches(rand.New(rand.NewPCG(13, uint64(base))), 1, 128, base, c.trainer)
			d, _ := compareMethod(t, ts, c.method, 0.5, "float32")
			if !d.Reproduced() {
				t.Errorf("%s near %g, its settings: %d of %d rows differ (max %g)", c.method, base, d.Differing, d.Rows, d.MaxAbsDiff)
			}
			if base >= 200 && d.Float32Coarse == 0 {
				t.Errorf("%s near %g, its settings: agreeing, not said to be within a coarse bound", c.method, base)
			}
			for _, wrong := range []struct {
				name   string
				method engine.Method
				wy     float64
			}{{"y weighted 0.45", c.method, 0.45}, {string(c.other), c.other, 0.5}} {
				d, _ := compareMethod(t, ts, wrong.method, wrong.wy, "float32")
				if d.Reproduced() && d.Float32Coarse == 0 {
					t.Errorf("%s near %g, %s: reproduced, not said to be within a coarse bound", c.method, base, wrong.name)
				}
			}
		}
	}
}
