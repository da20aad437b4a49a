package engine

import (
	"fmt"
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestEvalReasonOnce: the reason of an evaluation error is put into words
// for the first row of its cause alone (EvalReason), not for each row that
// fails alike: a failing row whose reason would quote the text value it
// read costs at most one allocation more (the value kept) than a failing
// row whose reason names none.
func TestEvalReasonOnce(t *testing.T) {
	allocsPerRow := func(expr string, value any, wantReason string) float64 {
		evaluate := func(n int) float64 {
			ts := make([]scoring.Trajectory, n)
			for i := range ts {
				ts[i] = enginetest.Traj(0, fmt.Sprint(i/8), "o2", value)
			}
			c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: expr}}})
			if err != nil {
				t.Fatal(err)
			}
			if got := Evaluate(c.Scorer, ts).EvalReason("x: " + scoring.ErrEval.Error()); got != wantReason {
				t.Fatalf("%s on %#v: reason %q, want %q", expr, value, got, wantReason)
			}
			return testing.AllocsPerRun(3, func() { Evaluate(c.Scorer, ts) })
		}
		// Rounded: the maps and slices of a run grow a few times more
		// with twice the rows.
		return math.Round((evaluate(2000) - evaluate(1000)) / 1000)
	}
	quoting := allocsPerRow("metadata.o2 * 2", "judge timed out", `invalid operation: string * int (o2 = "judge timed out")`)
	plain := allocsPerRow("len(metadata.o2)", 0.5, "invalid argument for len (type float64)")
	if quoting > plain+1 {
		t.Errorf("a failing row allocates %.1f times when its reason would quote a text value, %.1f when not: want at most one more", quoting, plain)
	}
}
