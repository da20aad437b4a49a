package floatorder

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Ranks' order is a stable comparison sort's by cmp.Compare, its codes
// count the distinct values below, its average ranks and tied pairs are
// those of the runs of equal keys, on values with ties, NaNs, infinities
// and both zeros, values equal in their upper 32 bits (runs sorted by the
// lower bits), few values (counted) and more than a sample shows, below
// and above parallelMin; SortByCode's order is a
// stable comparison sort's by code, from a shuffled order, on few codes
// (one pass) and many (two).
func TestRanksAndSortByCode(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pool := []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), -1.5, 2.25, 1e-300, -1e300, 3}
	var buf RankBuffers
	for _, n := range []int{0, 1, 2, 9, 1000, 3 * parallelMin} {
		for _, shape := range []string{"three", "five close", "pool", "normal", "close", "three and normal"} {
			x := make([]float64, n)
			for i := range x {
				switch shape {
				case "three":
					x[i] = float64(rng.IntN(3))
				case "five close": // equal in their upper 32 bits
					x[i] = 1 + float64(rng.IntN(5))*0x1p-40
				case "pool":
					x[i] = pool[rng.IntN(len(pool))]
				case "normal":
					x[i] = rng.NormFloat64()
				case "close": // many, equal in their upper 32 bits
					x[i] = 1 + float64(rng.IntN(n+1))*0x1p-40
				default: // few in a sample, more than fewMax in all
					x[i] = float64(rng.IntN(3))
					if i%41 == 0 {
						x[i] = rng.NormFloat64()
					}
				}
			}
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(x[a], x[b]) })
			order, codes, avg := make([]int32, n), make([]uint32, n), make([]float64, n)
			distinct, tied := Ranks(x, order, codes, avg, &buf)
			if !slices.Equal(order, want) {
				t.Fatalf("n=%d: Ranks' order %v, stable comparison sort %v", n, order, want)
			}
			keys := make([]uint64, n)
			for i, v := range x {
				keys[i] = Key(v)
			}
			slices.Sort(keys)
			keys = slices.Compact(keys)
			if distinct != len(keys) {
				t.Fatalf("n=%d: %d distinct, want %d", n, distinct, len(keys))
			}
			for i, v := range x {
				if below, _ := slices.BinarySearch(keys, Key(v)); codes[i] != uint32(below) {
					t.Fatalf("n=%d: code of %v is %d, want %d", n, v, codes[i], below)
				}
			}
			// Ties by key: the places lo..hi-1 (0-based) of a run share
			// rank (lo + hi + 1) / 2, and count t(t-1)/2 pairs.
			var wantTied int64
			for lo := 0; lo < n; {
				hi := lo + 1
				for hi < n && Key(x[want[hi]]) == Key(x[want[lo]]) {
					hi++
				}
				if c := codes[want[lo]]; avg[c] != float64(lo+hi+1)/2 {
					t.Fatalf("n=%d: average rank of %v (code %d) is %v, want %v", n, x[want[lo]], c, avg[c], float64(lo+hi+1)/2)
				}
				wantTied += int64(hi-lo) * int64(hi-lo-1) / 2
				lo = hi
			}
			if tied != wantTied {
				t.Fatalf("n=%d: %d tied pairs, want %d", n, tied, wantTied)
			}

			src := slices.Clone(order)
			rng.Shuffle(n, func(i, j int) { src[i], src[j] = src[j], src[i] })
			wantByCode := slices.Clone(src)
			slices.SortStableFunc(wantByCode, func(a, b int32) int { return cmp.Compare(codes[a], codes[b]) })
			got := make([]int32, n)
			SortByCode(got, src, codes, distinct, &buf)
			if !slices.Equal(got, wantByCode) {
				t.Fatalf("n=%d, %d codes: SortByCode %v, stable comparison sort %v", n, distinct, got, wantByCode)
			}
		}
	}
}
