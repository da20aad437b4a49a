package floatorder

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The radix order is the one of a stable comparison sort by cmp.Compare,
// key after key, on values with ties, NaNs, infinities and both zeros.
func TestSortMatchesStableCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pool := []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), -1.5, 2.25, 1e-300, -1e300, 3}
	for _, n := range []int{0, 1, 2, 7, insertionMax, insertionMax + 1, smallSort, smallSort + 1, 1000, 3 * radixMin, 20 * radixMin} {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = pool[rng.IntN(len(pool))], rng.NormFloat64()
			if rng.IntN(3) == 0 {
				y[i] = pool[rng.IntN(len(pool))]
			}
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		got := slices.Clone(want)
		slices.SortStableFunc(want, func(a, b int) int { return cmp.Or(cmp.Compare(x[b], x[a]), cmp.Compare(y[a], y[b])) })
		Sort(got, 2, func(k, i int) uint64 {
			if k == 0 {
				return Descending(x[i])
			}
			return Key(y[i])
		})
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: radix order %v, stable comparison sort %v", n, got, want)
		}
	}
}

func TestKeyOrder(t *testing.T) {
	ordered := []float64{math.NaN(), math.Inf(-1), -1e300, -1, -1e-300, 0, 1e-300, 1, 1e300, math.Inf(1)}
	for j := 1; j < len(ordered); j++ {
		if Key(ordered[j-1]) >= Key(ordered[j]) {
			t.Errorf("Key(%v) = %x is not below Key(%v) = %x", ordered[j-1], Key(ordered[j-1]), ordered[j], Key(ordered[j]))
		}
	}
	if Key(math.Copysign(0, -1)) != Key(0) {
		t.Error("-0 and +0 have different keys")
	}
}

// Select returns what sorting would put at k, for every k, on keys with
// many repeats.
func TestSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := make([]uint64, 500)
	for i := range keys {
		keys[i] = uint64(rng.IntN(40))
	}
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	for k := range keys {
		if got := Select(slices.Clone(keys), k); got != sorted[k] {
			t.Fatalf("Select(k=%d) = %d, want %d", k, got, sorted[k])
		}
	}
}

// Sort keeps positions equal in every key in the order given, which need
// not be the positions' order: a shuffled order, three keys of few
// values (runs tied in the first key both above and below radixMin).
func TestSortStableOnShuffledOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{3, 500, 5 * radixMin} {
		x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i], z[i] = float64(rng.IntN(3)), float64(rng.IntN(5)), float64(rng.IntN(2))
		}
		want := rng.Perm(n)
		got := slices.Clone(want)
		slices.SortStableFunc(want, func(a, b int) int {
			return cmp.Or(cmp.Compare(x[a], x[b]), cmp.Compare(y[b], y[a]), cmp.Compare(z[a], z[b]))
		})
		Sort(got, 3, func(k, i int) uint64 {
			switch k {
			case 0:
				return Key(x[i])
			case 1:
				return Descending(y[i])
			}
			return Key(z[i])
		})
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: radix order differs from the stable comparison sort", n)
		}
	}
}

// On a first key of a few hundred values, whose tied runs are short and
// many (the path that sorts by the next keys first), the order is still
// the stable comparison sort's, from a shuffled order, on three keys.
func TestSortManyShortTiedRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	n := 4 * radixMin
	x, y, z := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i], z[i] = float64(rng.IntN(500)), float64(rng.IntN(4)), float64(rng.IntN(3))
	}
	want := rng.Perm(n)
	got := slices.Clone(want)
	slices.SortStableFunc(want, func(a, b int) int {
		return cmp.Or(cmp.Compare(x[b], x[a]), cmp.Compare(y[a], y[b]), cmp.Compare(z[a], z[b]))
	})
	Sort(got, 3, func(k, i int) uint64 {
		switch k {
		case 0:
			return Descending(x[i])
		case 1:
			return Key(y[i])
		}
		return Key(z[i])
	})
	if !slices.Equal(got, want) {
		t.Fatal("radix order differs from the stable comparison sort")
	}
}

// ByPairs is the stable comparison sort by x, then y, in cmp.Compare's
// order, on pairs with ties, NaNs and both zeros.
func TestByPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pool := []float64{math.NaN(), 0, math.Copysign(0, -1), -1, 2, math.Inf(1)}
	x, y := make([]float64, 3000), make([]float64, 3000)
	for i := range x {
		x[i], y[i] = pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))]
	}
	want := make([]int, len(x))
	for i := range want {
		want[i] = i
	}
	slices.SortStableFunc(want, func(a, b int) int { return cmp.Or(cmp.Compare(x[a], x[b]), cmp.Compare(y[a], y[b])) })
	if got := ByPairs(x, y); !slices.Equal(got, want) {
		t.Error("ByPairs differs from the stable comparison sort")
	}
}
