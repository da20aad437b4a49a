package agreement

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/internal/testkit"
	"github.com/rewardlens/rewardlens/stats"
)

func TestCompareRewards(t *testing.T) {
	// One group x = 1, 2, 3 plus an invalid row. absolute (normalize off)
	// gives 1, 2, 3; rloo gives 3/2 (s - 2) = -1.5, 0, 1.5.
	ts := enginetest.Scored(map[string][]float64{"g": {1, 2, 3, math.NaN()}}, "g")
	ev := engine.Evaluate(oneObjective(t, engine.Options{}).Scorer, ts)
	a := ev.Compute(engine.Options{Method: engine.Absolute, Scope: engine.ScopeGroup})
	b := ev.Compute(engine.Options{Method: engine.RLOO, Scope: engine.ScopeGroup})
	c := CompareRewards(a, b, 0)
	if c.N != 3 || !near(c.Spearman, 1) || !near(c.Kendall, 1) {
		t.Errorf("N %d spearman %v kendall %v, want 3, 1, 1", c.N, c.Spearman, c.Kendall)
	}
	if c.PosNeg != 1 || c.NegPos != 0 {
		t.Errorf("sign disagreements %d, %d, want 1, 0", c.PosNeg, c.NegPos)
	}
	// k = ceil(0.3) = 1: the third trajectory tops both.
	if c.TopK != 1 || c.TopShared != 1 || c.TopOverlap != 1 {
		t.Errorf("top overlap %d of %d = %v, want 1 of 1 = 1", c.TopShared, c.TopK, c.TopOverlap)
	}
}

// TestCompareSettledNeitherSign checks that a grpo group whose scores all
// equal, whose computed rewards are a rounding leftover (-1.1e-12), counts
// as neither sign against a positive B, as its shown reward 0 says
// (engine.Result.ShownReward), both A and B, and against the log.
func TestCompareSettledNeitherSign(t *testing.T) {
	const x = 0.9369000000000001
	ts := enginetest.Scored(map[string][]float64{"same": {x, x, x, x, x, x, x}}, "same")
	ev := engine.Evaluate(oneObjective(t, engine.Options{}).Scorer, ts)
	grpo := ev.Compute(engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Scale: engine.ScaleGroup, Normalize: true, Epsilon: 1e-4})
	abs := ev.Compute(engine.Options{Method: engine.Absolute, Scope: engine.ScopeGroup})
	if grpo.Rewards[0] >= 0 {
		t.Fatalf("grpo reward %v: no negative rounding leftover to test", grpo.Rewards[0])
	}
	for _, c := range []Comparison{CompareRewards(grpo, abs, 0), CompareRewards(abs, grpo, 0)} {
		if c.PosNeg != 0 || c.NegPos != 0 || c.A[0]*c.B[0] != 0 {
			t.Errorf("sign disagreements %d, %d (A %v, B %v), want none", c.PosNeg, c.NegPos, c.A[0], c.B[0])
		}
	}
	ev.Logged = []float64{1, 1, 1, 1, 1, 1, 1}
	if g := GatherLogged(grpo, 0); g.A[0] != 0 {
		t.Errorf("against the log, A = %v, want 0", g.A[0])
	}
}

// CompareSides' orders and statistics are those of the computation from
// scratch: the stable comparison sorts by (A, B) and by (B, A), Kendall's
// tau and Spearman's rho on the values, TopShared and the sign
// disagreements; on A with few distinct values against B with ties, both
// ways round, against distinct values both ways round, distinct values but
// for a few ties against each (u), a side against itself, and values with
// NaNs, infinities and both zeros; below and above the sizes the sorts
// split between two goroutines, with a run of pairs tied in both from the
// first position across kendall's chunks (v, 0 but for one in a hundred).
func TestCompareSidesMatchesFromScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	pool := []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), -1.5, 2.25, 3}
	var buf Buffers
	for _, n := range []int{0, 1, 2, 300, 50_000, 70_000} {
		x, y, z, w, u, v := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i], z[i] = float64(rng.IntN(7)), math.Round(rng.NormFloat64()*50)/50, rng.Float64()
			if rng.IntN(100) == 0 {
				v[i] = 1
			}
			w[i] = pool[rng.IntN(len(pool))]
			if rng.IntN(2) == 0 {
				w[i] = rng.NormFloat64()
			}
			// Distinct but for a few runs of ties (sortBy's runs).
			u[i] = rng.Float64()
			if i > 0 && rng.IntN(24) == 0 {
				u[i] = u[rng.IntN(i)]
			}
		}
		index := make([]int, n)
		for i := range index {
			index[i] = i
		}
		side := func(v []float64) *Side { return rankedSide(index, v, &buf) }
		sx, sy, sz, sw, su, sv := side(x), side(y), side(z), side(w), side(u), side(v)
		for _, ab := range [][2]*Side{{sx, sy}, {sy, sx}, {sz, sx}, {sx, sz}, {sz, sz}, {sy, sy}, {sw, sy}, {sx, sw},
			{su, sx}, {sx, su}, {su, sz}, {sz, su}, {su, su}, {su, sw}, {sv, sv}, {sv, sx}} {
			c := CompareSides(ab[0], ab[1], &buf)
			byA, byB := make([]int32, n), make([]int32, n)
			for i := range byA {
				byA[i], byB[i] = int32(i), int32(i)
			}
			slices.SortStableFunc(byA, func(i, j int32) int { return cmp.Or(cmp.Compare(c.A[i], c.A[j]), cmp.Compare(c.B[i], c.B[j])) })
			slices.SortStableFunc(byB, func(i, j int32) int { return cmp.Or(cmp.Compare(c.B[i], c.B[j]), cmp.Compare(c.A[i], c.A[j])) })
			if !slices.Equal(c.ByA, byA) || !slices.Equal(c.ByB, byB) {
				t.Fatalf("n=%d: the sorted orders differ from the stable comparison sorts", n)
			}
			if k, s := stats.KendallTauB(c.A, c.B), stats.Spearman(c.A, c.B); !same(c.Kendall, k) || !same(c.Spearman, s) {
				t.Errorf("n=%d: Kendall %v Spearman %v, from scratch %v %v", n, c.Kendall, c.Spearman, k, s)
			}
			if want := stats.TopShared(c.A, c.B, c.TopK); c.TopShared != want {
				t.Errorf("n=%d: TopShared %d, from scratch %d", n, c.TopShared, want)
			}
			if posNeg, negPos := stats.SignDisagreements(c.A, c.B); c.PosNeg != posNeg || c.NegPos != negPos {
				t.Errorf("n=%d: sign disagreements %d %d, from scratch %d %d", n, c.PosNeg, c.NegPos, posNeg, negPos)
			}
		}
	}
}

// kendall counts the pairs tied in both across its chunks: (A, B) equal
// on a run that fills two chunks and ends in a third, and on runs of
// about three within the rest, where B, A / 1000, is tied across the
// changes of A; Kendall's tau-b as from scratch.
func TestKendallTiedAcrossChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	n := 3*gatherChunk + 100
	runEnd := 2*gatherChunk + 5000
	a, b, index := make([]float64, n), make([]float64, n), make([]int, n)
	for i := range a {
		index[i] = i
		if i >= runEnd {
			a[i] = float64(1 + rng.IntN(n/3))
			b[i] = float64(int(a[i]) / 1000)
		}
	}
	var buf Buffers
	c := CompareSides(rankedSide(index, a, &buf), rankedSide(index, b, &buf), &buf)
	if want := stats.KendallTauB(a, b); c.Kendall != want {
		t.Errorf("Kendall %v, from scratch %v", c.Kendall, want)
	}
}

// kendall counts the pairs tied in both along B's order when B has fewer
// distinct values than A: A in thirds and B in halves of the positions
// (shuffled), so that along (B, A) the last A of B's first half equals
// the first of its second, across a change of B (not a tie in both);
// Kendall's tau-b as from scratch, both ways round, at a size within a
// chunk and across chunks.
func TestKendallTiedAlongFewerDistinct(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	for _, n := range []int{60, 3*gatherChunk + 30} {
		a, b, index := make([]float64, n), make([]float64, n), make([]int, n)
		for i, p := range rng.Perm(n) {
			index[i] = i
			a[p], b[p] = float64(3*i/n), float64(2*i/n)
		}
		var buf Buffers
		sa, sb := rankedSide(index, a, &buf), rankedSide(index, b, &buf)
		if c, want := CompareSides(sa, sb, &buf), stats.KendallTauB(a, b); c.Kendall != want {
			t.Errorf("n=%d: Kendall %v, from scratch %v", n, c.Kendall, want)
		}
		if c, want := CompareSides(sb, sa, &buf), stats.KendallTauB(b, a); c.Kendall != want {
			t.Errorf("n=%d: Kendall of B with A %v, from scratch %v", n, c.Kendall, want)
		}
	}
}

// same reports whether a and b are the same float64, NaN the same as NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// Gather takes the sides it is given that are still the results' on the
// batch, B's for a new A, its values being that side's, and Ranked makes
// only the others; one side when A is B.
func TestSidesReused(t *testing.T) {
	ts := enginetest.Scored(map[string][]float64{"g": {1, 2, 3, math.NaN(), 2, 5, 1}}, "g")
	ev := engine.Evaluate(oneObjective(t, engine.Options{}).Scorer, ts)
	abs := ev.Compute(engine.Options{Method: engine.Absolute, Scope: engine.ScopeGroup})
	rloo := ev.Compute(engine.Options{Method: engine.RLOO, Scope: engine.ScopeGroup})
	grpo := ev.Compute(engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup})
	var buf Buffers
	sa, sb := Gather(abs, rloo, 0, nil, &buf).Ranked(&buf)
	if len(sa.Index) != 6 || &sa.Index[0] != &sb.Index[0] {
		t.Fatalf("the sides' trajectories %v and %v, want the 6 valid ones, shared", sa.Index, sb.Index)
	}
	g := Gather(grpo, rloo, 0, []*Side{sa, sb}, &buf)
	if &g.B[0] != &sb.Values[0] || &g.Index[0] != &sb.Index[0] {
		t.Error("B's values and trajectories were gathered again rather than taken from its side")
	}
	for j, i := range g.Index {
		if g.A[j] != grpo.Rewards[i] || g.B[j] != rloo.Rewards[i] {
			t.Fatalf("gathered values %v, %v at %d, want the rewards of trajectory %d", g.A[j], g.B[j], j, i)
		}
	}
	sg, sb2 := g.Ranked(&buf)
	if sb2 != sb || sg == sa || &sg.Values[0] != &g.A[0] {
		t.Errorf("a new A: B's side reused %v (want true), A's %v (want false), A's values the gathered ones %v", sb2 == sb, sg == sa, &sg.Values[0] == &g.A[0])
	}
	if s1, s2 := Gather(rloo, rloo, 0, nil, &buf).Ranked(&buf); s1 != s2 {
		t.Error("A is B: two sides")
	}
	c := CompareSides(sg, sb2, &buf)
	if want := CompareRewards(grpo, rloo, 0); c.Kendall != want.Kendall || c.Spearman != want.Spearman || c.N != 6 {
		t.Errorf("with a reused side: N %d Kendall %v Spearman %v, want 6 %v %v", c.N, c.Kendall, c.Spearman, want.Kendall, want.Spearman)
	}
}

// Recycle: the next side and comparison made with the buffers take the
// arrays given back, and compute what fresh ones compute.
func TestRecycle(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	const n = 1000
	x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
	index := make([]int, n)
	for i := range x {
		x[i], y[i], z[i], index[i] = rng.NormFloat64(), float64(rng.IntN(9)), rng.Float64(), i
	}
	var buf Buffers
	sx, sy := rankedSide(index, x, &buf), rankedSide(index, y, &buf)
	first := CompareSides(sx, sy, &buf)
	buf.Recycle([]*Side{sx, sx}, first.ByA, first.ByB)
	vz := take(&buf.floats, n)
	parallel.Gather(vz, z, index)
	sz := rankedSide(index, vz, &buf)
	c := CompareSides(sz, sy, &buf)
	if &sz.order[0] != &sx.order[0] || &sz.codes[0] != &sx.codes[0] || &c.ByA[0] != &first.ByA[0] || &c.ByB[0] != &first.ByB[0] {
		t.Error("the side and the comparison after Recycle did not take the arrays given back")
	}
	var fresh Buffers
	want := CompareSides(rankedSide(index, slices.Clone(z), &fresh), rankedSide(index, y, &fresh), &fresh)
	if c.Kendall != want.Kendall || c.Spearman != want.Spearman || c.TopShared != want.TopShared ||
		!slices.Equal(c.ByA, want.ByA) || !slices.Equal(c.ByB, want.ByB) || !slices.Equal(c.A, want.A) {
		t.Errorf("with recycled arrays: Kendall %v Spearman %v, fresh %v %v", c.Kendall, c.Spearman, want.Kendall, want.Spearman)
	}
}

// RankedSide makes the side Gather takes as known for its result: a
// comparison with another result of the evaluation ranks only the other
// side, and compares as from scratch.
func TestRankedSideIsKnown(t *testing.T) {
	ts := enginetest.Scored(map[string][]float64{"g": {1, 2, 3, math.NaN(), 2, 5, 1}, "h": {4, 0, 4, 7}}, "g", "h")
	ev := engine.Evaluate(oneObjective(t, engine.Options{}).Scorer, ts)
	a := ev.Compute(engine.Options{Method: engine.Absolute, Scope: engine.ScopeBatch})
	b := ev.Compute(engine.Options{Method: engine.RLOO, Scope: engine.ScopeBatch})
	var buf Buffers
	side := RankedSide(a, 0, &buf)
	g := Gather(a, b, 0, []*Side{side}, &buf)
	sa, sb := g.Ranked(&buf)
	if sa != side || sb == side {
		t.Fatalf("Gather did not take the side made before as A's (A %p, B %p, made %p)", sa, sb, side)
	}
	got, want := CompareSides(sa, sb, &buf), CompareRewards(a, b, 0)
	if !same(got.Kendall, want.Kendall) || !same(got.Spearman, want.Spearman) || got.TopShared != want.TopShared || !slices.Equal(got.ByA, want.ByA) {
		t.Errorf("with the side made before: Kendall %v Spearman %v top %d, want %v %v %d", got.Kendall, got.Spearman, got.TopShared, want.Kendall, want.Spearman, want.TopShared)
	}
}

// BenchmarkKendallGRPO1M counts Kendall's tau-b of two sides shaped like
// the Compare tab's on a million values (testkit.GRPOShaped), from their
// orders.
func BenchmarkKendallGRPO1M(b *testing.B) {
	x, grpo := testkit.GRPOShaped(1_000_000, rand.New(rand.NewPCG(3, 4)))
	index := make([]int, len(x))
	for i := range index {
		index[i] = i
	}
	var buf Buffers
	sa, sb := rankedSide(index, x, &buf), rankedSide(index, grpo, &buf)
	c := CompareSides(sa, sb, &buf)
	for b.Loop() {
		kendall(sa, sb, c.ByA, c.ByB, &buf)
	}
}

// BenchmarkKendallFewValues1M counts Kendall's tau-b of the GRPO-shaped
// A against B rounded to quarters (22 distinct values) on a million
// values, from their orders: B's codes are the ones counted.
func BenchmarkKendallFewValues1M(b *testing.B) {
	x, grpo := testkit.GRPOShaped(1_000_000, rand.New(rand.NewPCG(3, 4)))
	index := make([]int, len(x))
	for i := range index {
		index[i] = i
		grpo[i] = math.Round(4 * grpo[i])
	}
	var buf Buffers
	sa, sb := rankedSide(index, x, &buf), rankedSide(index, grpo, &buf)
	c := CompareSides(sa, sb, &buf)
	for b.Loop() {
		kendall(sa, sb, c.ByA, c.ByB, &buf)
	}
}
