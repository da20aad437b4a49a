package engine

import (
	"math"

	"github.com/rewardlens/rewardlens/stats"
)

// Rewards near the float64 limit saturate at ±math.MaxFloat64 rather than
// overflow to an infinity (see stats/overflow.go).

// weightedCentered returns w (x - c) / d, as gdpo writes it, for finite
// w, x and c: where that overflows, w times centered (x - c) / d,
// saturated.
func weightedCentered(w, x, c, d float64) float64 {
	if v := w * (x - c) / d; !math.IsNaN(v) && !math.IsInf(v, 0) {
		return v
	}
	return stats.Saturate(w * stats.Centered(x, c, d))
}

// membersMean returns the mean of values over members, without overflow
// (see stats.Mean), NaN when there are none.
func membersMean(values []float64, members []int) float64 {
	x := make([]float64, len(members))
	for j, i := range members {
		x[j] = values[i]
	}
	return stats.Mean(x)
}
