package ui

import (
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// formatNumber formats a statistic in a column: four decimals, or four
// significant digits in exponent form when fixed point would hide the
// value (|v| >= 1e5, or 1e-10 <= |v| < 1e-3); NaN and the infinities by
// name. Below 1e-10 a value shows as 0: it is the rounding error of a sum
// that is 0 in exact arithmetic (the mean of z-scores, of advantages), not
// a magnitude worth an exponent.
func formatNumber(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64) // "+Inf", "-Inf"
	case a < 1e-10:
		v = 0 // also turns -0 into 0
	case a >= 1e5 || a < 1e-3:
		return strconv.FormatFloat(v, 'e', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// formatTick formats a tick label of an axis whose ticks are step apart:
// with as many decimals as step needs and no more, so that a 0..1 axis
// with 0.25 steps reads 0.25, 0.50, 0.75 (not ntcharts' default %.0f,
// which shows only 0 and 1) and a token-count axis reads 120, 240.
func formatTick(v, step float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) >= 1e6 {
		return formatNumber(v)
	}
	return strconv.FormatFloat(v, 'f', tickDecimals(step), 64)
}

// tickDecimals returns the decimals that show multiples of step apart:
// those of its leading digit, plus one when step needs a second digit
// (0.25, 2.5), at most 6.
func tickDecimals(step float64) int {
	if step <= 0 || math.IsNaN(step) || math.IsInf(step, 0) {
		return 2
	}
	d := max(0, int(-math.Floor(math.Log10(step))))
	scaled := step * math.Pow10(d)
	if math.Abs(scaled-math.Round(scaled)) > 1e-6*scaled {
		d++
	}
	return min(d, 6)
}

// tickFormatter returns formatTick for ticks step apart in the form of an
// ntcharts linechart.LabelFormatter (func(index int, value float64) string),
// for charts whose axes ntcharts labels.
func tickFormatter(step float64) func(int, float64) string {
	return func(_ int, v float64) string { return formatTick(v, step) }
}

// fitBox returns s cut to width columns and height lines, padded with
// empty lines to exactly height lines, so that what follows it stays in
// place whatever a tab draws.
func fitBox(s string, width, height int) string {
	if width <= 0 || height <= 0 {
		return strings.Repeat("\n", max(height-1, 0))
	}
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "")
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// padLeft pads s with spaces on the left to width cells, counting wide
// characters as two, which fmt's %*s (counting runes) does not; padRight
// (text.go) is its mirror.
func padLeft(s string, width int) string {
	return strings.Repeat(" ", max(width-ansi.StringWidth(s), 0)) + s
}
