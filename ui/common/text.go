package common

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// MissingValue shows an objective its record has no value of, missing,
// null or NaN, which nansum counts 0 in the score
// (engine.Evaluation.Missing): TRL's None reward, which is no wrong
// answer, so not shown as the 0 it counts; compute writes it null.
const MissingValue = "null"

// ObjectiveValue shows trajectory i's objective k in ev compactly: its raw
// value (FormatValue), MissingValue where the record has none.
func ObjectiveValue(ev *engine.Evaluation, i, k int) string {
	if ev.Missing(i, k) {
		return MissingValue
	}
	return FormatValue(ev.Values[i*ev.M+k])
}

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

// FitMiddle returns s, from data, safe to print on one line and cut to
// width cells in its middle: its head and its tail kept (half each), an
// ellipsis between, so that ids differing only at one end stay distinct.
func FitMiddle(s string, width int) string {
	s = textsafe.Line(s)
	w := TextWidth(s)
	if w <= width {
		return s
	}
	if width < 3 {
		return ansi.Truncate(s, width, "…")
	}
	tail := (width - 1) / 2
	head := width - 1 - tail
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, w-tail, "")
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

// MaxIDWidth is the widest a column of trajectory ids is drawn, in cells.
const MaxIDWidth = 28

// minSharedPrefix is how long the start that every listed group shares
// must be for the group column to leave it out.
const minSharedPrefix = 12

// SharedGroupPrefix returns how many bytes of the group keys cell(0) ..
// cell(n-1) to leave out: the words and lines they all start with, when
// there are some and two groups at least, else 0. Prompts used as groups
// (verl's input, TRL's prompt) share a chat template and a system prompt,
// and a column cut to its first characters would show the same text for
// every group. The cell then starts with "…"; the detail view shows the
// group whole. The keys are raw, not yet escaped (textsafe): an escaped
// line end is no line end.
func SharedGroupPrefix(n int, cell func(j int) string) int {
	if n < 2 {
		return 0
	}
	first := cell(0)
	prefix, distinct, last := first, false, first
	for j := 1; j < n; j++ {
		g := cell(j)
		if g == last { // a group's rows, one after another
			continue
		}
		last = g
		distinct = distinct || g != first
		k := 0
		for k < len(prefix) && k < len(g) && prefix[k] == g[k] {
			k++
		}
		prefix = prefix[:k]
		if len(prefix) < minSharedPrefix || !strings.ContainsAny(prefix, " \n") {
			return 0 // only shrinks: no whole word or line left to cut
		}
	}
	cut := strings.LastIndexAny(prefix, " \n") + 1 // whole words and lines only
	if !distinct || cut < minSharedPrefix {
		return 0
	}
	return cut
}

// computedNames are what the tables and the detail view show beside the
// objectives, of what rewardlens computes or reads for each trajectory.
var computedNames = []string{"id", "group", "batch", "step_count", "done", "read from", "valid", "score", "reward", "rank",
	"pareto_rank", "crowding", "feasible", "violation", "cell", "logged", "response"}

// ObjectiveName returns an objective's name as a column or a row shows
// it, safe to print, marked " (obj)" when it is also the name of what is
// shown beside it (computedNames, a method's rewards): verl's objective
// is its score, open-instruct's its reward.
func ObjectiveName(name string) string {
	if slices.Contains(computedNames, name) || slices.Contains(engine.AllMethods(), engine.Method(name)) {
		return textsafe.Line(name) + " (obj)"
	}
	return textsafe.Line(name)
}
