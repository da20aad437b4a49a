package common

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// healthCounts counts the checks (per objective) by the worst level they
// reached; a provisional finding (of a step still being written:
// health.Finding.Provisional) at WARN at most, as it raises no verdict.
func healthCounts(findings []health.Finding) (warn, alert int) {
	worst := map[[2]string]health.Level{}
	for _, f := range findings {
		k := [2]string{string(f.Check), f.Objective}
		level := f.Level
		if f.Provisional != "" {
			level = min(level, health.Warn)
		}
		worst[k] = max(worst[k], level)
	}
	for _, l := range worst {
		if l == health.Alert {
			alert++
		} else {
			warn++
		}
	}
	return warn, alert
}

// UpdatingBadge is the header's badge while the health of the result
// shown is computed in the background.
func UpdatingBadge(st *Styles) string { return st.Muted.Render("◌ health updating…") }

// RecomputingBadge is the header's badge from a change of the options
// until the recompute's result is shown: the header names the settings of
// the result on screen, so this is the sign that a key was taken.
func RecomputingBadge(st *Styles) string { return st.Muted.Render("◌ recomputing…") }

// HealthBadge sums the findings up for the header and the Steps panel
// in one unit, the check (per objective), each counted at the worst level
// it reached, said in words: "✓ healthy", "⚠ 2 checks warn", or "✖ 2
// checks alert ⚠ 1 warns" (the unit said once), the alerts highlighted;
// compact, the counts alone, "✖2 ⚠1", for a narrow header. A check that
// warned at one step and alerted at a later one is two findings (the
// Steps panel's lines) but one check, alerting. unread, UnreadBadge's
// mark of the followed files not read (their rows are missing from the
// findings; "" for none), follows, and the badge never reads healthy
// beside it.
func HealthBadge(st *Styles, findings []health.Finding, unread string, compact bool) string {
	warn, alert := healthCounts(findings)
	var parts []string
	switch {
	case alert > 0 && compact:
		parts = append(parts, st.Alert.Render(fmt.Sprintf("✖%d", alert)))
	case alert > 0:
		parts = append(parts, st.Alert.Render("✖ "+Count(alert, "check", "checks")+" "+english.Verb(alert, "alerts", "alert")))
	}
	switch {
	case warn > 0 && compact:
		parts = append(parts, st.Warning.Render(fmt.Sprintf("⚠%d", warn)))
	case warn > 0:
		count := Count(warn, "check", "checks")
		if alert > 0 { // the unit said once: "⚠ 1 warns"
			count = strconv.Itoa(warn)
		}
		parts = append(parts, st.Warning.Render("⚠ "+count+" "+english.Verb(warn, "warns", "warn")))
	}
	if unread != "" {
		parts = append(parts, unread)
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, " ")
	case compact:
		return st.Positive.Render("✓")
	}
	return st.Positive.Render("✓ healthy")
}

// UnreadBadge is the badge's mark of the followed files not read, "" for
// none: "⚠ a_1.jsonl unread" (its name, the directory left out, escaped,
// its last maxUnreadNameCells cells: a run's files differ by their ends)
// for one, "⚠ 2 files unread" for more; compact, "⚠ 1 unread". The status
// line says their errors whole.
func UnreadBadge(st *Styles, unread []string, compact bool) string {
	switch {
	case len(unread) == 0:
		return ""
	case compact:
		return st.Warning.Render(fmt.Sprintf("⚠ %d unread", len(unread)))
	case len(unread) == 1:
		// Cut once escaped: an escape takes several cells, a wide rune two.
		name := textsafe.Line(filepath.Base(unread[0]))
		if TextWidth(name) > maxUnreadNameCells {
			name = "…" + lastCells(name, maxUnreadNameCells)
		}
		return st.Warning.Render("⚠ " + name + " unread")
	}
	return st.Warning.Render(fmt.Sprintf("⚠ %d files unread", len(unread)))
}

// maxUnreadNameCells is how much of an unread file's name UnreadBadge
// shows: the header has other fields to fit beside it.
const maxUnreadNameCells = 24

// FindingLine is one finding for the Steps tab in width cells: with
// padded, level, step, check and what it saw, the level and the step
// padded to align the lines. Where that does not fit, or without padded,
// the level is its symbol alone and nothing is padded ("✖ step 26
// length_drift: …", as CompactHealthBadge); where that still does not
// fit, it is cut after a word (FitWords), but the measure the message
// ends in (": -5.9 sd": health.Finding.Measure) stays whole while the check's
// name fits before it: the words between are cut. A list of findings
// passes padded only when every line fits padded (FindingsPadded), so
// that its lines are all of one form.
func FindingLine(st *Styles, f health.Finding, width int, padded bool) string {
	check, what := findingWhat(f)
	symbol, level, style := "⚠", "WARN ", st.Warning
	if f.Level == health.Alert {
		symbol, level, style = "✖", "ALERT", st.Alert
	}
	if line := paddedFinding(style.Render(symbol+" "+level), f, what); padded && ansi.StringWidth(line) <= width {
		return line
	}
	head := style.Render(symbol) + fmt.Sprintf(" step %d ", f.Step)
	room := width - ansi.StringWidth(head)
	if ansi.StringWidth(what) <= room {
		return head + what
	}
	if m := f.Measure; m != "" && strings.HasSuffix(f.Message, ": "+m) {
		measure := ": " + textsafe.Line(m)
		words := check + ": " + textsafe.Line(strings.TrimSuffix(f.Message, ": "+m))
		if before := room - ansi.StringWidth(measure); before > ansi.StringWidth(check) {
			return head + FitWords(words, before) + measure
		}
	}
	return FitWords(head+what, width)
}

// paddedFinding is a finding's line with its level, "✖ ALERT", and step
// padded.
func paddedFinding(level string, f health.Finding, what string) string {
	return fmt.Sprintf("%s step %-4d %s", level, f.Step, what)
}

// FindingsPadded reports whether every finding of findings fits padded in
// width cells (FindingLine).
func FindingsPadded(findings []health.Finding, width int) bool {
	return !slices.ContainsFunc(findings, func(f health.Finding) bool {
		_, what := findingWhat(f)
		return ansi.StringWidth(paddedFinding("✖ ALERT", f, what)) > width
	})
}

// FindingFits reports whether FindingLine shows f whole in width cells,
// in its compact form at least.
func FindingFits(f health.Finding, width int) bool {
	_, what := findingWhat(f)
	return ansi.StringWidth(fmt.Sprintf("✖ step %d %s", f.Step, what)) <= width
}

// AlertsFirst returns findings with the ALERTs first, then the WARNs,
// each in their step order: a short screen that lists one finding lists
// the worst.
func AlertsFirst(findings []health.Finding) []health.Finding {
	return slices.SortedStableFunc(slices.Values(findings), func(a, b health.Finding) int {
		return cmp.Or(cmp.Compare(b.Level, a.Level), cmp.Compare(a.Step, b.Step))
	})
}

// findingWhat is a finding's check (with its objective, and
// "(provisional)" when its step is still being written) and that check
// followed by what it saw, sanitised: they quote objectives' names.
func findingWhat(f health.Finding) (check, what string) {
	check = string(f.Check)
	if f.Objective != "" {
		check += " (" + f.Objective + ")"
	}
	if f.Provisional != "" {
		check += " (provisional)"
	}
	check = textsafe.Line(check)
	return check, check + ": " + textsafe.Line(f.Message)
}

// FindingText is a finding whole, unstyled, for ? to wrap: "✖ ALERT
// step 26 length_drift: mean step_count 5.6, …: -5.9 sd", and of a
// provisional one why ("; provisional: WHY").
func FindingText(f health.Finding) string {
	_, what := findingWhat(f)
	level := "⚠ WARN"
	if f.Level == health.Alert {
		level = "✖ ALERT"
	}
	text := fmt.Sprintf("%s step %d %s", level, f.Step, what)
	if f.Provisional != "" {
		text += "; provisional: " + textsafe.Line(f.Provisional)
	}
	return text
}
