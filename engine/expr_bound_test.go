package engine

import (
	"strings"
	"testing"
)

// TestRepeatIsBounded: nested repeat, which expr's own builtin lets build
// 10 GB, makes the trajectory invalid at once; a small repeat still works.
func TestRepeatIsBounded(t *testing.T) {
	big, err := CompileExpression("o", `len(repeat(repeat("x", 100000), 100000))`)
	if err != nil {
		t.Fatal(err)
	}
	tr := Trajectory{Done: true}
	if v, err := big.Eval(&tr); err == nil {
		t.Errorf("nested repeat: %v, want an evaluation error", v)
	}
	if _, err := boundedRepeat(strings.Repeat("x", 100000), 100000); err != errRepeatBudget {
		t.Errorf("boundedRepeat past the budget: %v", err)
	}
	if got, err := boundedRepeat("x", maxRepeatBytes); err != nil || len(got.(string)) != maxRepeatBytes {
		t.Errorf("boundedRepeat at the budget: %v", err)
	}
	small, err := CompileExpression("o", `len(repeat("ab", 3))`)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := small.Eval(&tr); err != nil || v != 6 {
		t.Errorf("repeat(\"ab\", 3): %v, %v; want 6", v, err)
	}
	if _, err := CompileExpression("o", `repeat(1, 2)`); err == nil {
		t.Error("repeat(1, 2) compiled: the types are no longer checked")
	}
}
