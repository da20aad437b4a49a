package cmd

import (
	"math"
	"testing"
)

// TestCorrelationNumber: correlations print with 4 decimals always; one
// that rounds to 0 reads 0.0000, not -0.0000.
func TestCorrelationNumber(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0.52114, "0.5211"}, {4.904e-4, "0.0005"}, {-3e-5, "0.0000"}, {-6e-5, "-0.0001"}, {-1, "-1.0000"}, {math.NaN(), "NaN"},
	} {
		if got := correlationNumber(c.x); got != c.want {
			t.Errorf("correlationNumber(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}
