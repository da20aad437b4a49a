package statusline

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestStatusLineSaysLayout checks that the status line starts with how the
// inputs were read, escaped, before the warnings.
func TestStatusLineSaysLayout(t *testing.T) {
	s := uitest.SampleSession(t)
	s.Layout = "read as verl rollout dumps: group = input, batch = step, objective score\x1b[2J"
	var l Line
	l.Refresh(s)
	got := l.View(common.NewStyles(true, true), 300)
	if !strings.HasPrefix(got, "read as verl rollout dumps: group = input, batch = step, objective score") || strings.Contains(got, "\x1b") {
		t.Errorf("status line %q", got)
	}
	if !strings.Contains(got, " · ⚠ ") {
		t.Errorf("the warnings do not follow the layout: %q", got)
	}
	s.Layout = ""
	l.Refresh(s)
	if got := l.View(common.NewStyles(true, true), 300); strings.Contains(got, "read as") {
		t.Errorf("plain records: %q", got)
	}
}

// TestStatusLineSaysLayoutWarnings checks that the layout's warnings
// (a TRL step whose groups TRL normalised otherwise) come into the status
// line, the first one and how many more, escaped.
func TestStatusLineSaysLayoutWarnings(t *testing.T) {
	s := uitest.SampleSession(t)
	var asked []int
	s.LayoutWarnings = func(res *engine.Result, batches []int) []string {
		asked = batches
		return []string{"step 3: prompt groups of unequal size\x1b[2J", "step 7: every prompt group has 2 rows"}
	}
	var l Line
	s.SetLayoutNotes(s.LayoutNotesJob().Of(s.Result)) // as the root's commands do
	l.Refresh(s)
	got := l.View(common.NewStyles(true, true), 500)
	if !strings.Contains(got, "⚠ step 3: prompt groups of unequal size") || !strings.Contains(got, "(and 1 more step)") || strings.Contains(got, "\x1b") {
		t.Errorf("status line %q", got)
	}
	if len(asked) != len(s.Result.Ranking.Batches) {
		t.Errorf("asked of %d batches, want all %d", len(asked), len(s.Result.Ranking.Batches))
	}
	// ? lists each whole, escaped.
	whole := strings.Join(l.Warnings(), "\n")
	if !strings.Contains(whole, "step 3: prompt groups of unequal size") || !strings.Contains(whole, "step 7: every prompt group has 2 rows") || strings.Contains(whole, "more step") || strings.Contains(whole, "\x1b") {
		t.Errorf("the warnings ? lists: %q", l.Warnings())
	}
	// Cut, the line says ? shows them all.
	if got := l.View(common.NewStyles(true, true), 80); !strings.HasSuffix(got, "(? shows all)") || ansi.StringWidth(got) > 80 {
		t.Errorf("cut to 80 cells: %q", got)
	}
}

// TestStatusLineLayoutLeavesRoomForWarnings: a layout sentence longer than
// the line takes at most half of it when there are warnings, which then
// show; without warnings it takes the line.
func TestStatusLineLayoutLeavesRoomForWarnings(t *testing.T) {
	s := uitest.SampleSession(t)
	s.Layout = "read as verl rollout dumps: " + strings.Repeat("group = input, ", 10)
	var l Line
	l.Refresh(s)
	got := l.View(common.NewStyles(true, true), 120)
	if !strings.Contains(got, "… · ⚠ ") || ansi.StringWidth(got) > 120 {
		t.Errorf("the warnings do not show after the layout: %q", got)
	}
	l.warnings = nil
	if got := l.View(common.NewStyles(true, true), 120); strings.Contains(got, "⚠") || ansi.StringWidth(got) != 120 {
		t.Errorf("without warnings: %q", got)
	}
}

// TestNoticeExpires: a notice of what a command did goes when its expiry
// comes, unless a newer notice replaced it (whose own expiry clears it);
// an error has no expiry and stays.
func TestNoticeExpires(t *testing.T) {
	st := common.NewStyles(true, true)
	var l Line
	if cmd := l.SetNotice("saved a", nil); cmd == nil {
		t.Fatal("a notice has no expiry")
	}
	first := ExpiredMsg{l.noticeID}
	l.SetNotice("saved b", nil)
	second := ExpiredMsg{l.noticeID}
	l.Expire(first)
	if v := l.View(st, 200); !strings.Contains(v, "✓ saved b") {
		t.Errorf("the first notice's expiry cleared the second: %q", v)
	}
	l.Expire(second)
	if v := l.View(st, 200); strings.Contains(v, "saved") {
		t.Errorf("the notice did not expire: %q", v)
	}
	if cmd := l.SetNotice("", errors.New("save settings: denied")); cmd != nil {
		t.Error("an error expires")
	}
	l.Expire(second)
	l.Expire(ExpiredMsg{l.noticeID})
	if v := l.View(st, 200); !strings.Contains(v, "✖ save settings: denied") {
		t.Errorf("the error went: %q", v)
	}
}

// TestInfoIsNotASuccess: information (why a key did nothing) is shown
// without the ✓ of a success, and expires as a notice does; a notice after
// it is marked again.
func TestInfoIsNotASuccess(t *testing.T) {
	st := common.NewStyles(true, true)
	var l Line
	if cmd := l.SetInfo("rloo has no normalisation"); cmd == nil {
		t.Fatal("information has no expiry")
	}
	if v := l.View(st, 200); !strings.Contains(v, "rloo has no normalisation") || strings.Contains(v, "✓") {
		t.Errorf("information reads %q, want it without ✓", v)
	}
	l.SetNotice("saved a", nil)
	if v := l.View(st, 200); !strings.Contains(v, "✓ saved a") {
		t.Errorf("a success after information reads %q, want ✓", v)
	}
}

// TestStatusLineRecomputingWithoutRows: options switched with no row come
// (a method the layout's warnings read, and the count of the rows that
// differ from the log) have the warnings before stay, said to be computed
// again, not said to be of as many rows as are shown ("as of N rows").
func TestStatusLineRecomputingWithoutRows(t *testing.T) {
	var ts []scoring.Trajectory
	for i := range 16 {
		ts = append(ts, scoring.Trajectory{ID: fmt.Sprint("t", i), Group: fmt.Sprint("g", i/4), Batch: int64(i / 8), Done: true,
			Metadata: map[string]any{"x": float64(i % 4), "adv": float64(i%4) - 1.5}})
	}
	cfg := setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}, LoggedAdvantage: "metadata.adv"}
	s, err := session.Open("run.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.LayoutWarnings = func(res *engine.Result, _ []int) []string { return []string{"a layout warning"} }
	s.SetLayoutNotes(s.LayoutNotesJob().Of(s.Result)) // as the root's commands do
	s.Options.Method = "rloo"
	s.Recompute() // the result of the switch, its warnings' jobs not yet landed
	var l Line
	l.Refresh(s)
	w := strings.Join(l.Warnings(), "\n")
	if !strings.Contains(w, "a layout warning (recomputing)") || !strings.Contains(w, "differ from the logged advantage") || strings.Contains(w, "as of") {
		t.Errorf("after a switch of method, the warnings before:\n%s", w)
	}
	if lag := s.LoggedWarningBehind(); !lag.Behind || lag.Grew {
		t.Errorf("the logged warning's lag %+v, want behind, no row come", lag)
	}
}

// TestStatusLineSaysUngroupedRecords: records without a group are one
// comparison group per batch, which the line says among its warnings,
// as of the shown result's method, with the field to group them by; not
// under scope batch, which compares the whole batch by choice, nor of
// records with a group.
func TestStatusLineSaysUngroupedRecords(t *testing.T) {
	const records = `{"id":"t0","batch":0,"metadata":{"prompt":"2+2?","a":1,"b":0}}
{"id":"t1","batch":0,"metadata":{"prompt":"2+2?","a":0,"b":1}}
{"id":"t2","batch":0,"metadata":{"prompt":"3+3?","a":1,"b":1}}
{"id":"t3","batch":0,"metadata":{"prompt":"3+3?","a":0,"b":0}}
`
	s := uitest.TextSession(t, records) // grpo
	var l Line
	l.Refresh(s)
	const grpo = "no trajectory has a group (a group field, or --group-by): each batch is one comparison group, so grpo's rewards are per batch, centred, scaled by the batch std, not per prompt; give each record a group field, or --group-by prompt (the first record has prompt)"
	if got := l.View(common.NewStyles(true, true), 400); !strings.Contains(got, "⚠ "+grpo) {
		t.Errorf("status line %q, want %q among its warnings", got, grpo)
	}
	golden.RequireEqual(t, []byte(l.View(common.NewStyles(true, true), 120)))
	if whole := l.Warnings(); len(whole) != 1 || whole[0] != grpo {
		t.Errorf("? lists %q, want %q", whole, grpo)
	}

	s.Options.Scope = engine.ScopeBatch
	s.Recompute()
	l.Refresh(s)
	if got := l.View(common.NewStyles(true, true), 400); strings.Contains(got, "no trajectory has a group") {
		t.Errorf("under scope batch: %q", got)
	}
	s.Options.Scope, s.Options.Method = engine.ScopeGroup, engine.RLOO
	s.Recompute()
	l.Refresh(s)
	if got := l.View(common.NewStyles(true, true), 400); !strings.Contains(got, "so rloo's rewards are per batch, leave-one-out baseline, not per prompt") {
		t.Errorf("switched to rloo: %q", got)
	}

	grouped := strings.ReplaceAll(records, `"batch":0,`, `"batch":0,"group":"g",`)
	l = Line{}
	l.Refresh(uitest.TextSession(t, grouped))
	if got := l.View(common.NewStyles(true, true), 400); strings.Contains(got, "no trajectory has a group") {
		t.Errorf("records with a group: %q", got)
	}
}
