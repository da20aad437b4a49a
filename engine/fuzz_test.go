package engine

import (
	"errors"
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// FuzzExpression compiles arbitrary source and, when it compiles, runs it on
// a trajectory: compilation either succeeds or fails with a *CompileError
// that places the problem inside the source, and evaluation never panics
// and returns a finite number or one of the cause errors (Eval's, a
// budget's among them: "0..1000000" builds too large a range).
func FuzzExpression(f *testing.F) {
	for _, src := range []string{
		"metadata.accuracy", "accuracy * 2 - safety / 3", "len(response) / 1000",
		"done ? 1 : 0", "step_count > 3 ? 1.0 : 0.5", "metadata['odd key']",
		"1 / 0", "id + 1", "(", "metadata.", "max(accuracy, 0.5)", "batch % 0",
	} {
		f.Add(src)
	}
	tr := &scoring.Trajectory{ID: "t", Batch: 2, Group: "g", StepCount: 3, Done: true,
		Response: []byte(`"some text"`),
		Metadata: map[string]any{"accuracy": 0.75, "safety": 1.0, "odd key": 2.0, "name": "x", "n": nil}}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := scoring.CompileExpression("o", src)
		if err != nil {
			var ce *scoring.CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("compile error %v is not a *CompileError", err)
			}
			if ce.Line < 1 || ce.Column < 1 || ce.Source != src {
				t.Fatalf("compile error %+v does not place the problem", ce)
			}
			return
		}
		v, err := e.Eval(tr)
		switch {
		case err == nil && (math.IsNaN(v) || math.IsInf(v, 0)):
			t.Fatalf("%q = %v without an error", src, v)
		case err != nil && !errors.Is(err, scoring.ErrMissing) && !errors.Is(err, scoring.ErrNotNumber) &&
			!errors.Is(err, scoring.ErrNaN) && !errors.Is(err, scoring.ErrInf) && !errors.Is(err, scoring.ErrEval) &&
			!errors.Is(err, scoring.ErrBudget):
			t.Fatalf("%q: unexpected error %v", src, err)
		}
	})
}
