package engine

import (
	"cmp"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/internal/floatorder"
)

// TestCountedUtilitiesAreOrderedUtilities checks paretoCrowding's counted
// places against the sorted order they replace, bit for bit, on random
// groups of every size counted, with ties of rank and of crowding, NaN,
// ±0 and ±Inf among the distances.
func TestCountedUtilitiesAreOrderedUtilities(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	distances := []float64{0, math.Copysign(0, -1), 0.25, 0.5, 1, math.Inf(1), math.Inf(-1), math.NaN()}
	for trial := range 20000 {
		n := 1 + trial%countedMax
		ranks, crowding := make([]int, n), make([]float64, n)
		keys := make([]crowded, n)
		for j := range keys {
			ranks[j], crowding[j] = rng.IntN(3), distances[rng.IntN(len(distances))]
			if rng.IntN(4) == 0 {
				crowding[j] = rng.Float64()
			}
			keys[j] = crowded{ranks[j], floatorder.Key(crowding[j])}
		}
		got, want := make([]float64, n), make([]float64, n)
		countedUtilities(got, keys)
		orderedUtilities(want, func(p, q int) int {
			if ranks[p] != ranks[q] {
				return ranks[q] - ranks[p]
			}
			return cmp.Compare(crowding[p], crowding[q])
		}, nil)
		for j := range got {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("ranks %v, distances %v: member %d: counted %v, sorted %v", ranks, crowding, j, got, want)
			}
		}
	}
}
