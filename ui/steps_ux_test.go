package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestStepsHealthLineCutVisibly: the sample's length_drift finding
// ("... -5.9 sd") is wider than 80 columns padded: there it is shown
// compact, whole; at 70 it is cut with "…", not where the screen ends,
// and never in its measure, -5.9 sd; a line cut ends "(? shows all)".
func TestStepsHealthLineCutVisibly(t *testing.T) {
	for _, width := range []int{80, 70} {
		m := newTestModel(t, width, 24)
		press(m, "6")
		view := screen(m)
		i := strings.Index(view, "length_drift")
		if i < 0 {
			t.Fatalf("no length_drift finding at %dx24:\n%s", width, view)
		}
		start := strings.LastIndex(view[:i], "\n") + 1
		line, _, _ := strings.Cut(view[start:], "\n")
		line = strings.TrimRight(line, " ")
		cut := strings.Contains(line, "…")
		told := strings.HasSuffix(line, " (? shows all)") // that ? shows it whole
		line = strings.TrimSuffix(line, " (? shows all)")
		if !strings.HasSuffix(line, ": -5.9 sd") || ansi.StringWidth(line) > width || cut != (width < 80) || told != cut {
			t.Errorf("%d columns: the finding is %q, want it ending in its measure, cut with … and (? shows all) only below 80 columns", width, line)
		}
	}
}

// TestStepsFindingsWholeAfterScrolling: scrolled to its last chart, the
// Steps tab lists the same health findings as before it scrolled, as many
// as its height allows, and says how many more there are: the lines shown
// and "… and N more" add up to every finding, at 140x45 (all of the
// sample's 4) and at 80x24 (one, and 3 more).
func TestStepsFindingsWholeAfterScrolling(t *testing.T) {
	more := regexp.MustCompile(`… and (\d+) more \(\? lists them whole\)`)
	// health is the view from the findings' title line on.
	health := func(view string) string {
		if at := strings.Index(view, "health against"); at >= 0 {
			return view[at:]
		}
		return ""
	}
	for _, size := range []struct{ width, height, listed int }{{140, 45, 4}, {80, 24, 1}} {
		m := newTestModel(t, size.width, size.height)
		press(m, "6")
		unscrolled := health(screen(m))
		for range 14 {
			press(m, "down")
		}
		view := screen(m)
		if !regexp.MustCompile(`charts \d+–15 of 15 \(↑/↓\)`).MatchString(view) {
			t.Fatalf("%dx%d: the grid does not scroll to its last chart:\n%s", size.width, size.height, view)
		}
		if h := health(view); h == "" || h != unscrolled {
			t.Errorf("%dx%d: the findings changed as the grid scrolled:\n%s\nbefore:\n%s", size.width, size.height, h, unscrolled)
		}
		listed := len(regexp.MustCompile(`(?m)^(✖|⚠) (ALERT |WARN  )?step \d+ `).FindAllString(view, -1))
		unlisted := 0
		if mm := more.FindStringSubmatch(view); mm != nil {
			unlisted, _ = strconv.Atoi(mm[1])
		}
		if total := len(m.Session().Findings()); listed != size.listed || listed+unlisted != total {
			t.Errorf("%dx%d, scrolled: %d findings listed and %d more said, want %d listed of %d:\n%s",
				size.width, size.height, listed, unlisted, size.listed, total, view)
		}
	}
}

// TestStepsPanelAgreesWithTheBadge: the header's badge and the Steps
// panel count in one unit, said in words: the panel's title carries the
// header's badge ("✖ 2 checks alert ⚠ 1 warns": the sample's
// correlation_flip warned at step 26 and alerted at 27, one check at its
// worst), and says that its lines are the findings, each check's first
// step at a level: 4 of them, 2 at ALERT and 2 at WARN.
func TestStepsPanelAgreesWithTheBadge(t *testing.T) {
	m := newTestModel(t, 140, 45)
	press(m, "6")
	view := screen(m)
	header := strings.TrimRight(strings.Split(view, "\n")[0], " ")
	const badge = "✖ 2 checks alert ⚠ 1 warns"
	if !strings.HasSuffix(header, badge) {
		t.Fatalf("the header %q does not end with %q", header, badge)
	}
	if want := "health against the first 3 batches · " + badge + " · 4 findings, each check's first step at a level:"; !strings.Contains(view, want) {
		t.Errorf("the Steps panel lacks %q:\n%s", want, view)
	}
	if alerts, warns := strings.Count(view, "✖ ALERT step"), strings.Count(view, "⚠ WARN  step"); alerts != 2 || warns != 2 {
		t.Errorf("the panel lists %d ALERT and %d WARN findings, want 2 and 2:\n%s", alerts, warns, view)
	}
}

// TestStepsPanelTitleWholeWhenNarrow: at 80 columns the panel's title
// drops its explaining words, not the count of findings (it was cut
// at "4 findings, e…").
func TestStepsPanelTitleWholeWhenNarrow(t *testing.T) {
	m := newTestModel(t, 80, 24)
	press(m, "6")
	view := screen(m)
	if want := "health against the first 3 batches · ✖ 2 checks alert ⚠ 1 warns · 4 findings:"; !strings.Contains(view, want) {
		t.Errorf("the Steps panel at 80 columns lacks %q:\n%s", want, view)
	}
}
