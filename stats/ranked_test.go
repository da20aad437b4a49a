package stats

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/internal/testkit"
)

// Inversions counts the pairs out of order, as a double loop does, on
// codes with ties, sorted runs and reversed ones, below and above the size
// split between two goroutines.
func TestInversions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
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
				want = bruteInversions(v)
			} else { // the halves by brute force would take seconds: by countInversions
				f := make([]float64, n)
				for i, c := range v {
					f[i] = float64(c)
				}
				want = countInversions(f, make([]float64, n))
			}
			if got := Inversions(v, make([]uint32, n)); got != want {
				t.Errorf("n=%d %s: %d inversions, want %d", n, shape, got, want)
			}
		}
	}
}

// Inversions counts the pairs out of order as a double loop does (or, on
// the sizes split between goroutines, a Fenwick tree, itself checked
// against the double loop) on every size up to 70 (leaves, the first
// splits), around powers of two, twice wordLeafMax and parallelMin, on
// shapes with many ties, few values, one value, distinct values (K = n;
// reversed; with one repeated, as many values as their range: the word
// leaf's fallback), in order, reversed, in
// sorted runs, nearly in order (the insertion sort done, or stopped past
// its budget late), with half of them 0 (the first split's sample median),
// with values up to the largest uint32 (a range of 2^32), and as the
// Compare tab's (grpoCodes).
func TestInversionsAroundThresholds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	sizes := []int{127, 128, 129, 130, 131, 255, 256, 257, 1000, 2049, parallelMin - 1, parallelMin, parallelMin + 1, 3*parallelMin + 7}
	for n := range 71 {
		sizes = append(sizes, n)
	}
	shapes := map[string]func(n int) []uint32{
		"ties":      func(n int) []uint32 { return randomCodes(rng, n, 1+n/8) },
		"few":       func(n int) []uint32 { return randomCodes(rng, n, 3) },
		"two":       func(n int) []uint32 { return randomCodes(rng, n, 2) },
		"one value": func(n int) []uint32 { return randomCodes(rng, n, 1) },
		"distinct": func(n int) []uint32 {
			v := make([]uint32, n)
			for i, p := range rng.Perm(n) {
				v[i] = uint32(p)
			}
			return v
		},
		"distinct, reversed": func(n int) []uint32 {
			v := make([]uint32, n)
			for i := range v {
				v[i] = uint32(n - 1 - i)
			}
			return v
		},
		"distinct, one repeated": func(n int) []uint32 { // as many values as their range, not all distinct
			v := make([]uint32, n)
			for i, p := range rng.Perm(n) {
				v[i] = uint32(p)
			}
			if n > 2 {
				i, j := rng.IntN(n), rng.IntN(n)
				for v[i] == uint32(n-1) || i == j {
					i, j = rng.IntN(n), rng.IntN(n)
				}
				v[i] = v[j]
			}
			return v
		},
		"in order": func(n int) []uint32 {
			v := randomCodes(rng, n, 1+n/3)
			slices.Sort(v)
			return v
		},
		"reversed": func(n int) []uint32 {
			v := randomCodes(rng, n, 1+n/3)
			slices.Sort(v)
			slices.Reverse(v)
			return v
		},
		"sorted runs": func(n int) []uint32 {
			v := randomCodes(rng, n, 1+n/2)
			for lo := 0; lo < n; lo += 40 {
				slices.Sort(v[lo:min(lo+40, n)])
			}
			return v
		},
		"near order": func(n int) []uint32 { // the insertion sort's whole
			v := make([]uint32, n)
			for i := range v {
				v[i] = uint32(i / 2)
			}
			for range n / 8 {
				i := rng.IntN(max(n-1, 1))
				v[i], v[min(i+1, n-1)] = v[min(i+1, n-1)], v[i]
			}
			return v
		},
		"near order, far last": func(n int) []uint32 { // the insertion sort stopped late
			v := make([]uint32, n)
			for i := range v {
				v[i] = uint32(i)
			}
			for i := n - n/8; i < n; i++ {
				v[i] = uint32(rng.IntN(n))
			}
			return v
		},
		"half zero": func(n int) []uint32 {
			v := randomCodes(rng, n, 1+n)
			for i := range v {
				if rng.IntN(2) == 0 {
					v[i] = 0
				}
			}
			return v
		},
		"wide": func(n int) []uint32 {
			v := make([]uint32, n)
			for i := range v {
				v[i] = math.MaxUint32 - uint32(rng.IntN(3))<<uint(rng.IntN(32))
			}
			return v
		},
		"grpo": func(n int) []uint32 { return grpoCodes(n, rng) },
	}
	for _, n := range sizes {
		for name, shape := range shapes {
			v := shape(n)
			want := inversionsByTree(v)
			if n <= 2049 {
				if brute := bruteInversions(v); brute != want {
					t.Fatalf("n=%d %s: the Fenwick tree counts %d, the double loop %d", n, name, want, brute)
				}
			}
			if got := Inversions(v, make([]uint32, n)); got != want {
				t.Errorf("n=%d %s: %d inversions, want %d", n, name, got, want)
			}
		}
	}
}

// randomCodes returns n codes drawn uniformly below k.
func randomCodes(rng *rand.Rand, n, k int) []uint32 {
	v := make([]uint32, n)
	for i := range v {
		v[i] = uint32(rng.IntN(k))
	}
	return v
}

// bruteInversions counts the pairs i < j of v with v[i] > v[j] by a
// double loop.
func bruteInversions(v []uint32) int64 {
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

// inversionsByTree counts the pairs out of order with a Fenwick tree of
// the counts of the values seen, by their dense ranks: each value is out
// of order with those seen above it.
func inversionsByTree(v []uint32) int64 {
	values := slices.Compact(slices.Sorted(slices.Values(v)))
	tree := make([]int64, len(values)+1)
	var inv int64
	for seen, x := range v {
		r, _ := slices.BinarySearch(values, x)
		var notAbove int64
		for i := r + 1; i > 0; i -= i & -i {
			notAbove += tree[i]
		}
		inv += int64(seen) - notAbove
		for i := r + 1; i < len(tree); i += i & -i {
			tree[i]++
		}
	}
	return inv
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
	benchmarkInversions(b, func(v []uint32) { copy(v, codes) })
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
	benchmarkInversions(b, func(v []uint32) { copy(v, codes) })
}

// BenchmarkInversionsSorted1M counts the inversions of a million codes in
// order, as when the two sides compared rank alike.
func BenchmarkInversionsSorted1M(b *testing.B) {
	benchmarkInversions(b, func(v []uint32) {
		for i := range v {
			v[i] = uint32(i)
		}
	})
}

// benchmarkInversions counts the inversions of a million codes, filled
// anew before each count (fill, outside the CPU time), and reports the
// CPU time of the counts an op, every thread's: on a shared machine a
// steadier measure than the wall time.
func benchmarkInversions(b *testing.B, fill func(v []uint32)) {
	v, buf := make([]uint32, 1_000_000), make([]uint32, 1_000_000)
	var cpu time.Duration
	for b.Loop() {
		fill(v)
		before := testkit.CPUTime()
		Inversions(v, buf)
		cpu += testkit.CPUTime() - before
	}
	testkit.ReportCPU(b, cpu)
}
