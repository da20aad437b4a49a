package common

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// FormatValue shows one number of a trajectory or a panel compactly, with
// four significant digits where FormatNumber's columns keep four decimals,
// and +Inf as "inf" (how docs/CONTRACT.md, Output of compute, prints an
// infinite crowding distance).
// Like FormatNumber, it shows 0 below 1e-10: the rounding error of a sum
// that is 0 in exact arithmetic (a mean of z-scores), not a magnitude.
func FormatValue(v float64) string {
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

// FitLine returns s, from data, safe to print on one line and cut to width
// cells (wide characters count twice).
func FitLine(s string, width int) string {
	return ansi.Truncate(textsafe.Line(s), width, "…")
}

// PadRight pads s with spaces to width cells, counting wide characters as
// two, which fmt's %-*s (counting runes) does not.
func PadRight(s string, width int) string {
	return s + strings.Repeat(" ", max(width-ansi.StringWidth(s), 0))
}

// Count returns "1 one" or "n many".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// TextWidth returns the cells s takes on screen: its length when it is
// ASCII, as ids nearly always are (ansi.StringWidth is slow on 100k of
// them).
func TextWidth(s string) int {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}
