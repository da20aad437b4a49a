package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAscendingIsSlicesSort checks Ascending against slices.Sort bit for
// bit, on random arrays of every length up to past placedMax, with ties,
// -0 and +0, ±Inf and NaNs of distinct payloads (whose order slices.Sort
// keeps up to placedMax values, by insertion), into an array of its own
// and into x's.
func TestAscendingIsSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, math.Inf(1), math.Inf(-1),
		math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000002), math.NaN()}
	var dst []float64
	for trial := range 30000 {
		n := trial % (placedMax + 4)
		x := make([]float64, n)
		for i := range x {
			x[i] = special[rng.IntN(len(special))]
			if rng.IntN(3) == 0 {
				x[i] = rng.NormFloat64()
			}
		}
		want := slices.Clone(x)
		slices.Sort(want)
		dst = Ascending(dst, x)
		if len(dst) != n {
			t.Fatalf("%v: %d values, want %d", x, len(dst), n)
		}
		inPlace := slices.Clone(x)
		inPlace = Ascending(inPlace, inPlace)
		for i := range want {
			if math.Float64bits(dst[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%v: Ascending %v, slices.Sort %v", x, dst, want)
			}
			if math.Float64bits(inPlace[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%v: Ascending into x %v, slices.Sort %v", x, inPlace, want)
			}
		}
	}
}
