package scoring

import (
	"errors"
	"testing"
	"unsafe"
)

// TestStructureNamesFailuresOnce: the rows a constraint or a gate fails
// on share its name, made once when it was compiled, not per row; the
// name is its Subject.
func TestStructureNamesFailuresOnce(t *testing.T) {
	s, err := NewParetoScorer([]ObjectiveExpr{{Name: "x", Expr: "x", Goal: Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		constraints, gates []string
		subject            string
	}{
		{[]string{"x >= metadata.limit"}, nil, ConstraintDef{Expr: "x >= metadata.limit"}.Subject()},
		{nil, []string{"x: metadata.passed"}, GateDef{Objective: "x", Expr: "metadata.passed"}.Subject()},
	} {
		structured, err := WithStructure(s, c.constraints, c.gates)
		if err != nil {
			t.Fatal(err)
		}
		_, st := Unstructured(structured)
		var names []string
		for range 2 {
			tr := Trajectory{Metadata: map[string]any{"x": 1.0}}
			err := st.Evaluate(&tr, []float64{1}, make([]bool, len(c.constraints)), new(float64), make([]bool, 1))
			var invalid *InvalidError
			if !errors.As(err, &invalid) || !errors.Is(err, ErrMissing) {
				t.Fatalf("%s: error %v, want its field missing", c.subject, err)
			}
			names = append(names, invalid.Objective)
		}
		if names[0] != c.subject {
			t.Errorf("a failure names %q, want %q", names[0], c.subject)
		}
		if unsafe.StringData(names[0]) != unsafe.StringData(names[1]) {
			t.Errorf("%s: each failing row made its own name", c.subject)
		}
	}
}
