package stats

import (
	"math"
	"testing"
)

func TestSaturate(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{
		{math.Inf(1), math.MaxFloat64},
		{math.Inf(-1), -math.MaxFloat64},
		{-2.5, -2.5},
		{math.MaxFloat64, math.MaxFloat64},
	} {
		if got := Saturate(c.v); got != c.want {
			t.Errorf("Saturate(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	if got := Saturate(math.NaN()); !math.IsNaN(got) {
		t.Errorf("Saturate(NaN) = %v, want NaN", got)
	}
}
