package ui

import (
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// formatValue shows one number of a trajectory or a panel compactly, with
// four significant digits where formatNumber's columns keep four decimals,
// and +Inf as "inf" (how docs/CONTRACT.md, Output of compute, prints an
// infinite crowding distance).
// Like formatNumber, it shows 0 below 1e-10: the rounding error of a sum
// that is 0 in exact arithmetic (a mean of z-scores), not a magnitude.
func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case math.Abs(v) < 1e-10:
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// fitLine returns s, from data, safe to print on one line and cut to width
// cells (wide characters count twice).
func fitLine(s string, width int) string {
	return ansi.Truncate(textsafe.Line(s), width, "…")
}

// padRight pads s with spaces to width cells, counting wide characters as
// two, which fmt's %-*s (counting runes) does not.
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(width-ansi.StringWidth(s), 0))
}

// count returns "1 one" or "n many".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
