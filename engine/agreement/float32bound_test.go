package agreement

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/stats"
)

// trlFloat32Advantages returns TRL's scale group advantages of xs in
// float32 (nanmean, then nanstd's mean of the squared deviations times n
// / (n - 1), square-rooted, then (x - mean) / (std + eps)), sum the
// order torch sums in.
func trlFloat32Advantages(xs []float32, eps float32, sum func([]float32) float32) []float64 {
	mean, std := sum(xs)/float32(len(xs)), float32Std(xs, sum)
	a := make([]float64, len(xs))
	for i, x := range xs {
		a[i] = float64((x - mean) / (std + eps))
	}
	return a
}

// reversed sums right to left.
func reversed(xs []float32) float32 {
	s := float32(0)
	for i := len(xs) - 1; i >= 0; i-- {
		s += xs[i]
	}
	return s
}

// group32Bound returns the exact scale group advantages of xs (float64,
// as grpo computes them) and GRPOFloat32 of the group.
func group32Bound(xs []float32, eps float64) ([]float64, GRPOFloat32) {
	s := make([]float64, len(xs))
	for i, x := range xs {
		s[i] = float64(x)
	}
	mean, std := stats.Mean(s), stats.SampleStd(s)
	a := make([]float64, len(s))
	for i := range s {
		a[i] = (s[i] - mean) / (std + eps)
	}
	g := GRPOFloat32{Correction: 1, Divisor: std + eps}
	g.MeanOf(s)
	g.StdOf(s)
	return a, g
}

// TestGRPOFloat32BoundHolds: TRL's float32 advantage, its sums in three
// orders, stays within GRPOFloat32.Bound of the exact one for groups of
// 2 to 64 scores near 20 with an std of 0.01, near 1000 with 0.5, near
// -2000 with 800 and in [0, 1], and on scores near 20 it does leave the
// fixed tolerance (the case the bound is for).
func TestGRPOFloat32BoundHolds(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 4))
	beyondTolerance := false
	for _, c := range []struct{ base, sd float64 }{{20, 0.01}, {1000, 0.5}, {-2000, 800}, {0.5, 0.3}} {
		for _, n := range []int{2, 3, 7, 8, 16, 64} {
			for range 200 {
				xs := make([]float32, n)
				for i := range xs {
					xs[i] = float32(c.base + c.sd*rnd.NormFloat64())
				}
				exact, g := group32Bound(xs, 1e-4)
				for _, sum := range []func([]float32) float32{sequential, pairwise, reversed} {
					for i, a := range trlFloat32Advantages(xs, 1e-4, sum) {
						d := math.Abs(a - exact[i])
						beyondTolerance = beyondTolerance || d > Tolerance
						if b := g.Bound(exact[i]); !(d <= b) {
							t.Fatalf("base %v, sd %v, n %d: |float32 - exact| %.3g beyond the bound %.3g", c.base, c.sd, n, d, b)
						}
					}
				}
			}
		}
	}
	if !beyondTolerance {
		t.Error("no float32 advantage left the fixed tolerance: the cases do not test the bound")
	}
}

// TestGRPOFloat32BoundTight: on rewards in [0, 1] with an std near 0.3
// the bound stays far below the fixed tolerance (it hides no difference
// the tolerance would see), and it grows as |s| / std: some 1e-3 near 20
// with an std of 0.01, still below what a weight of 2 changes there
// (epsilon against the std: A epsilon / (2 std), some 5e-3 for |A| 1).
func TestGRPOFloat32BoundTight(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		xs := make([]float32, 8)
		for i := range xs {
			xs[i] = float32(rnd.Float64())
		}
		exact, g := group32Bound(xs, 1e-4)
		if g.Divisor < 0.2 || g.Divisor > 0.45 {
			continue
		}
		for _, a := range exact {
			if b := g.Bound(a); !(b > 0 && b < Tolerance/10) {
				t.Fatalf("rewards in [0, 1], std %.3g: bound %.3g at A %.3g, want positive and far below %v", g.Divisor, b, a, Tolerance)
			}
		}
	}
	g := GRPOFloat32{N: 8, MaxAbs: 20, AbsMean: 20, StdN: 8, StdRMS: 20, Correction: 1, Divisor: 0.01 + 1e-4}
	if b, weight2 := g.Bound(1), 1*1e-4/(2*0.01); !(b > Tolerance && b < weight2/2) {
		t.Errorf("scores near 20, std 0.01: bound %.3g at A 1, want beyond %v and below half of a weight of 2's %.3g", b, Tolerance, weight2)
	}
	if b := (GRPOFloat32{N: 8, MaxAbs: 1, AbsMean: 0.5, Divisor: 1}).Bound(0.5); !(b > 0 && b < 1e-6) {
		t.Errorf("unscaled rewards in [0, 1]: bound %.3g, want some ulps", b)
	}
	// A divisor not known to within half of itself: no bound.
	if b := (GRPOFloat32{N: 8, MaxAbs: 1000, AbsMean: 1000, StdN: 8, StdRMS: 1000, Correction: 1, Divisor: 1e-6}).Bound(1); b != 0 {
		t.Errorf("an std lost in float32's noise: bound %v, want 0", b)
	}
}

// TestFloat32AgreeingCompare: a batch logged with TRL's float32 advantage
// of scores near 20 (std 0.01 in a group) agrees under grpo with the
// score in float32, rows beyond the fixed tolerance within the bound,
// and MatchLogged warns of nothing; not with the score in float64 (no
// float32 trainer assumed); and scale batch, or a weight of 2, against
// that log of scale group still differs.
func TestFloat32AgreeingCompare(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 1))
	var ts []scoring.Trajectory
	var logged []float64
	for g := range 8 {
		off := 0.03 * rnd.NormFloat64()
		group := make([]float32, 8)
		for j := range group {
			group[j] = float32(20 + off + 0.01*rnd.NormFloat64())
		}
		for j, a := range trlFloat32Advantages(group, 1e-4, sequential) {
			ts = append(ts, enginetest.Traj(0, string(rune('a'+g)), "x", float64(group[j]), "adv", a))
			logged = append(logged, a)
		}
	}
	compare := func(precision string, weight float64, scale engine.Scale) (Diff, *engine.Result) {
		c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(weight)}}, LoggedAdvantage: "adv", ScorePrecision: precision, Scale: string(scale)})
		if err != nil {
			t.Fatal(err)
		}
		res := c.Compute(ts, engine.GRPO)
		d, _ := CompareLogged(res, &res.Ranking.Batches[0])
		return d, res
	}
	c, res := compare("float32", 1, engine.ScaleGroup)
	raw := 0.0
	for i, l := range logged {
		raw = max(raw, math.Abs(res.Rewards[i]-l))
	}
	if !(raw > Tolerance) || c.Rows != len(logged) || c.Differing != 0 || !c.Reproduced() {
		t.Errorf("float32 log, max |diff| %.3g: %+v; want no row differing, reproduced", raw, c)
	}
	if w := MatchLogged(res.Evaluation, res.Options).Warning(); w != "" {
		t.Errorf("MatchLogged warns: %s", w)
	}
	if c, _ := compare("float64", 1, engine.ScaleGroup); c.Differing == 0 {
		t.Error("score in float64: no row differs, want the float32 rounding beyond the tolerance")
	}
	for _, wrong := range []struct {
		weight float64
		scale  engine.Scale
	}{{1, engine.ScaleBatch}, {2, engine.ScaleGroup}} {
		if c, _ := compare("float32", wrong.weight, wrong.scale); c.Differing < len(logged)/2 {
			t.Errorf("weight %v, scale %s against a log of weight 1, scale group: %d of %d rows differ, want half or more", wrong.weight, wrong.scale, c.Differing, len(logged))
		}
	}
}

// BenchmarkCompareLoggedFloat32Rounding compares 200k rows in groups of 8,
// each logged TRL's float32 advantage, in 100 batches: scores near 20
// with an std of 0.01 (rows beyond Reproduces, checked against the
// bound) and uniform in [0, 1] (none), with the scores in float32 and
// float64 (no bound: the reference).
func BenchmarkCompareLoggedFloat32Rounding(b *testing.B) {
	for _, data := range []struct {
		name      string
		base, std float64
	}{{"near20", 20, 0.01}, {"unit", 0.5, 0.3}} {
		rnd := rand.New(rand.NewPCG(8, 20))
		var ts []scoring.Trajectory
		group := make([]float32, 8)
		for g := range 25_000 {
			prompt := strconv.Itoa(g)
			for j := range group {
				group[j] = float32(data.base + data.std*rnd.NormFloat64())
			}
			for j, a := range trlFloat32Advantages(group, 1e-4, sequential) {
				ts = append(ts, enginetest.Traj(int64(g/250), prompt, "x", float64(group[j]), "adv", a))
			}
		}
		for _, precision := range []string{"float32", "float64"} {
			c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}}, LoggedAdvantage: "adv", ScorePrecision: precision})
			if err != nil {
				b.Fatal(err)
			}
			res := c.Compute(ts, engine.GRPO)
			res.Finish()
			if all, _ := compareLoggedBatches(res, len(res.Ranking.Batches), nil); precision == "float32" && all.Differing != 0 {
				b.Fatalf("%s: %d rows differing", data.name, all.Differing)
			}
			b.Run(data.name+"/"+precision, func(b *testing.B) {
				for b.Loop() {
					compareLoggedBatches(res, len(res.Ranking.Batches), nil)
				}
			})
		}
	}
}

// float32Std is nanstd of xs in float32 (the mean, the mean of the
// squared deviations times n / (n - 1), square-rooted), summed by sum.
func float32Std(xs []float32, sum func([]float32) float32) float32 {
	n := len(xs)
	mean := sum(xs) / float32(n)
	sq := make([]float32, n)
	for i, x := range xs {
		d := x - mean
		sq[i] = d * d
	}
	return float32(math.Sqrt(float64(sum(sq) / float32(n) * (float32(n) / float32(n-1)))))
}

// TestGRPOFloat32BoundHoldsBatchAndUnscaled: TRL's scale_rewards batch
// (each group's float32 mean, the batch's float32 std) and none (no
// division), and verl's epsilon 1e-6, stay within GRPOFloat32.Bound of
// the exact advantage, the sums in three orders, 4 groups of 8 scores
// near 20 (std 0.01 within a group, 0.03 between) and in [0, 1].
func TestGRPOFloat32BoundHoldsBatchAndUnscaled(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 7))
	for _, c := range []struct{ base, sd, between float64 }{{20, 0.01, 0.03}, {0.5, 0.3, 0.1}} {
		for range 100 {
			var batch []float32
			for range 4 {
				off := c.between * rnd.NormFloat64()
				for range 8 {
					batch = append(batch, float32(c.base+off+c.sd*rnd.NormFloat64()))
				}
			}
			all := make([]float64, len(batch))
			for i, x := range batch {
				all[i] = float64(x)
			}
			batchStd := stats.SampleStd(all)
			for _, sum := range []func([]float32) float32{sequential, pairwise, reversed} {
				std32 := float32Std(batch, sum)
				for g := range 4 {
					xs, s := batch[8*g:8*g+8], all[8*g:8*g+8]
					mean32, mean := sum(xs)/8, stats.Mean(s)
					for _, k := range []struct {
						what    string
						eps     float64
						divided bool
						std32   float32
						std     float64
						stdOf   []float64
					}{
						{"TRL scale batch", 1e-4, true, std32, batchStd, all},
						{"TRL scale none", 0, false, 1, 1, nil},
						{"verl, epsilon 1e-6", 1e-6, true, float32Std(xs, sum), stats.SampleStd(s), s},
					} {
						g := GRPOFloat32{Correction: 1, Divisor: 1}
						g.MeanOf(s)
						if k.divided {
							g.StdOf(k.stdOf)
							g.Divisor = k.std + k.eps
						}
						for i, x := range xs {
							got := x - mean32
							if k.divided {
								got /= k.std32 + float32(k.eps)
							}
							exact := (s[i] - mean) / g.Divisor
							if d, b := math.Abs(float64(got)-exact), g.Bound(exact); !(d <= b) {
								t.Fatalf("%s, base %v: |float32 - exact| %.3g beyond the bound %.3g", k.what, c.base, d, b)
							}
						}
					}
				}
			}
		}
	}
}

// TestMarkWithinBound: a row is marked when |reward − logged| is within
// the bound, the bound itself counting, not beyond it nor with a NaN
// logged advantage; the set, made on the first mark, covers the batch's
// rows from its least to its largest.
func TestMarkWithinBound(t *testing.T) {
	res := &engine.Result{
		Rewards:    []float64{0, 1, 1, 1, 1, 1},
		Evaluation: &engine.Evaluation{Logged: []float64{0, 1.5, 1.25, 2, math.NaN(), 1}},
	}
	batch := &engine.Batch{Members: []int{4, 2, 5, 1, 3}}
	var rows rowSet
	for _, c := range []struct {
		i    int
		want bool
	}{{3, false}, {4, false}, {1, true}, {2, true}} {
		if got := markWithinBound(res, batch, &rows, c.i, 0.5); got != c.want || rows.has(c.i) != c.want {
			t.Errorf("row %d: marked %v, in the set %v, want %v", c.i, got, rows.has(c.i), c.want)
		}
	}
	if rows.first != 1 || len(rows.marked) != 5 {
		t.Errorf("the set covers %d rows from %d, want the batch's 5 from 1", len(rows.marked), rows.first)
	}
}
