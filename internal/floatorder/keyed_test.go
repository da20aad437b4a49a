package floatorder

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Keyed's Top and Sorted are the first positions and the whole of a
// stable comparison sort's order, on positions given out of order, with
// many ties, NaNs, infinities and both zeros, in either direction, for
// inputs sorted either way too (the heap's worst case).
func TestKeyedMatchesStableCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pool := []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), -1.5, 2.25, 1e-300, -1e300, 3}
	for _, n := range []int{0, 1, 2, 7, 300, 3 * radixMin} {
		for _, shape := range []string{"random", "ascending", "descending"} {
			x := make([]float64, 2*n)
			for i := range x {
				x[i] = pool[rng.IntN(len(pool))]
				if rng.IntN(2) == 0 {
					x[i] = float64(rng.IntN(50))
				}
			}
			switch shape {
			case "ascending":
				slices.SortFunc(x, cmp.Compare)
			case "descending":
				slices.SortFunc(x, func(a, b float64) int { return cmp.Compare(b, a) })
			}
			// n of the 2n positions, in an order of their own.
			order := rng.Perm(2 * n)[:n]
			for _, descending := range []bool{false, true} {
				key, compare := Key, func(a, b int) int { return cmp.Compare(x[a], x[b]) }
				if descending {
					key, compare = Descending, func(a, b int) int { return cmp.Compare(x[b], x[a]) }
				}
				want := slices.Clone(order)
				slices.SortStableFunc(want, compare)
				keys := make([]uint64, n)
				for j, i := range order {
					keys[j] = key(x[i])
				}
				k := KeyedOf(order, keys)
				if got := k.Sorted(); !slices.Equal(got, want) {
					t.Fatalf("n=%d %s descending=%v: Sorted %v, stable sort %v", n, shape, descending, got, want)
				}
				for _, m := range []int{0, 1, 5, n / 2, n, n + 3} {
					if got := k.Top(m); !slices.Equal(got, want[:min(max(m, 0), n)]) {
						t.Fatalf("n=%d %s descending=%v: Top(%d) %v, stable sort's first %v", n, shape, descending, m, got, want[:min(m, n)])
					}
				}
			}
		}
	}
}
