package engine

import (
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

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
	c, err := New(Config{Objectives: []ObjectiveConfig{{Name: "o", Expr: "metadata.x * 2"}}})
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
