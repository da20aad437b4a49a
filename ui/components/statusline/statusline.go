// Package statusline is the dashboard's line of warnings above the
// footer, and the notice of what a command did.
package statusline

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/internal/english"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// Line is the line of warnings above the footer: the session's
// (skipped lines, what the caller reported) and the current result's
// invalid trajectories per cause. They go here, not to stderr, which the
// full-screen dashboard hides. A notice (the file an export wrote, or why
// it failed) goes before them until the next one.
type Line struct {
	// layout is layoutText, sanitised, as the line says it, and
	// layoutWhole as ? does.
	layout, layoutWhole string
	warnings            []string
	// whole are the warnings as ? lists them: the layout's each whole,
	// where warnings says the first and how many more.
	whole  []string
	notice string
	failed bool // the notice is an error
	info   bool // the notice informs (SetInfo): no ✓, which says a success
	// noticeID numbers the notices, so that an expiry clears only its
	// own.
	noticeID int
	// holds says whether the notice is still true (SetInfoWhile); nil
	// for one true until it expires.
	holds func() bool
	// loud and invalid are the warnings of the evaluation of: why none
	// of its trajectories is valid or which batches are mostly invalid,
	// and the invalid ones per cause (each "" when there is nothing to
	// say). They depend on which trajectories are valid, which a method
	// switch, a new batch shown or a notice leaves as they are: those do
	// not count them again.
	of                    *engine.Evaluation
	loud, groups, invalid string
	// tally counts of's invalid trajectories, a followed update's rows
	// alone.
	tally invalidTally
	// allGroups are the layout's warnings of notes, sanitised: the
	// session's (session.LayoutNotes), computed off the event loop when the
	// evaluation or the options they read change, so that the line only
	// sanitises them again when they are new.
	allGroups []string
	notes     *session.LayoutNotes
	// logged are the warnings of the logged advantages that no reward is
	// compared with (not numbers; NaN or infinite), sanitised, shown after
	// the session's (the trainer check's among them); counted for each
	// evaluation, so that following updates them.
	logged []string
	// filter is the group filter's state and counts, first on the line.
	filter string
}

// NoticeLifetime is how long a notice of what a command did stays on the
// line; an error stays until the next notice. A variable that tests
// shorten.
var NoticeLifetime = 4 * time.Second

// ExpiredMsg says that notice number id has lived NoticeLifetime (Expire).
type ExpiredMsg struct{ id int }

// SetNotice shows what a command did: done, or err when it failed. The
// command returned clears done after NoticeLifetime (nil for an error,
// which stays): give its ExpiredMsg to Expire.
func (l *Line) SetNotice(done string, err error) tea.Cmd {
	l.noticeID++
	l.notice, l.failed, l.info, l.holds = textsafe.Line(done), err != nil, false, nil
	if err != nil {
		l.notice = textsafe.Line(err.Error())
		return nil
	}
	id := l.noticeID
	return tea.Tick(NoticeLifetime, func(time.Time) tea.Msg { return ExpiredMsg{id} })
}

// SetInfo shows text as SetNotice shows what a command did, unmarked:
// information (why a key did nothing, where a search went), not a
// success.
func (l *Line) SetInfo(text string) tea.Cmd {
	cmd := l.SetNotice(text, nil)
	l.info = true
	return cmd
}

// SetInfoWhile is SetInfo for text that stays true only while holds
// reports so (the selection it describes is still selected): DropUntrue
// clears it once holds does not.
func (l *Line) SetInfoWhile(text string, holds func() bool) tea.Cmd {
	cmd := l.SetInfo(text)
	l.holds = holds
	return cmd
}

// DropUntrue clears the notice when it is no longer true (SetInfoWhile)
// and reports whether it did, so that the screen is drawn again.
func (l *Line) DropUntrue() bool {
	if l.holds == nil || l.notice == "" || l.holds() {
		return false
	}
	l.notice, l.holds = "", nil
	return true
}

// Expire clears the notice msg is about, unless a newer notice replaced
// it.
func (l *Line) Expire(msg ExpiredMsg) {
	if msg.id == l.noticeID && !l.failed {
		l.notice = ""
	}
}

// ClearNotice clears the notice if it is still done.
func (l *Line) ClearNotice(done string) {
	if !l.failed && l.notice == textsafe.Line(done) {
		l.notice = ""
	}
}

// Refresh collects the warnings of s, sanitised: they quote file names and
// data.
func (l *Line) Refresh(s *session.Session) {
	if n := s.LayoutNotes(); n != l.notes {
		l.notes = n
		l.allGroups = l.allGroups[:0]
		if n != nil {
			for _, w := range n.Warnings {
				l.allGroups = append(l.allGroups, textsafe.Line(w))
			}
		}
		l.groups = textsafe.Line(firstAndMore(l.allGroups))
	}
	if l.of != s.Result.Evaluation {
		l.of, l.loud = s.Result.Evaluation, ""
		l.tally.count(s.Result)
		if err := invalid.NoValid(s.Result, s.Computer.Scorer, s.Fields); err != nil {
			l.loud = textsafe.Line(err.Error())
		} else if w := mostlyInvalidWarning(s.Result, l.tally.mostlyInvalid()); w != "" {
			l.loud = textsafe.Line(w)
		} else if w := s.Result.Evaluation.InfeasibleWarning(); w != "" {
			l.loud = textsafe.Line(w)
		}
		l.invalid = textsafe.Line(invalidWarning(l.tally.causes))
		l.logged = l.logged[:0]
		for _, w := range []string{agreement.NotNumberWarning(s.Result.Evaluation), agreement.NonFiniteWarning(s.Result.Evaluation)} {
			if w != "" {
				l.logged = append(l.logged, textsafe.Line(w))
			}
		}
	}
	line, whole := layoutText(s)
	l.layout, l.layoutWhole = textsafe.Line(line), textsafe.Line(whole)
	l.filter = textsafe.Line(s.FilterSummary())
	l.warnings, l.whole = l.warnings[:0], l.whole[:0]
	// The loudest first: the line is cut to the terminal's width.
	if l.loud != "" {
		l.warnings = append(l.warnings, l.loud)
		l.whole = append(l.whole, l.loud)
	}
	if l.groups != "" {
		mark := behindMark(s.LayoutNotesBehind())
		l.warnings = append(l.warnings, l.groups+mark)
		for _, w := range l.allGroups {
			l.whole = append(l.whole, w+mark)
		}
	}
	for _, w := range s.Warnings {
		w = textsafe.Line(w)
		l.warnings = append(l.warnings, w)
		l.whole = append(l.whole, w)
	}
	// After what the reading says, of the shown result's options: --scope batch compares the whole
	// batch by choice, and the method says what its rewards then are.
	if w := layouts.UngroupedWarning(s.Result, s.Fields); w != "" {
		w = textsafe.Line(w)
		l.warnings = append(l.warnings, w)
		l.whole = append(l.whole, w)
	}
	if w := s.LoggedWarning(); w != "" {
		w = textsafe.Line(w) + behindMark(s.LoggedWarningBehind())
		l.warnings = append(l.warnings, w)
		l.whole = append(l.whole, w)
	}
	l.warnings = append(l.warnings, l.logged...)
	l.whole = append(l.whole, l.logged...)
	if l.invalid != "" {
		l.warnings = append(l.warnings, l.invalid)
		l.whole = append(l.whole, l.invalid)
	}
}

// behindMark says, after a warning not of the result shown, what it is
// of: of the rows of an earlier result (a followed run that grew since),
// how many; of other options over the same rows, that it is recomputed;
// "" when it is of the result shown.
func behindMark(lag session.Lag) string {
	switch {
	case !lag.Behind:
		return ""
	case lag.Grew:
		return fmt.Sprintf(" (as of %d %s; counting again)", lag.Rows, english.Plural(lag.Rows, "row"))
	default:
		return " (recomputing)"
	}
}

// layoutText is how the inputs were read (Session.Layout), the objectives
// inferred (whole: Session.InferredNote; line: how many, which ? says)
// and, when the method on screen has settings other than the defaults,
// those: "read as verl rollout dumps: …; grpo: epsilon 1e-06, a group of
// one: score". They are the shown result's, so that they stay true when
// the method is switched (pareto has no epsilon).
func layoutText(s *session.Session) (line, whole string) {
	var settings string
	if changed := s.Result.Options.ChangedSettings(); len(changed) > 0 {
		settings = string(s.Result.Options.Method) + ": " + strings.Join(changed, ", ")
	}
	inferred := s.InferredNote
	if n := len(s.Config.Objectives); inferred != "" {
		inferred = fmt.Sprintf("%d %s inferred (? says which)", n, english.Plural(n, "objective"))
	}
	join := func(parts ...string) string {
		return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), "; ")
	}
	return join(s.Layout, inferred, settings), join(s.Layout, s.InferredNote, settings)
}

// Warnings returns the warnings the line shows, whole, the layout's one
// by one: ? lists them.
func (l Line) Warnings() []string { return l.whole }

// Notice returns the notice the line shows, whole and sanitised, as it
// starts on the line ("✓ " for a success, "✖ " for an error, nothing
// for information), or "" for none: ? shows it, which the line may cut.
func (l Line) Notice() string {
	switch {
	case l.notice == "":
		return ""
	case l.failed:
		return "✖ " + l.notice
	case l.info:
		return l.notice
	}
	return "✓ " + l.notice
}

// seeAll ends a line cut short of its warnings: ? shows them whole.
const seeAll = " (? shows all)"

// Layout returns how the inputs were read, the objectives inferred and
// the method's settings, whole, sanitised: ? gives it, which the line may
// cut or shorten.
func (l Line) Layout() string { return l.layoutWhole }

// View renders the notice and the warnings on one line, cut to width:
// when the warnings or how the inputs were read are cut, it says that ?
// shows them.
func (l Line) View(st *common.Styles, width int) string {
	line := st.Status.Render("no warnings")
	if len(l.warnings) > 0 {
		line = st.Warning.Render("⚠ " + strings.Join(l.warnings, " · "))
	}
	cut := false // the layout, to leave room for the warnings
	if l.layout != "" {
		// The layout takes at most half the line when there are
		// warnings, which must not be cut away.
		layout := l.layout
		if len(l.warnings) > 0 {
			layout = ansi.Truncate(layout, width/2, "…")
			cut = layout != l.layout
		}
		line = st.Status.Render(layout) + " · " + line
	}
	if l.filter != "" {
		line = st.Title.Render(l.filter) + " · " + line
	}
	switch {
	case l.failed:
		line = st.Invalid.Render("✖ "+l.notice) + " · " + line
	case l.info && l.notice != "":
		line = st.Status.Render(l.notice) + " · " + line
	case l.notice != "":
		line = st.Positive.Render("✓ "+l.notice) + " · " + line
	}
	if l.layout != "" || len(l.warnings) > 0 {
		if (cut || ansi.StringWidth(line) > width) && width > 2*len(seeAll) {
			return ansi.Truncate(line, width-len(seeAll), "…") + st.Muted.Render(seeAll)
		}
	}
	return ansi.Truncate(line, width, "…")
}

// firstAndMore is the first of the layout's warnings ws and how many more
// there are; "" when there are none.
func firstAndMore(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	more := "steps"
	if len(ws) == 2 {
		more = "step"
	}
	return fmt.Sprintf("%s (and %d more %s)", ws[0], len(ws)-1, more)
}

// maxStepsListed is how many steps mostlyInvalidWarning lists.
const maxStepsListed = 5

// mostlyInvalidWarning names mostly, the steps of res more than half of
// whose trajectories are invalid (ascending), and details the first
// (invalid.Step): "more than half invalid in 2 steps (7, 9): step 7: 60
// of 96 trajectories invalid (62%), mostly acc: missing (58)". It is ""
// when there are none.
func mostlyInvalidWarning(res *engine.Result, mostly []int64) string {
	if len(mostly) == 0 {
		return ""
	}
	first, _ := invalid.Step(res, mostly[0])
	if len(mostly) == 1 {
		return first.String()
	}
	steps := make([]string, 0, maxStepsListed+1)
	for _, step := range mostly[:min(len(mostly), maxStepsListed)] {
		steps = append(steps, strconv.FormatInt(step, 10))
	}
	if len(mostly) > maxStepsListed {
		steps = append(steps, "…")
	}
	return fmt.Sprintf("more than half invalid in %d steps (%s): %s", len(mostly), strings.Join(steps, ", "), first)
}

// invalidWarning summarises the run's invalid trajectories by cause, the
// most frequent first: "3 invalid trajectories in the run (reward = their
// group's mean): accuracy: missing ×3" (the header counts the batch on
// screen). It is "" when every trajectory is valid.
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
	return fmt.Sprintf("%d invalid %s in the run (reward = their group's mean): %s", total, noun, strings.Join(parts, ", "))
}
