package stats

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/internal/testkit"
)

// Inversions counts the pairs out of order, as a double loop does, on
// codes with ties, runs already in order (joined without a merge) and
// reversed ones, below and above the size split between two goroutines.
func TestInversions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	brute := func(v []uint32) int64 {
		var n int64
		for i := range v {
			for j := i + 1; j < len(v); j++ {
				if v[i] > v[j] {
					n++
				}
			}
		}
		return n
	}
	for _, n := range []int{0, 1, 2, 15, 16, 17, 33, 100, 257, 5000, parallelMin + 3} {
		for _, shape := range []string{"random", "sorted runs", "reversed"} {
			v := make([]uint32, n)
			for i := range v {
				switch shape {
				case "random":
					v[i] = uint32(rng.IntN(7 + n/4))
				case "sorted runs": // a few sorted runs, as y's codes of x's ties
					v[i] = uint32(i % (1 + n/5))
				default:
					v[i] = uint32(n - i/2)
				}
			}
			var want int64
			if n <= 5000 {
				want = brute(v)
			} else { // the halves by brute force would take seconds: by countInversions
				f := make([]float64, n)
				for i, c := range v {
					f[i] = float64(c)
				}
				want = countInversions(f, make([]float64, n))
			}
			got := Inversions(v, make([]uint32, n))
			if got != want {
				t.Errorf("n=%d %s: %d inversions, want %d", n, shape, got, want)
			}
			if n < parallelMin && !slices.IsSorted(v) {
				t.Errorf("n=%d %s: not sorted", n, shape)
			}
		}
	}
}

// KendallTauBCounts from hand-counted pairs: x = (1, 1, 2, 3), y = (2, 1,
// 1, 3) has n1 = 1, n2 = 1, n3 = 0 and one discordant pair:
// (6 - 1 - 1 + 0 - 2) / sqrt(5 * 5) = 0.4, as TestKendallTauB.
func TestKendallTauBCounts(t *testing.T) {
	if got := KendallTauBCounts(4, 1, 1, 0, 1); got != 0.4 {
		t.Errorf("KendallTauBCounts = %v, want 0.4", got)
	}
	if got := KendallTauBCounts(3, 0, 3, 0, 0); !math.IsNaN(got) {
		t.Errorf("constant y: KendallTauBCounts = %v, want NaN", got)
	}
	if got := KendallTauBCounts(1, 0, 0, 0, 0); !math.IsNaN(got) {
		t.Errorf("one value: KendallTauBCounts = %v, want NaN", got)
	}
}

func BenchmarkInversions1M(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	codes := make([]uint32, 1_000_000)
	for i := range codes {
		codes[i] = uint32(rng.IntN(len(codes)))
	}
	v, buf := make([]uint32, len(codes)), make([]uint32, len(codes))
	for b.Loop() {
		copy(v, codes)
		Inversions(v, buf)
	}
}

// grpoCodes returns the codes the Compare tab counts the inversions of,
// B's dense ranks along A's order, on n values (testkit.GRPOShaped).
func grpoCodes(n int, rng *rand.Rand) []uint32 {
	x, grpo := testkit.GRPOShaped(n, rng)
	byX, byB := make([]int, n), make([]int, n)
	for i := range byX {
		byX[i], byB[i] = i, i
	}
	slices.SortStableFunc(byX, func(i, j int) int { return cmp.Compare(x[i], x[j]) })
	slices.SortStableFunc(byB, func(i, j int) int { return cmp.Compare(grpo[i], grpo[j]) })
	rank := make([]uint32, n)
	for k, i := range byB {
		rank[i] = rank[byB[max(k-1, 0)]]
		if k > 0 && grpo[i] != grpo[byB[k-1]] {
			rank[i]++
		}
	}
	codes := make([]uint32, n)
	for j, i := range byX {
		codes[j] = rank[i]
	}
	return codes
}

// BenchmarkInversionsGRPO1M counts the inversions of the Compare tab's
// codes on a million values (grpoCodes).
func BenchmarkInversionsGRPO1M(b *testing.B) {
	codes := grpoCodes(1_000_000, rand.New(rand.NewPCG(3, 4)))
	v, buf := make([]uint32, len(codes)), make([]uint32, len(codes))
	for b.Loop() {
		copy(v, codes)
		Inversions(v, buf)
	}
}
