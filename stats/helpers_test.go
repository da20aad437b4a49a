package stats

import (
	"testing"

	"github.com/rewardlens/rewardlens/internal/testkit"
)

// near and assertFloats compare floats within testkit.Tol.
func near(a, b float64) bool { return testkit.Near(a, b) }

func assertFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	testkit.AssertFloats(t, what, got, want)
}
