package agreement

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
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

// agreement's orders and statistics are those of the computation from
// scratch: the stable comparison sorts by (A, B) and by (B, A), Kendall's
// tau and Spearman's rho on the values, and TopShared; on A with few
// distinct values (tied runs above and below floatorder's radix
// threshold) against B with ties, both ways round, and against distinct
// values (the two sorts from scratch) both ways round.
func TestAgreementMatchesFromScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	for _, n := range []int{2, 300, 50_000} {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(rng.IntN(7)), math.Round(rng.NormFloat64()*50)/50
		}
		z := make([]float64, n)
		for i := range z {
			z[i] = rng.Float64()
		}
		for _, ab := range [][2][]float64{{x, y}, {y, x}, {z, x}, {x, z}} {
			c := Comparison{A: ab[0], B: ab[1]}
			c.agreement()
			byA, byB := make([]int, n), make([]int, n)
			for i := range byA {
				byA[i], byB[i] = i, i
			}
			slices.SortStableFunc(byA, func(i, j int) int { return cmp.Or(cmp.Compare(c.A[i], c.A[j]), cmp.Compare(c.B[i], c.B[j])) })
			slices.SortStableFunc(byB, func(i, j int) int { return cmp.Or(cmp.Compare(c.B[i], c.B[j]), cmp.Compare(c.A[i], c.A[j])) })
			if !slices.Equal(c.ByA, byA) || !slices.Equal(c.ByB, byB) {
				t.Fatalf("n=%d: the sorted orders differ from the stable comparison sorts", n)
			}
			if k, s := stats.KendallTauB(c.A, c.B), stats.Spearman(c.A, c.B); c.Kendall != k || c.Spearman != s {
				t.Errorf("n=%d: Kendall %v Spearman %v, from scratch %v %v", n, c.Kendall, c.Spearman, k, s)
			}
			if want := stats.TopShared(c.A, c.B, c.TopK); c.TopShared != want {
				t.Errorf("n=%d: TopShared %d, from scratch %d", n, c.TopShared, want)
			}
		}
	}
}

func TestFewDistinct(t *testing.T) {
	ranks, scores := make([]float64, 5000), make([]float64, 5000)
	for i := range ranks {
		ranks[i], scores[i] = float64(i%40), float64(i)/7
	}
	if !fewDistinct(ranks) || fewDistinct(scores) {
		t.Errorf("fewDistinct: 40 values %v (want true), 5,000 values %v (want false)", fewDistinct(ranks), fewDistinct(scores))
	}
}
