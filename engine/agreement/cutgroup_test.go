package agreement

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestLeaveOutCutGroupUnequal: the group --max-rows cut (k, read last,
// shorter than a) is left out of the warning of groups of unequal size:
// the warning goes when the other groups are of one size, and says the
// others, and that k is left out, when they are not; uncapped, k is
// named as it is. The warning checks the trainer's groups whatever the
// scope, and leaves k out under scope batch too.
func TestLeaveOutCutGroupUnequal(t *testing.T) {
	const kLeftOut = `; the group --max-rows cut (step 0, group "k", 2 of its rows read) left out`
	for _, c := range []struct {
		sizes  []int // of a, b, then k
		capped bool
		scope  engine.Scope
		want   string // the one note, "" for none
	}{
		{[]int{4, 4, 2}, true, engine.ScopeGroup, ""},
		{[]int{4, 4, 2}, true, engine.ScopeBatch, ""},
		{[]int{4, 4, 2}, false, engine.ScopeGroup, `2 of 3 groups have 4 trajectories, "k" 2 `},
		{[]int{4, 4, 2}, false, engine.ScopeBatch, `2 of 3 groups have 4 trajectories, "k" 2 `},
		{[]int{4, 3, 4, 2}, true, engine.ScopeGroup, `2 of 3 groups have 4 trajectories, "b" 3 (a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)` + kLeftOut},
		{[]int{4, 3, 4, 2}, true, engine.ScopeBatch, `2 of 3 groups have 4 trajectories, "b" 3 (a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)` + kLeftOut},
	} {
		keys := []string{"a", "b", "c", "k"}
		var ts []scoring.Trajectory
		for g, n := range c.sizes {
			key := keys[g]
			if g == len(c.sizes)-1 {
				key = "k"
			}
			for i := range n {
				ts = append(ts, enginetest.Traj(0, key, "x", float64(i)))
			}
		}
		opts := engine.DefaultOptions()
		opts.Scope = c.scope
		comp := oneObjective(t, opts)
		comp.EqualGroups = true
		ev := evaluateWith(comp, ts)
		check := CheckTrainer(comp, ev)
		res := ev.Compute(comp.Options)
		rowCap := scoring.Uncapped
		if c.capped {
			rowCap = scoring.CappedUntold // guessed from the sizes
		}
		notes := CutGroupNotes(check, res, CutGroupOf(res, rowCap))
		switch {
		case c.want == "" && len(notes) != 0:
			t.Errorf("sizes %v, capped %v, scope %s: notes %+v, want none", c.sizes, c.capped, c.scope, notes)
		case c.want != "" && (len(notes) != 1 || !notes[0].Warning || !strings.Contains(notes[0].Text, c.want) || !c.capped && strings.Contains(notes[0].Text, "--max-rows")):
			t.Errorf("sizes %v, capped %v, scope %s: notes %+v, want one with %q", c.sizes, c.capped, c.scope, notes, c.want)
		}
	}
}

// cutLoggedRun is a reading --max-rows stopped one row into group k
// (g and h have two), with logged advantages that grpo's defaults give g
// and h whole, and k as if it had more rows: its computer, evaluation and
// result.
func cutLoggedRun(t *testing.T) (*engine.RewardComputer, *engine.Evaluation, *engine.Result) {
	t.Helper()
	comp, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	a := 1 / (math.Sqrt2 + 1e-4)
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "x", 1.0, "adv", -a), enginetest.Traj(0, "g", "x", 3.0, "adv", a),
		enginetest.Traj(0, "h", "x", 5.0, "adv", 0.0), enginetest.Traj(0, "h", "x", 5.0, "adv", 0.0),
		enginetest.Traj(0, "k", "x", 1.0, "adv", -a),
	}
	ev := evaluateWith(comp, ts)
	return comp, ev, ev.Compute(comp.Options)
}

// TestCutGroupLoggedNote: the status line's note (CutGroup.LoggedNote)
// and the CLI's (CutGroupNotes) reword the open's logged note alike for
// the group --max-rows cut; with no group cut, or no note, the note is
// kept and the trainer's rewards are not computed.
func TestCutGroupLoggedNote(t *testing.T) {
	comp, ev, res := cutLoggedRun(t)
	check := CheckTrainer(comp, ev)
	cut := CutGroupOf(res, scoring.CappedInGroup)
	if check.LoggedNote == "" || cut == nil {
		t.Fatalf("note %q, cut %v: want both", check.LoggedNote, cut)
	}
	trainer := func() *engine.Result { return res }
	want := `1 of 5 rows differs from the logged advantage by more than 0.0001, all in the group --max-rows cut (step 0, group "k", 1 of its rows read): its rewards are computed without the rows not read; the other rows agree`
	if got := cut.LoggedNote(check.LoggedNote, trainer); got != want {
		t.Errorf("LoggedNote = %q, want %q", got, want)
	}
	if notes := CutGroupNotes(check, res, cut); !slices.Equal(notes, []Note{{Text: want, Warning: true}}) {
		t.Errorf("CutGroupNotes = %+v, want %q", notes, want)
	}
	computed := false
	lazy := func() *engine.Result { computed = true; return res }
	var none *CutGroup
	if got := none.LoggedNote(check.LoggedNote, lazy); got != check.LoggedNote || computed {
		t.Errorf("no group cut: %q, trainer's rewards computed %v; want the note as it is, not computed", got, computed)
	}
	if got := cut.LoggedNote("", lazy); got != "" || computed {
		t.Errorf("no note: %q, trainer's rewards computed %v; want none, not computed", got, computed)
	}
}

// TestCutGroupOfTold: what the first row not read told decides, in place
// of the sizes: the last group read (k, shorter than a and b) is whole
// when that row was of another group, and k cut when it continued k,
// even as large as the others or alone in its step (not "may have cut").
// Untold, the sizes decide: a k as large as another is whole, a k alone
// may have been cut.
func TestCutGroupOfTold(t *testing.T) {
	run := func(sizes ...int) *engine.Result {
		var ts []scoring.Trajectory
		for g, n := range sizes {
			for i := range n {
				ts = append(ts, enginetest.Traj(0, string(rune('a'+g)), "x", float64(i)))
			}
		}
		comp := oneObjective(t, engine.DefaultOptions())
		return evaluateWith(comp, ts).Compute(comp.Options)
	}
	for _, c := range []struct {
		sizes  []int
		rowCap scoring.RowCap
		want   string // the cut group's name, "" for none
	}{
		{[]int{4, 4, 2}, scoring.CappedBetweenGroups, ""},
		{[]int{4, 4, 2}, scoring.CappedInGroup, `the group --max-rows cut (step 0, group "c", 2 of its rows read)`},
		{[]int{4, 4, 4}, scoring.CappedInGroup, `the group --max-rows cut (step 0, group "c", 4 of its rows read)`},
		{[]int{4, 4, 4}, scoring.CappedUntold, ""},
		{[]int{3}, scoring.CappedInGroup, `the group --max-rows cut (step 0, group "a", 3 of its rows read)`},
		{[]int{3}, scoring.CappedBetweenGroups, ""},
		{[]int{3}, scoring.CappedUntold, `the group --max-rows may have cut (step 0, group "a", the only group read of its step)`},
		{[]int{4, 4, 2}, scoring.Uncapped, ""},
	} {
		got := ""
		if cut := CutGroupOf(run(c.sizes...), c.rowCap); cut != nil {
			got = cut.Name()
		}
		if got != c.want {
			t.Errorf("sizes %v, cap %d: %q, want %q", c.sizes, c.rowCap, got, c.want)
		}
	}
	// With sources, the row not read may be another source's group of the
	// same value: untold, the sizes decide.
	comp, err := engine.New(setup.Config{Method: "grpo", SourceBy: "src", Sources: map[string]setup.SourceConfig{
		"s": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var ts []scoring.Trajectory
	for _, g := range []string{"a", "a", "b", "b"} {
		ts = append(ts, enginetest.Traj(0, g, "x", float64(len(ts)), "src", "s"))
	}
	if cut := CutGroupOf(evaluateWith(comp, ts).Compute(comp.Options), scoring.CappedInGroup); cut != nil {
		t.Errorf("sources, groups of one size: %q, want none", cut.Name())
	}
}
