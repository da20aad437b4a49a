package common

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// TestFindingLineKeepsTheMeasureOfData: cut to a narrow width, a finding
// keeps whole the measure its Measure says its message ends in, and only
// that: a constraint's message, which ends in the expression as given
// ("...: 2 sd\"", which reads like a measure), is cut at its end like
// any other words.
func TestFindingLineKeepsTheMeasureOfData(t *testing.T) {
	st := NewStyles(true, true)
	drift := health.Finding{Check: health.CheckLengthDrift, Level: health.Alert, Step: 26, Value: -5.9,
		Measure: "-5.9 sd", Message: "mean step_count 5.6, baseline 7.96 ± 0.398: -5.9 sd"}
	const expr = `metadata["tag"] != "a: 2 sd"`
	constraint := health.Finding{Check: health.CheckConstraint, Level: health.Warn, Step: 3, Objective: expr,
		Message: "40% of valid trajectories break " + expr}
	for _, tc := range []struct {
		f     health.Finding
		width int
		want  string // the line's end
	}{
		{drift, 50, "…: -5.9 sd"},
		{constraint, 78, "40% of valid…"},
	} {
		line := ansi.Strip(FindingLine(st, tc.f, tc.width, false))
		if ansi.StringWidth(line) > tc.width || !strings.HasSuffix(line, tc.want) {
			t.Errorf("%s at %d cells: %q, want it to end in %q", tc.f.Check, tc.width, line, tc.want)
		}
	}
}

// TestUnreadBadgeCutsTheEscapedName: an unread file's name is cut to its
// last maxUnreadNameCells cells once escaped, however many cells its
// runes take: wide ones, control characters shown as escapes.
func TestUnreadBadgeCutsTheEscapedName(t *testing.T) {
	st := NewStyles(true, true)
	for _, base := range []string{
		strings.Repeat("報酬", 20) + ".jsonl",
		strings.Repeat("\x1b", 20) + "run.jsonl",
		"rollouts_of_a_very_long_run_name.jsonl",
	} {
		badge := ansi.Strip(UnreadBadge(st, []string{"run/" + base}, false))
		name, ok := strings.CutPrefix(strings.TrimSuffix(badge, " unread"), "⚠ …")
		if !ok || TextWidth(name) > maxUnreadNameCells || !strings.HasSuffix(textsafe.Line(base), name) {
			t.Errorf("%q: badge %q, want the last %d cells of the escaped name after …", base, badge, maxUnreadNameCells)
		}
	}
}
