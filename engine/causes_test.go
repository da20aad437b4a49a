package engine

import (
	"github.com/rewardlens/rewardlens/engine/setup"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestCauseCounter counts causes in runs and interleaved as a map would.
func TestCauseCounter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	causes := []string{"a: missing", "b: NaN", "a: not a number", strings.Clone("a: missing")}
	for range 100 {
		var c causeCounter
		want := map[string]int{}
		for range rng.IntN(50) {
			k := causes[rng.IntN(len(causes))]
			for range 1 + rng.IntN(5) {
				c.add(k)
				want[k]++
			}
		}
		got := c.done()
		if len(want) == 0 && got != nil || len(want) > 0 && !maps.Equal(got, want) {
			t.Fatalf("counted %v, want %v", got, want)
		}
	}
}

// TestEvalReasonIsTheFirstTrajectorys: the trajectories whose expression
// fails are one cause whatever the reason, and EvalReason is the reason of
// the first of them, however the evaluation is split over goroutines,
// and after an Append.
func TestEvalReasonIsTheFirstTrajectorys(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "o", Expr: "metadata.x * 2"}}})
	if err != nil {
		t.Fatal(err)
	}
	n := 3 * evalChunk
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		var x any = "text"
		if i >= evalChunk {
			x = true // the chunks but the first have another reason
		}
		ts[i] = scoring.Trajectory{Group: "g", Metadata: map[string]any{"x": x}}
	}
	ev := Evaluate(c.Scorer, ts[n-10:])
	const cause = "o: evaluation error"
	if got, want := ev.EvalReason(cause), "invalid operation: bool * int (x = true)"; got != want {
		t.Fatalf("reason %q, want %q", got, want)
	}
	ev = Evaluate(c.Scorer, ts)
	if got := ev.InvalidCounts(); len(got) != 1 || got[cause] != n {
		t.Fatalf("causes %v, want %d of %q", got, n, cause)
	}
	want := `invalid operation: string * int (x = "text")`
	if got := ev.EvalReason(cause); got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
	if got := ev.Append(c.Scorer, ts[n-10:]).EvalReason(cause); got != want {
		t.Errorf("after Append: reason %q, want %q", got, want)
	}
	if got := ev.EvalReason("o: missing"); got != "" {
		t.Errorf("reason of another cause %q", got)
	}
}

// TestNotNumberReasonIsTheFirstValue: the trajectories whose objective's
// value is not a number are one cause whatever the value, and EvalReason
// says the first's value (a string quoted, escaped and cut; a list), read
// whole or picked (a loader's Pick), kept as an evaluation error's is by
// Filter and Append.
func TestNotNumberReasonIsTheFirstValue(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "o", Expr: "x"}, {Name: "l", Expr: "y == 1 ? [1] : 0"}}})
	if err != nil {
		t.Fatal(err)
	}
	ev := Evaluate(c.Scorer, []scoring.Trajectory{
		enginetest.Traj(0, "g", "x", 1.0, "y", 0),
		enginetest.Traj(0, "g", "x", "1.0", "y", 0),
		enginetest.Traj(0, "g", "x", "high", "y", 0),
		enginetest.Traj(0, "g", "x", 2.0, "y", 1),
		enginetest.Traj(0, "g", "x", "\x1b[31m"+strings.Repeat("é", 50), "y", 0),
	})
	const cause = "o: not a number"
	if got := ev.InvalidCounts(); got[cause] != 3 || got["l: not a number"] != 1 {
		t.Fatalf("causes %v, want 3 of %q and 1 of l's", got, cause)
	}
	if got, want := ev.EvalReason(cause), `the string "1.0"`; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
	if got, want := ev.EvalReason("l: not a number"), "a list"; got != want {
		t.Errorf("a list's reason %q, want %q", got, want)
	}
	if got := ev.Filter(func(i int) bool { return i != 2 }).EvalReason(cause); got != `the string "1.0"` {
		t.Errorf("row 1 kept: reason %q", got)
	}
	dropped := ev.Filter(func(i int) bool { return i != 1 })
	if got := dropped.EvalReason(cause); got != "" {
		t.Errorf("row 1 left out: reason %q, want none (row 2's is not known)", got)
	}
	if got := ev.Filter(func(i int) bool { return i == 0 }).Append(c.Scorer, []scoring.Trajectory{enginetest.Traj(1, "g", "x", "\x1b[31m"+strings.Repeat("é", 50), "y", 0)}).EvalReason(cause); got != `the string "\x1b[31m`+strings.Repeat("é", 35)+`"…` {
		t.Errorf("appended, a long string with a control character: reason %q", got)
	}
	// Read with a Pick, as a loader does: the value kept aside is said.
	pick := &scoring.Pick{Keys: []string{"x", "y"}}
	picked := scoring.Trajectory{Group: "g"}
	picked.Pick, picked.Picked = pick, []scoring.PickedValue{{}, {Kind: scoring.PickedNumber}}
	picked.SetPickedOther(0, "0.5")
	if got := Evaluate(c.Scorer, []scoring.Trajectory{picked}).EvalReason(cause); got != `the string "0.5"` {
		t.Errorf("picked: reason %q", got)
	}
}

// TestScoreOverflowCauses: each overflow's cause reads back as that
// overflow, and a cause that only looks like one (an objective named
// score that is infinite, another error, another sum) reads as none.
func TestScoreOverflowCauses(t *testing.T) {
	for _, err := range []error{scoring.ErrInf, scoring.ErrNaN} {
		for _, in32 := range []bool{false, true} {
			cause := ScoreOverflowCause(err, in32)
			if gotErr, got32 := ScoreOverflowOf(cause); gotErr != err || got32 != in32 {
				t.Errorf("%q reads as %v, %v; want %v, %v", cause, gotErr, got32, err, in32)
			}
		}
	}
	for _, cause := range []string{
		"score: infinite",
		"score: missing (the weighted sum overflows)",
		"score: NaN (the float64 weighted sum overflows)",
		"x: infinite (the weighted sum overflows)",
		"",
	} {
		if err, in32 := ScoreOverflowOf(cause); err != nil || in32 {
			t.Errorf("%q reads as an overflow: %v, %v", cause, err, in32)
		}
	}
}

// TestCauseOf: every cause an evaluation gives reads back as what it is
// of, from the table CauseOf builds, not from its words: an objective's
// with its index, a constraint's or gate's as a setting, an overflow's
// with its sum, after Compute, Append, Filter, Without and Restructure
// too; a text no subject gives reads as none.
func TestCauseOf(t *testing.T) {
	c, err := New(setup.Config{
		Objectives:  []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a", Weight: ptr(1.0)}, {Name: "score", Expr: "metadata.b", Weight: ptr(1.0)}},
		Constraints: []string{"metadata.c >= 0.5"},
		Gates:       []string{"a: metadata.g > 0"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "b", 1.0, "c", 1.0, "g", 1.0), // a missing
		enginetest.Traj(0, "g", "a", 1.0, "b", "x", "c", 1.0, "g", 1.0),
		enginetest.Traj(0, "g", "a", 1.0, "b", 1.0, "g", 1.0), // c missing
		enginetest.Traj(0, "g", "a", 1.0, "b", 1.0, "c", 1.0, "g", "s"),
		enginetest.Traj(0, "g", "a", 1e308, "b", 1e308, "c", 1.0, "g", 1.0),
		enginetest.Traj(0, "g", "a", 1.0, "b", 1.0, "c", 1.0, "g", 1.0),
	}
	constraint, gate := "constraint metadata.c >= 0.5", "gate a: metadata.g > 0"
	want := []InvalidCause{
		{Subject: "a", Objective: 0, Err: scoring.ErrMissing},
		{Subject: "score", Objective: 1, Err: scoring.ErrNotNumber},
		{Subject: constraint, Objective: -1, Err: scoring.ErrMissing},
		{Subject: gate, Objective: -1, Err: scoring.ErrEval},
		{Subject: "score", Objective: -1, Err: scoring.ErrInf, Overflow: true},
	}
	// The constraint's and the gate's causes are a setting's, not the
	// objective "score"'s or the weighted score's.
	setting := []bool{false, false, true, true, false}
	check := func(what string, ev *Evaluation, rows []int) {
		t.Helper()
		for j, i := range rows {
			got, ok := ev.CauseOf(ev.Causes[i])
			if !ok || got != want[j] {
				t.Errorf("%s: row %d's cause %q is %+v (%v), want %+v", what, i, ev.Causes[i], got, ok, want[j])
			}
			if got.Setting() != setting[j] {
				t.Errorf("%s: row %d's cause %q is a setting's: %v, want %v", what, i, ev.Causes[i], got.Setting(), setting[j])
			}
		}
	}
	ev := Evaluate(c.Scorer, ts)
	res := ev.Compute(DefaultOptions())
	check("computed", res.Evaluation, []int{0, 1, 2, 3, 4})
	check("appended", ev.Append(c.Scorer, ts).Compute(DefaultOptions()).Evaluation, []int{6, 7, 8, 9, 10})
	check("without the last", ev.Without(func(i int) bool { return i == 5 }).Compute(DefaultOptions()).Evaluation, []int{0, 1, 2, 3, 4})
	filtered := ev.Filter(func(i int) bool { return i >= 2 })
	want, setting = want[2:4], setting[2:4]
	check("filtered", filtered, []int{0, 1})
	r, err := NewRestructure(c.Scorer, []string{"metadata.c >= 0.5"}, []string{"a: metadata.g > 0"})
	if err != nil {
		t.Fatal(err)
	}
	restructured, err := r.Apply(t.Context(), ev, func(i int) (*scoring.Trajectory, error) { return &ts[i], nil })
	if err != nil {
		t.Fatal(err)
	}
	check("restructured", restructured, []int{2, 3})
	for _, cause := range []string{"", "b: missing", "a: missing (the weighted sum overflows)", "constraint metadata.c >= 0.5: ", "gate a: metadata.g > 0: broken"} {
		if got, ok := ev.CauseOf(cause); ok {
			t.Errorf("%q reads as %+v", cause, got)
		}
	}
}
