package stats

import (
	"math"
	"testing"
)

const tol = 1e-12

// near reports whether a is b within the relative tolerance tol (equal for
// infinities and NaNs).
func near(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return a == b || (math.IsNaN(a) && math.IsNaN(b))
	}
	return math.Abs(a-b) <= tol*max(1, math.Abs(b))
}

func assertFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("%s[%d] = %.15g, want %.15g (all: %v)", what, i, got[i], want[i], got)
		}
	}
}
