package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortFloatsMatchesSlicesSort compares sortFloats with slices.Sort on
// random data with duplicates, infinities, subnormals and signed zeros.
func TestSortFloatsMatchesSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 1, -1}
	for trial := range 200 {
		n := rng.IntN(5000)
		x := make([]float64, n)
		for i := range x {
			switch rng.IntN(4) {
			case 0:
				x[i] = specials[rng.IntN(len(specials))]
			case 1:
				x[i] = float64(rng.IntN(10) - 5)
			default:
				x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
			}
		}
		if trial%50 == 0 && n > 0 {
			x[rng.IntN(n)] = math.NaN()
		}
		want, got := slices.Clone(x), slices.Clone(x)
		slices.Sort(want)
		sortFloats(got)
		for i := range want {
			same := want[i] == got[i] || (math.IsNaN(want[i]) && math.IsNaN(got[i]))
			if !same || (want[i] != 0 && math.Float64bits(want[i]) != math.Float64bits(got[i])) {
				t.Fatalf("trial %d: at %d got %v, want %v", trial, i, got[i], want[i])
			}
		}
		for i := 1; i < len(got) && len(got) >= radixMin && !slices.ContainsFunc(x, math.IsNaN); i++ {
			if got[i] == 0 && got[i-1] == 0 && math.Signbit(got[i]) && !math.Signbit(got[i-1]) {
				t.Fatalf("trial %d: +0 before -0 at %d", trial, i)
			}
		}
	}
}

func BenchmarkSortFloats100k(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 100_000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	y := make([]float64, len(x))
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			sortFloats(y)
		}
	})
	b.Run("slices", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			slices.Sort(y)
		}
	})
}
