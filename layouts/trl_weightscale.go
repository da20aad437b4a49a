package layouts

import (
	"fmt"
	"math"
	"strconv"
)

// trlFactorSteps is how many factors per decade nearestFactor tries,
// from 1e-3 to 1e3, before it refines the best.
const trlFactorSteps = 40

// scaledWeights returns the weights of the first k columns that reproduce
// the logged advantage of rows, given ratios (fitWeights' weights, the
// first nonzero one 1), and whether the log tells only their ratios.
//
// Under scale none and RLOO without normalize_advantages the advantage is
// linear in the weights: the fit's are the weights. Scaled, A = c·w·X /
// (std(c·w·X) + 1e-4) changes with the common factor c through epsilon
// alone: c is the factor, tried from 1e-3 to 1e3 and refined, under which
// TRL's advantages (advantages, with the weights c·ratios) are nearest
// the log, in the first of TRL's settings whose fit reproduces the log
// (fitVariant) and whose nearest does. It is told when half and twice it
// are trlFactorTells times as far from the log at least: a std far above
// epsilon leaves c free, and the log tells the ratios only.
func (t *trlTable) scaledWeights(k int, ratios []float64, from int, rows []int) (weights []float64, ratiosOnly bool) {
	for i, v := range trlVariants[from:] {
		if i > 0 { // trlVariants[from] fits: fitWeights found it
			if _, ok := t.fitVariant(k, rows, v); !ok {
				continue
			}
		}
		if v.unscaled() {
			return ratios, false
		}
		maxDiff := func(c float64) float64 { return t.weightedMaxDiff(k, v, c, ratios, rows) }
		c := nearestFactor(maxDiff)
		weights = make([]float64, k)
		for j := range weights {
			weights[j] = c * ratios[j]
		}
		if !t.reproducesRows(k, v, weights, rows) {
			continue
		}
		if min(maxDiff(2*c), maxDiff(c/2)) < trlFactorTells*maxDiff(c) {
			return ratios, true
		}
		return weights, false
	}
	return ratios, true
}

// trlFactorTells is how many times as far from the log as the nearest
// factor half and twice it must be for the log to tell the factor.
const trlFactorTells = 10

// weightedMaxDiff returns the largest |difference| over rows between the
// logged advantage and TRL's under v with the weights c·ratios.
func (t *trlTable) weightedMaxDiff(k int, v trlVariant, c float64, ratios []float64, rows []int) float64 {
	w := make([]float64, k)
	for j := range w {
		w[j] = c * ratios[j]
	}
	a := t.advantages(k, v, w)
	worst := 0.0
	for _, i := range rows {
		worst = max(worst, math.Abs(a[i]-t.advantage[i]))
	}
	return worst
}

// nearestFactor returns the factor c from 1e-3 to 1e3 of the smallest
// diff(c): the best of trlFactorSteps a decade, refined by a
// golden-section search between its neighbours (one diff a step), then
// to 3 significant digits (as the line says it) when that is as near.
func nearestFactor(diff func(c float64) float64) float64 {
	best, bestDiff := 0, math.Inf(1)
	for e := -3 * trlFactorSteps; e <= 3*trlFactorSteps; e++ {
		if d := diff(math.Pow(10, float64(e)/trlFactorSteps)); d < bestDiff {
			best, bestDiff = e, d
		}
	}
	lo, hi := float64(best-1)/trlFactorSteps, float64(best+1)/trlFactorSteps
	golden := (math.Sqrt(5) - 1) / 2
	// The interior points a < b and their diffs: the one kept is the
	// narrower bracket's other interior point (golden² = 1 - golden), so
	// that each step evaluates one new point.
	a, b := hi-golden*(hi-lo), lo+golden*(hi-lo)
	diffA, diffB := diff(math.Pow(10, a)), diff(math.Pow(10, b))
	for range 60 {
		if diffA < diffB {
			hi, b, diffB = b, a, diffA
			a = hi - golden*(hi-lo)
			diffA = diff(math.Pow(10, a))
		} else {
			lo, a, diffA = a, b, diffB
			b = lo + golden*(hi-lo)
			diffB = diff(math.Pow(10, b))
		}
	}
	c := math.Pow(10, (lo+hi)/2)
	if rounded, _ := strconv.ParseFloat(strconv.FormatFloat(c, 'g', 3, 64), 64); diff(rounded) <= max(diff(c), trlRoundedNoise) {
		return rounded
	}
	return c
}

// trlRoundedNoise is how far from the log a factor rounded to 3 digits
// may be and still be taken for the nearest: float32's noise on an
// advantage of a few units.
const trlRoundedNoise = 1e-6

// trlWeightedSum says which weighted sum of columns reproduces the log:
// with the weights (scaledWeights), or with weights in their ratios when
// the log does not tell their common factor.
func trlWeightedSum(columns []string, weights []float64, ratiosOnly bool) string {
	if ratiosOnly {
		return fmt.Sprintf("whose sum with weights in the ratios %s (the log does not tell their common factor; --match-logged fits weights)", trlWeightsText(columns, weights, " : "))
	}
	return fmt.Sprintf("whose sum with weights other than 1 (fitted %s; --match-logged fits them)", trlWeightsText(columns, weights, ", "))
}

// unscaled reports whether v's advantage is not divided by a std (scale
// none, RLOO without normalize_advantages): linear in the weights.
func (v trlVariant) unscaled() bool { return v.scale == "none" || v.rloo && !v.normalizeRLOO }
