package common

import (
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
)

// FormatNumber formats a statistic in a column: four decimals, or four
// significant digits in exponent form when fixed point would hide the
// value (|v| >= 1e5, or 1e-10 <= |v| < 1e-3); NaN and the infinities by
// name. Below 1e-10 a value shows as 0: it is the rounding error of a sum
// that is 0 in exact arithmetic (the mean of z-scores, of advantages), not
// a magnitude worth an exponent.
func FormatNumber(v float64) string {
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

// FormatWeight writes an objective's weight with 2 decimals, or with 4
// significant digits when 2 decimals would round it (a typed 0.333 is not
// shown as the 0.33 it is not); NaN, the weight of an objective that the
// sources weigh differently (engine.Evaluation.ObjectiveWeight), is "by
// source".
func FormatWeight(w float64) string {
	if math.IsNaN(w) {
		return "by source"
	}
	s := strconv.FormatFloat(w, 'f', 2, 64)
	if v, _ := strconv.ParseFloat(s, 64); v == w {
		return s
	}
	return strconv.FormatFloat(w, 'g', 4, 64)
}

// FitBox returns s cut to width columns and height lines, padded with
// empty lines to exactly height lines, so that what follows it stays in
// place whatever a tab draws.
func FitBox(s string, width, height int) string {
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

// PadLeft pads s with spaces on the left to width cells, counting wide
// characters as two, which fmt's %*s (counting runes) does not; PadRight
// (text.go) is its mirror.
func PadLeft(s string, width int) string {
	return strings.Repeat(" ", max(width-ansi.StringWidth(s), 0)) + s
}

// FeasibleText says whether trajectory i of ev meets every constraint:
// "yes", or no (the word "no", styled as the caller shows it) and its
// violation, "no, violation X"; "-" for an invalid one, as its rank.
func FeasibleText(ev *engine.Evaluation, i int, no string) string {
	switch {
	case !ev.Valid[i]:
		return "-"
	case ev.Feasible(i):
		return "yes"
	}
	return no + ", violation " + FormatValue(ev.ViolationOf(i))
}

// FeasibleMark is FeasibleText in a table's cell: "✓", or "✗" and the
// violation shown by format, the column's ("✗ 0.138"); "-" for an
// invalid one.
func FeasibleMark(ev *engine.Evaluation, i int, format func(float64) string) string {
	switch {
	case !ev.Valid[i]:
		return "-"
	case ev.Feasible(i):
		return "✓"
	}
	return "✗ " + format(ev.ViolationOf(i))
}

// ShownViolation returns trajectory i's violation and whether
// FeasibleMark shows it: a column's format is chosen from those shown.
func ShownViolation(ev *engine.Evaluation, i int) (float64, bool) {
	return ev.ViolationOf(i), ev.Valid[i] && !ev.Feasible(i)
}

// ScoreFormula states the score s as res was computed
// (docs/CONTRACT.md, Objectives with structure): the weighted sum of the
// objectives, gated and normalised when they are, less lambda times the
// violation when there are constraints. In fewer than width cells it
// leaves out the parenthesis, writes w for weight, then leaves out the
// gate, then writes o for the objective: the penalty is what stays.
func ScoreFormula(res *engine.Result, width int) string {
	term := "objective"
	if n := res.Options.NormalizeObjectives; n != engine.NormNone && n != "" {
		term = string(n) + "(objective)"
	}
	if len(res.Evaluation.Gates) > 0 {
		term = "gate × " + term
	}
	sum, penalty, note := "s = Σ weight × "+term, "", " (min goals negated)"
	if res.Evaluation.HasConstraints() {
		penalty = " − λ × violation"
		note = " (λ = " + FormatValue(res.Options.Penalty) + "; min goals negated)"
	}
	short := " − λ·violation"
	if penalty == "" {
		short = ""
	}
	for _, f := range []string{sum + penalty + note, sum + penalty, "s = Σ w × " + term + penalty, "s = Σ w × objective" + penalty} {
		if TextWidth(f) <= width {
			return f
		}
	}
	return "s = Σ w·o" + short
}

// RankText shows a Pareto rank, "-" for an invalid trajectory's -1.
func RankText(rank int) string {
	if rank < 0 {
		return "-"
	}
	return strconv.Itoa(rank)
}

// PendingValue stands for a value a job computes off the event loop
// until it lands (the group filter's dropped trajectories' score and
// rank as compute writes them: session.WrittenJob).
const PendingValue = "…"

// SortArrow shows a sort direction.
func SortArrow(descending bool) string {
	if descending {
		return " ▼"
	}
	return " ▲"
}

// NormalizeText is what the header (and a switch's notice) says of the
// normalisation, from the settings the method reads
// (engine.Options.MethodSettings): "on" or "off", and for a method that
// reads the scale (grpo: TRL's scale_rewards) "on" for the group's std,
// "batch" for the batch's, "off" for none; "" under a method that has
// none (rloo), for which the header shows no normalize field, as stats'
// settings line shows none.
func NormalizeText(o engine.Options) string {
	m := o.MethodSettings()
	switch {
	case m.Scale == engine.ScaleNone, m.Normalize != nil && !*m.Normalize:
		return "off"
	case m.Scale == engine.ScaleBatch:
		return "batch"
	case m.Scale != "", m.Normalize != nil:
		return "on"
	}
	return ""
}

// NormalizeTexts are the values NormalizeText gives but "".
var NormalizeTexts = []string{"on", "batch", "off"}

// WidestNormalizeText is the longest of NormalizeTexts: the header keeps
// its room where n must not move a field.
func WidestNormalizeText() string {
	widest := ""
	for _, t := range NormalizeTexts {
		if len(t) > len(widest) {
			widest = t
		}
	}
	return widest
}

// WidestMethod is the longest name of the methods m and M cycle through
// under options o (engine.MethodsFor) and of o's method: the header
// keeps its room where m must not move a field.
func WidestMethod(o engine.Options) string {
	widest := string(o.Method)
	for _, m := range engine.MethodsFor(o) {
		if len(m) > len(widest) {
			widest = string(m)
		}
	}
	return widest
}

// NumberInputWidth is the least width of a number's text input (a weight,
// the penalty): a text input shows as much of its placeholder, the value
// kept when nothing is typed, as its width, and without one its first
// character alone.
const NumberInputWidth = 8
