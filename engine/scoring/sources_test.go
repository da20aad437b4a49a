package scoring

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// newTestSourceScorer returns the scorer of sources a (x max weight 1,
// y min weight 0.5) and b (x, z), with def (w) for the others when
// withDef.
func newTestSourceScorer(t *testing.T, withDef bool) *SourceScorer {
	t.Helper()
	by, err := CompileExpression(SourceBySetting, "src")
	if err != nil {
		t.Fatal(err)
	}
	pareto := func(objs ...ObjectiveExpr) *ParetoScorer {
		p, err := NewParetoScorer(objs)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	s := NewSourceScorer(by, []string{"a", "b"})
	scorers := []*ParetoScorer{
		pareto(ObjectiveExpr{Name: "x", Expr: "x", Goal: Maximize, Weight: 1}, ObjectiveExpr{Name: "y", Expr: "y", Goal: Minimize, Weight: 0.5}),
		pareto(ObjectiveExpr{Name: "x", Expr: "x", Goal: Maximize, Weight: 2}, ObjectiveExpr{Name: "z", Expr: "z", Goal: Maximize, Weight: 1}),
	}
	if withDef {
		scorers = append(scorers, pareto(ObjectiveExpr{Name: "w", Expr: "w", Goal: Maximize, Weight: 3}))
	}
	for _, p := range scorers {
		if err := s.AddSource(p); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestSourceScorer checks the columns (the union of the sources'
// objectives, in order of first appearance), each source's weights and
// values in its own columns, 0 in the others, and the fall back on the
// top-level objectives.
func TestSourceScorer(t *testing.T) {
	s := newTestSourceScorer(t, true)
	var names []string
	for _, o := range s.Objectives() {
		names = append(names, o.Name)
	}
	if want := []string{"x", "y", "z", "w"}; !slices.Equal(names, want) {
		t.Fatalf("columns %v, want %v", names, want)
	}
	for _, tc := range []struct {
		source  string
		scorer  int
		columns []int
		weights []float64
		values  []float64
	}{
		{"a", 0, []int{0, 1}, []float64{1, 0.5, 0, 0}, []float64{1, 2, 0, 0}},
		{"b", 1, []int{0, 2}, []float64{2, 0, 1, 0}, []float64{1, 0, 3, 0}},
		{"c", 2, []int{3}, []float64{0, 0, 0, 3}, []float64{0, 0, 0, 4}},
	} {
		tr := Trajectory{Metadata: map[string]any{"src": tc.source, "x": 1.0, "y": 2.0, "z": 3.0, "w": 4.0}}
		if j := s.ScorerIndex(tc.source); j != tc.scorer {
			t.Errorf("source %s: scorer %d, want %d", tc.source, j, tc.scorer)
		}
		if got := s.Columns(tc.scorer); !slices.Equal(got, tc.columns) {
			t.Errorf("source %s: columns %v, want %v", tc.source, got, tc.columns)
		}
		if got := s.Weights(tc.scorer); !slices.Equal(got, tc.weights) {
			t.Errorf("source %s: weights %v, want %v", tc.source, got, tc.weights)
		}
		dst := make([]float64, 4)
		if err := s.Evaluate(&tr, dst); err != nil || !slices.Equal(dst, tc.values) {
			t.Errorf("source %s: values %v (%v), want %v", tc.source, dst, err, tc.values)
		}
	}
}

// TestSourceScorerInvalid checks what makes a trajectory invalid: no
// source, or one without a scorer when there are no top-level
// objectives; and a goal that two sources give one objective otherwise.
func TestSourceScorerInvalid(t *testing.T) {
	s := newTestSourceScorer(t, false)
	dst := make([]float64, len(s.Objectives()))
	if j := s.ScorerIndex("c"); j != -1 {
		t.Fatalf("source c without top-level objectives: scorer %d, want -1", j)
	}
	var invalid *InvalidError
	err := s.Evaluate(&Trajectory{Metadata: map[string]any{"src": "c"}}, dst)
	if !errors.As(err, &invalid) || invalid.Objective != "source" || !errors.Is(err, errNoSource) {
		t.Errorf("source c: %v, want source: %v", err, errNoSource)
	}
	err = s.Evaluate(&Trajectory{Metadata: map[string]any{"x": 1.0}}, dst)
	if !errors.As(err, &invalid) || invalid.Objective != "source_by src" || !errors.Is(err, ErrMissing) {
		t.Errorf("no source: %v, want source_by src: missing", err)
	}
	p, err := NewParetoScorer([]ObjectiveExpr{{Name: "y", Expr: "y", Goal: Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddSource(p); err == nil || !strings.HasPrefix(err.Error(), "objective y: goal max in source (top level), min in another") {
		t.Errorf("a goal of another source's: %v", err)
	}
}
