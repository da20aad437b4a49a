package ui

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// statusLine is the line of warnings above the footer: the session's
// (skipped lines, what the caller reported) and the current result's
// invalid trajectories per cause. They go here, not to stderr, which the
// full-screen dashboard hides. A notice (the file an export wrote, or why
// it failed) goes before them until the next one.
type statusLine struct {
	layout   string // Session.Layout, sanitised
	warnings []string
	notice   string
	failed   bool // the notice is an error
}

// setNotice shows what a command did: done, or err when it failed.
func (l *statusLine) setNotice(done string, err error) {
	l.notice, l.failed = textsafe.Line(done), err != nil
	if err != nil {
		l.notice = textsafe.Line(err.Error())
	}
}

// clearNotice clears the notice if it is still done.
func (l *statusLine) clearNotice(done string) {
	if !l.failed && l.notice == textsafe.Line(done) {
		l.notice = ""
	}
}

// refresh collects the warnings of s, sanitised: they quote file names and
// data.
func (l *statusLine) refresh(s *Session) {
	l.layout = textsafe.Line(s.Layout)
	l.warnings = l.warnings[:0]
	for _, w := range s.Warnings {
		l.warnings = append(l.warnings, textsafe.Line(w))
	}
	if w := invalidWarning(s.Result.Evaluation.InvalidCounts()); w != "" {
		l.warnings = append(l.warnings, textsafe.Line(w))
	}
}

// view renders the notice and the warnings on one line, cut to width.
func (l statusLine) view(st *Styles, width int) string {
	line := st.Status.Render("no warnings")
	if len(l.warnings) > 0 {
		line = st.Warning.Render("⚠ " + strings.Join(l.warnings, " · "))
	}
	if l.layout != "" {
		line = st.Status.Render(l.layout) + " · " + line
	}
	switch {
	case l.failed:
		line = st.Invalid.Render("✖ "+l.notice) + " · " + line
	case l.notice != "":
		line = st.Positive.Render("✓ "+l.notice) + " · " + line
	}
	return ansi.Truncate(line, width, "…")
}

// invalidWarning summarises the invalid trajectories by cause, the most
// frequent first: "3 invalid trajectories (reward = their group's mean):
// accuracy: missing ×3". It is "" when every trajectory is valid.
func invalidWarning(counts map[string]int) string {
	if len(counts) == 0 {
		return ""
	}
	causes := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b))
	})
	total := 0
	parts := make([]string, len(causes))
	for i, c := range causes {
		total += counts[c]
		parts[i] = fmt.Sprintf("%s ×%d", c, counts[c])
	}
	noun := "trajectories"
	if total == 1 {
		noun = "trajectory"
	}
	return fmt.Sprintf("%d invalid %s (reward = their group's mean): %s", total, noun, strings.Join(parts, ", "))
}
