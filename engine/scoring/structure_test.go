package scoring

import (
	"errors"
	"testing"
	"unsafe"
)

// TestStructureNamesFailuresOnce: the rows a constraint or a gate fails
// on alike share its InvalidError, made once when it was compiled, and
// rows whose errors differ (a value that is not a number, each its own)
// share its name, its Subject: no failing row builds either.
func TestStructureNamesFailuresOnce(t *testing.T) {
	s, err := NewParetoScorer([]ObjectiveExpr{{Name: "x", Expr: "x", Goal: Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		constraints, gates []string
		limit              any // the field limit of the rows, nil for none
		want               error
		subject            string
		shared             bool
	}{
		{[]string{"x >= metadata.limit"}, nil, nil, ErrMissing, ConstraintDef{Expr: "x >= metadata.limit"}.Subject(), true},
		{[]string{"x >= metadata.limit"}, nil, "high", ErrNotNumber, ConstraintDef{Expr: "x >= metadata.limit"}.Subject(), false},
		{[]string{"metadata.limit"}, nil, "high", errNotBoolean, ConstraintDef{Expr: "metadata.limit"}.Subject(), true},
		{nil, []string{"x: metadata.limit"}, nil, ErrMissing, GateDef{Objective: "x", Expr: "metadata.limit"}.Subject(), true},
	} {
		structured, err := WithStructure(s, c.constraints, c.gates)
		if err != nil {
			t.Fatal(err)
		}
		_, st := Unstructured(structured)
		var failed []*InvalidError
		for range 2 {
			tr := Trajectory{Metadata: map[string]any{"x": 1.0}}
			if c.limit != nil {
				tr.Metadata["limit"] = c.limit
			}
			err := st.Evaluate(&tr, []float64{1}, make([]bool, len(c.constraints)), new(float64), make([]bool, 1))
			var invalid *InvalidError
			if !errors.As(err, &invalid) || !errors.Is(err, c.want) {
				t.Fatalf("%s: error %v, want %v", c.subject, err, c.want)
			}
			failed = append(failed, invalid)
		}
		if failed[0].Objective != c.subject {
			t.Errorf("a failure names %q, want %q", failed[0].Objective, c.subject)
		}
		if c.shared && failed[0] != failed[1] {
			t.Errorf("%s: each row failing with %v made its own error", c.subject, c.want)
		}
		if unsafe.StringData(failed[0].Objective) != unsafe.StringData(failed[1].Objective) {
			t.Errorf("%s: each row failing with %v made its own name", c.subject, c.want)
		}
	}
}
