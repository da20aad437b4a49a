package pareto

import (
	"math"
	"testing"
)

// TestCrowdingAtTheFloatLimit spreads a front over the whole float64
// range, where max - min overflows: the distances are those of the same
// front scaled down, not NaN.
func TestCrowdingAtTheFloatLimit(t *testing.T) {
	points := []float64{-1e308, 1e308, 0, 0, 1e308, -1e308} // (x, y) pairs, one front
	got := make([]float64, 3)
	Crowding(got, points, 2, []int{0, 0, 0})
	want := []float64{math.Inf(1), 1, math.Inf(1)} // the middle: (1 + 1) / 2
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("crowding %v, want %v", got, want)
			break
		}
	}
}
