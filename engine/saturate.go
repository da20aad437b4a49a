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
