package stats

import "math"

// The statistics of values near the float64 limit (a score of 1e308, say)
// overflow in their intermediate sums and squares although the results
// fit: a mean is never larger than the largest value, a standard deviation
// never larger than the spread. Where that happens, the values are scaled
// down by a power of two, which is exact, and the result scaled back up.
// Only a result that truly does not fit (the difference of two values at
// opposite ends of the range) saturates at ±math.MaxFloat64, so that a
// reward is always a finite number, as docs/CONTRACT.md (Validity) promises.

// overflowScale is the power of two that finite values are divided by
// when their statistics overflow: 2^600 takes 1e308 down to 2.4e127,
// whose squares fit.
var overflowScale = math.Ldexp(1, 600)

// scaledDown returns x divided by overflowScale, and false when x holds a
// NaN or an infinity, whose statistics are NaN or infinite whatever the
// scale.
func scaledDown(x []float64) ([]float64, bool) {
	y := make([]float64, len(x))
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		y[i] = v / overflowScale
	}
	return y, true
}

// Centered returns (x - c) / d for finite x and c: where x - c overflows,
// it is taken halved, and a quotient that does not fit a float64 saturates
// at ±math.MaxFloat64. d must not be 0.
func Centered(x, c, d float64) float64 {
	diff := x - c
	if math.IsInf(diff, 0) && !math.IsInf(x, 0) && !math.IsInf(c, 0) {
		q := (x/2 - c/2) / d
		if math.Abs(q) > math.MaxFloat64/2 {
			return math.Copysign(math.MaxFloat64, q)
		}
		return 2 * q
	}
	q := diff / d
	if math.IsInf(q, 0) && !math.IsInf(diff, 0) {
		return math.Copysign(math.MaxFloat64, q)
	}
	return q
}

// finiteResult reports whether every one of vs is a finite number.
func finiteResult(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// interpolate returns a + frac (b - a), numpy's linear interpolation
// between two order statistics, a <= b: where b - a overflows (the values
// at opposite ends of the range), the difference is taken halved, so that
// the quartiles of -1e308 and 1e308 are -5e307 and 5e307, not +Inf.
func interpolate(a, b, frac float64) float64 {
	d := b - a
	if math.IsInf(d, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		return a + 2*(frac*(b/2-a/2))
	}
	return a + frac*d
}

// Saturate returns v, or ±math.MaxFloat64 for an infinite v: a sum of
// rewards near the limit that overflows.
func Saturate(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.Copysign(math.MaxFloat64, v)
	}
	return v
}
