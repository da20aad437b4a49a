// Package chart is the arithmetic of rewardlens' terminal charts: axes
// with "nice" ticks fitted to a number of cells, the cell of a value, how
// many points share a cell, and the point nearest a cell. It draws
// nothing: ui draws what it computes.
//
// A chart axis is a line of cells (a chart's rows or columns). Cell i
// shows the value Min + i×Unit; a tick falls every Every cells on a
// multiple of Step, a nice number (1, 2, 2.5 or 5 times a power of ten),
// labelled with exactly the decimals Step needs. The data never falls on
// the axis line itself: cell 0 is the first row above it (or the first
// column right of it).
package chart

import (
	"math"
	"strconv"
)

// niceMantissas are the leading factors of a nice step.
var niceMantissas = [...]float64{1, 2, 2.5, 5}

// Options says how to fit an axis.
type Options struct {
	// MinGap is the fewest cells from one tick to the next (at least 1;
	// 0 means 2, a row's worth of air between two y labels).
	MinGap int
	// LabelGap widens MinGap to the widest tick label and a space, for
	// an axis whose labels sit side by side (an x axis).
	LabelGap bool
	// NonNegative says the quantity cannot be negative (a count, a
	// fraction): the axis then shows no negative value.
	NonNegative bool
	// Integer says the quantity is whole (a step, a count): ticks are
	// whole numbers.
	Integer bool
	// MinTicks is the fewest ticks wanted for a range of distinct values,
	// where the cells have room for them at MinGap: a narrow range
	// labelled by one tick reads as a cliff from one edge of the chart to
	// the other. Fit then takes the finest unit among the fits with the
	// most ticks up to MinTicks, the data off centre by a cell or a few
	// if need be. A constant stays in the middle: MinTicks applies only to
	// a whole one (Integer), not 0.
	MinTicks int
}

// Axis maps values to the cells of a chart axis.
type Axis struct {
	// Cells is the number of cells; cell i shows Min + i×Unit.
	Cells int
	Min   float64
	Unit  float64
	// Step is the ticks' spacing in value, Every their spacing in cells
	// (Step = Every×Unit), Decimals the decimals of their labels.
	Step     float64
	Every    int
	Decimals int

	// origin is Min/Unit, an integer: tick cells are computed exactly.
	origin int64
	// nonNegative drops the ticks below 0.
	nonNegative bool
}

// Tick is one tick of an axis: its cell, value and label.
type Tick struct {
	Cell  int
	Value float64
	Label string
}

// Max returns the value of the last cell.
func (a Axis) Max() float64 { return a.Min + float64(a.Cells-1)*a.Unit }

// Pos returns the fractional cell of v: (v − Min) / Unit.
func (a Axis) Pos(v float64) float64 { return (v - a.Min) / a.Unit }

// Cell returns the cell nearest v, which may lie outside [0, Cells).
func (a Axis) Cell(v float64) int {
	p := a.Pos(v) + 0.5
	if p >= 0 {
		return int(p) // the floor, without math.Floor's call: a chart counts every point
	}
	return int(math.Floor(p))
}

// Sub returns the sub-cell of v when each cell is split in n (a braille
// cell has 2 dots across and 4 down): cell c covers the sub-cells c×n to
// c×n + n − 1, centred on its value.
func (a Axis) Sub(v float64, n int) int {
	return int(math.Floor((a.Pos(v) + 0.5) * float64(n)))
}

// Value returns the value shown at the fractional cell p.
func (a Axis) Value(p float64) float64 { return a.Min + p*a.Unit }

// Ticks returns the axis' ticks, from the lowest cell up.
func (a Axis) Ticks() []Tick {
	if a.Every <= 0 || a.Cells <= 0 {
		return nil
	}
	every := int64(a.Every)
	// The first multiple of every at or after origin.
	k := ceilDiv(a.origin, every)
	var ticks []Tick
	for cell := int(k*every - a.origin); cell < a.Cells; cell += a.Every {
		if v := float64(k) * a.Step; v >= 0 || !a.nonNegative {
			ticks = append(ticks, Tick{Cell: cell, Value: v, Label: Format(v, a.Decimals)})
		}
		k++
	}
	return ticks
}

// LabelWidth returns the width of the widest tick label.
func (a Axis) LabelWidth() int {
	w := 0
	for _, t := range a.Ticks() {
		w = max(w, len(t.Label))
	}
	return w
}

// Format writes v with d decimals, never as "-0".
func Format(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	if s[0] == '-' && strconv.FormatFloat(-v, 'f', d, 64) == s[1:] && math.Abs(v) < 0.5*math.Pow(10, -float64(d)) {
		return s[1:]
	}
	return s
}

// StepDecimals returns the decimals that write every multiple of a nice
// step m×10^e exactly: −e, one more when m is 2.5, never negative.
func StepDecimals(step float64) int {
	m, e := splitNice(step)
	d := -e
	if m == 2.5 {
		d++
	}
	return max(d, 0)
}

// splitNice returns the mantissa (1, 2, 2.5 or 5) and exponent of a nice
// step.
func splitNice(step float64) (float64, int) {
	e := int(math.Floor(math.Log10(step)))
	m := step / math.Pow(10, float64(e))
	// Log10 of an exact power of ten can fall a hair short of it.
	if m >= 9.99 {
		e++
		m /= 10
	}
	best := niceMantissas[0]
	for _, c := range niceMantissas {
		if math.Abs(c-m) < math.Abs(best-m) {
			best = c
		}
	}
	return best, e
}

// IsNice reports whether step is m×10^e for m in 1, 2, 2.5 or 5, to a
// relative 1e-9.
func IsNice(step float64) bool {
	if !(step > 0) || math.IsInf(step, 0) {
		return false
	}
	m, e := splitNice(step)
	return math.Abs(m*math.Pow(10, float64(e))-step) <= 1e-9*step
}

// Span returns the range an axis should show for data from lo to hi:
//   - for distinct values, [lo − 5%, hi + 5%] of hi − lo, so that the
//     extremes sit inside the axis, not on its ends; a NonNegative axis
//     does not go below 0 for non-negative data;
//   - for a constant c ≠ 0, c ± 10^⌊log10 |c|⌋ / 2, which keeps c in the
//     middle and within a factor 1.5 of it (never below 0 for c > 0);
//   - for 0, [−1, 1], or [0, 1] when NonNegative;
//   - for no finite value (lo > hi, NaN, ±Inf), [0, 1].
func Span(lo, hi float64, nonNegative bool) (float64, float64) {
	if !(lo <= hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, 1
	}
	if hi-lo <= 1e-9*max(1, math.Abs(lo), math.Abs(hi)) {
		c := lo/2 + hi/2 // not overflowing
		if math.Abs(c) < 1e-12 {
			if nonNegative {
				return 0, 1
			}
			return -1, 1
		}
		d := math.Pow(10, math.Floor(math.Log10(math.Abs(c)))) / 2
		return c - d, c + d
	}
	pad := (hi - lo) * 0.05
	low := lo - pad
	if nonNegative && lo >= 0 && low < 0 {
		low = 0
	}
	return low, hi + pad
}

// Fit returns the axis of cells cells that shows the range Span gives for
// lo and hi (c − 1..c + 1 for an Integer constant c) at the finest unit whose ticks are nice and regular: a nice
// Step every Every cells, Every from MinGap to 2×MinGap + 1; among equal
// units, the most ticks; with MinTicks, the finest unit of those with
// min(ticks, MinTicks) the largest. The data is centred in the cells the range
// leaves over (not below 0 when NonNegative). cells < 2 counts as 2.
func Fit(lo, hi float64, cells int, o Options) Axis {
	gap := o.MinGap
	if gap <= 0 {
		gap = 2
	}
	cells = max(cells, 2)
	switch {
	case o.Integer && lo == 0 && hi == 0:
		// A whole quantity's constant 0 (a single step) stays in the
		// middle, the negative side unlabelled.
		o.MinTicks = 0
		lo, hi = -1, 1
	case o.Integer && lo == hi && math.Trunc(lo) == lo:
		// A whole constant c is shown from c − 1 to c + 1, in the middle,
		// with the ticks of the other axes: one tick reads as no axis.
		lo, hi = lo-1, hi+1
	default:
		if lo == hi {
			o.MinTicks = 0
		}
		lo, hi = Span(lo, hi, o.NonNegative)
	}
	return fitLabelled(lo, hi, cells, gap, o)
}

// FitSteps fits an x axis of training steps, from first to last, to
// cols columns: of the axes whose whole-step ticks are at least 2 to
// max(12, cols / (last − first + 1)) columns apart (Options.MinGap),
// with min(4, last − first + 1) ticks at least, the finest, so that the
// steps fill the width (steps 0 and 1 drew at the left of an axis to 6,
// steps 0 to 39 on one to 53).
func FitSteps(first, last float64, cols int) Axis {
	o := Options{LabelGap: true, NonNegative: first >= 0, Integer: true}
	best := Fit(first, last, cols, o)
	if last == first {
		return best
	}
	minTicks := int(min(4, last-first+1))
	for o.MinGap = 3; o.MinGap <= max(12, int(float64(cols)/(last-first+1))) && o.MinGap < cols; o.MinGap++ {
		if a := Fit(first, last, cols, o); a.Unit < best.Unit && len(a.Ticks()) >= minTicks {
			best = a
		}
	}
	return best
}

// FitRange is Fit for a range to show as it is, without Span's margin:
// a zoomed view.
func FitRange(lo, hi float64, cells int, o Options) Axis {
	gap := o.MinGap
	if gap <= 0 {
		gap = 2
	}
	cells = max(cells, 2)
	if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		lo, hi = Span(lo, hi, o.NonNegative)
	}
	return fitLabelled(lo, hi, cells, gap, o)
}

// fitLabelled fits the axis, then, with LabelGap, again with the gap its
// widest label needs, until the labels fit or no wider gap has a tick.
func fitLabelled(lo, hi float64, cells, gap int, o Options) Axis {
	a := fit(lo, hi, cells, gap, o)
	for o.LabelGap && a.Every > 0 && a.Every <= a.LabelWidth() {
		gap = a.LabelWidth() + 1
		wider := fit(lo, hi, cells, gap, o)
		if wider.Every == 0 {
			break
		}
		a = wider
	}
	return a
}

func fit(lo, hi float64, cells, gap int, o Options) Axis {
	span := hi - lo
	maxGap := 2*gap + 1
	var best Axis
	bestTicks := 0 // min(best's ticks, MinTicks)
	// The finest step: the whole span in every cell at the widest gap.
	e0 := int(math.Floor(math.Log10(span/float64(cells)))) - 1
	e1 := int(math.Ceil(math.Log10(span))) + 1
	for e := e0; e <= e1; e++ {
		for _, m := range niceMantissas {
			step := m * math.Pow(10, float64(e))
			// A whole quantity's ticks are whole: not 2.5, nor 7.5 counts.
			if o.Integer && step != math.Trunc(step) {
				continue
			}
			for every := gap; every <= maxGap && every < cells+gap; every++ {
				unit := step / float64(every)
				if best.Unit > 0 && unit >= best.Unit && bestTicks >= o.MinTicks {
					continue
				}
				origin, ok := place(lo, hi, unit, cells, o.NonNegative)
				if !ok {
					continue
				}
				ticks := tickCount(origin, every, cells, o.NonNegative)
				if ticks < o.MinTicks {
					origin, ticks = moreTicks(lo, hi, unit, origin, every, cells, o.NonNegative)
				}
				// At least one tick.
				if ticks == 0 {
					continue
				}
				ticks = min(ticks, max(o.MinTicks, 1))
				if best.Unit > 0 && (ticks < bestTicks || ticks == bestTicks && unit >= best.Unit) {
					continue
				}
				bestTicks = ticks
				best = Axis{Cells: cells, Min: float64(origin) * unit, Unit: unit,
					Step: step, Every: every, Decimals: StepDecimals(step), origin: origin, nonNegative: o.NonNegative}
			}
		}
	}
	if best.Unit == 0 { // a range too wide for int64 cells: plain, unticked
		return Axis{Cells: cells, Min: lo, Unit: span / float64(cells-1)}
	}
	return best
}

// place returns the first cell's index in units (Min = origin × unit) that
// centres [lo, hi] in cells cells of unit, and whether they cover it.
func place(lo, hi, unit float64, cells int, nonNegative bool) (int64, bool) {
	width := float64(cells - 1)
	if hi-lo > width*unit*(1+1e-12) {
		return 0, false
	}
	first := math.Floor((lo+hi)/(2*unit) - width/2 + 0.5)
	if math.Abs(first) > 1<<52 {
		return 0, false
	}
	origin := int64(first)
	if nonNegative && lo >= 0 && origin < 0 {
		origin = 0
	}
	// Rounding may leave an end out by a cell: shift towards it.
	if float64(origin)*unit > lo {
		origin = int64(math.Floor(lo / unit))
	}
	if (float64(origin)+width)*unit < hi {
		origin = int64(math.Ceil(hi/unit - width))
	}
	minV, maxV := float64(origin)*unit, (float64(origin)+width)*unit
	return origin, minV <= lo+1e-9*unit && maxV >= hi-1e-9*unit
}

// tickCount returns how many ticks an axis of cells cells from origin
// (in units) has: the multiples of every among its cells, not below 0
// when nonNegative.
func tickCount(origin int64, every, cells int, nonNegative bool) int {
	first := ceilDiv(origin, int64(every))*int64(every) - origin
	if nonNegative {
		first = ceilDiv(max(origin, 0), int64(every))*int64(every) - origin
	}
	if first >= int64(cells) {
		return 0
	}
	return int((int64(cells)-1-first)/int64(every)) + 1
}

// moreTicks returns the origin nearest origin, less than every cells
// away, whose axis still covers [lo, hi] (not below 0 for non-negative
// data when nonNegative) and has more ticks, with its ticks; origin and
// its ticks when there is none. The data is then off centre by a cell or
// a few.
func moreTicks(lo, hi, unit float64, origin int64, every, cells int, nonNegative bool) (int64, int) {
	ticks := tickCount(origin, every, cells, nonNegative)
	covers := func(o int64) bool {
		if nonNegative && lo >= 0 && o < 0 {
			return false
		}
		return float64(o)*unit <= lo+1e-9*unit && (float64(o)+float64(cells-1))*unit >= hi-1e-9*unit
	}
	for d := int64(1); d < int64(every); d++ {
		for _, o := range []int64{origin - d, origin + d} {
			if n := tickCount(o, every, cells, nonNegative); n > ticks && covers(o) {
				return o, n
			}
		}
	}
	return origin, ticks
}

// ceilDiv returns ⌈a / b⌉ for b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// NiceBins returns the edges of equal histogram bins of a nice width: the
// nice width nearest width (1, 2, 2.5 or 5 times its power of ten), or
// the next nice ones while its bins, from the multiple of it
// at or below lo to the one at or above hi (one bin when they are the
// same), number at most maxBins (at least 1). Every edge is then a
// multiple of the width, labelled by Format with StepDecimals of it. For
// lo = hi the bins cover Span(lo, hi); when no nice width makes few enough
// (one bin for a range across 0), the one bin is lo to hi. NaN, ±Inf or
// width ≤ 0 return nil.
func NiceBins(lo, hi, width float64, maxBins int) []float64 {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(width > 0) || lo > hi {
		return nil
	}
	if lo == hi {
		lo, hi = Span(lo, hi, false)
		lo, hi = max(lo, -math.MaxFloat64), min(hi, math.MaxFloat64) // a constant near the largest float
		width = max(width, (hi-lo)/float64(max(maxBins, 1)))
	}
	maxBins = max(maxBins, 1)
	m, e := splitNice(width)
	w := m * math.Pow(10, float64(e))
	for {
		if !(w > 0) || math.IsInf(w, 0) {
			return []float64{lo, hi}
		}
		a, b := MultipleBelow(lo, w), MultipleBelow(hi, w)
		if NiceMultiple(b, w) < hi { // the multiple at or above hi
			b++
		}
		if b == a {
			b++
		}
		if b-a <= float64(maxBins) && MultiplesExact(a, b, w) {
			return NiceMultiples(a, b, w)
		}
		w = nextNice(w)
	}
}

// multipleMax bounds the k of the multiples NiceMultiple makes exactly:
// k times a mantissa of 5 stays under 2^53.
const multipleMax = 1 << 50

// MultiplesExact reports whether the multiples a to b of w are the edges
// NiceMultiple makes: k within multipleMax, the products finite. Widths
// far below the values (two values an ulp apart) are not.
func MultiplesExact(a, b, w float64) bool {
	return max(-a, b) < multipleMax && !math.IsInf(NiceMultiple(a, w), 0) && !math.IsInf(NiceMultiple(b, w), 0)
}

// NiceMultiple returns k times the nice width w as the float64 nearest
// their decimal product, as the edge labelled Format(k w) is: 3 × 0.2 is
// 0.6, where the product of floats is 0.6000000000000001 and would put a
// value of 0.6 in the bin below. k is a whole number within multipleMax
// (MultiplesExact); the product is the nearest for widths of 1e-22 to
// 1e22, whose powers of ten are exact.
func NiceMultiple(k, w float64) float64 {
	m, e := splitNice(w)
	if e < 0 {
		return k * m / math.Pow(10, float64(-e))
	}
	return k * m * math.Pow(10, float64(e))
}

// MultipleBelow returns the k of the greatest multiple of the nice width
// w at or below x (NiceMultiple(k, w) <= x): floor(x / w), one off where
// the division rounds across a multiple.
func MultipleBelow(x, w float64) float64 {
	k := math.Floor(x / w)
	switch {
	case NiceMultiple(k, w) > x:
		k--
	case NiceMultiple(k+1, w) <= x:
		k++
	}
	return k
}

// NiceMultiples returns the edges NiceMultiple(k, w) for k from a to b.
func NiceMultiples(a, b, w float64) []float64 {
	edges := make([]float64, int(b-a)+1)
	for i := range edges {
		edges[i] = NiceMultiple(a+float64(i), w)
	}
	return edges
}

// nextNice returns the nice number after the nice step w.
func nextNice(w float64) float64 {
	m, e := splitNice(w)
	p := math.Pow(10, float64(e))
	switch m {
	case 1:
		return 2 * p
	case 2:
		return 2.5 * p
	case 2.5:
		return 5 * p
	}
	return 10 * p
}
