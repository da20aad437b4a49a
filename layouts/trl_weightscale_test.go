package layouts

import (
	"math"
	"testing"
)

// TestNearestFactor: the factor of the smallest diff is found between
// the factors tried, to 3 digits when it has no more, else closer than
// the grid's step; the golden-section search evaluates one new diff a
// step (the point it keeps is not evaluated again): besides the grid,
// two to start, one a step and two to round.
func TestNearestFactor(t *testing.T) {
	const steps = 60 // nearestFactor's golden-section steps
	for _, want := range []float64{1.37, 2.3456789, 0.0123456, 456.789} {
		calls := 0
		got := nearestFactor(func(c float64) float64 {
			calls++
			return math.Abs(math.Log10(c) - math.Log10(want))
		})
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("nearest factor %v, want %v", got, want)
		}
		if grid := 6*trlFactorSteps + 1; calls > grid+2+steps+2 {
			t.Errorf("factor %v: %d diffs evaluated, want at most %d: %d on the grid, %d searching, 2 rounding", want, calls, grid+2+steps+2, grid, 2+steps)
		}
	}
}
