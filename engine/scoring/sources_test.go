package scoring

import (
	"errors"
	"fmt"
	"math"
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

// TestEvaluateSourceRows checks EvaluateSource against its source's
// scorer evaluated alone into rows of its own, bit for bit, on
// trajectories that alternate a wide source (six objectives) and a narrow
// one, with nansum's absent columns and values missing, NaN and not
// numbers; and that a wide source's row is not allocated per trajectory
// (its objectives read fields, which allocates nothing).
func TestEvaluateSourceRows(t *testing.T) {
	by, err := CompileExpression(SourceBySetting, "src")
	if err != nil {
		t.Fatal(err)
	}
	wideObjs := []ObjectiveExpr{
		{Name: "x", Expr: "x", Goal: Maximize, Weight: 1}, {Name: "y", Expr: "y", Goal: Minimize, Weight: 1},
		{Name: "x2", Expr: "metadata.x", Goal: Maximize, Weight: 1}, {Name: "y2", Expr: `metadata["y"]`, Goal: Maximize, Weight: 1},
		{Name: "z", Expr: "z", Goal: Maximize, Weight: 1}, {Name: "z2", Expr: "metadata.z", Goal: Minimize, Weight: 1},
	}
	narrowObjs := []ObjectiveExpr{{Name: "z", Expr: "z", Goal: Maximize, Weight: 1}}
	for _, nanSum := range []bool{false, true} {
		s := NewSourceScorer(by, []string{"wide", "narrow"})
		newScorer := func(objs []ObjectiveExpr) *ParetoScorer {
			p, err := NewParetoScorer(objs)
			if err != nil {
				t.Fatal(err)
			}
			if nanSum {
				p.SetNanSum()
			}
			return p
		}
		var alone []*ParetoScorer // each source's scorer, evaluated apart
		for _, objs := range [][]ObjectiveExpr{wideObjs, narrowObjs} {
			if err := s.AddSource(newScorer(objs)); err != nil {
				t.Fatal(err)
			}
			alone = append(alone, newScorer(objs))
		}
		m := len(s.Objectives())
		values := []any{1.5, -2.0, 0.0, nil, math.NaN(), "text", 1e300}
		for i := range 200 {
			src := []string{"wide", "narrow"}[i%2]
			meta := map[string]any{"src": src}
			for k, key := range []string{"x", "y", "z"} {
				if v := values[(i/2+3*k+i/7)%len(values)]; v != nil {
					meta[key] = v
				}
			}
			tr := Trajectory{Metadata: meta}
			j := s.ScorerIndex(src)
			dst, absent := make([]float64, m), make([]bool, m)
			for k := range dst {
				dst[k], absent[k] = 7, true // overwritten: 0 and false outside the source's columns
			}
			err := s.EvaluateSource(&tr, j, dst, absent)
			row, rowAbsent := make([]float64, len(s.Columns(j))), make([]bool, len(s.Columns(j)))
			wantErr := alone[j].EvaluateAbsent(&tr, row, rowAbsent)
			wantDst, wantAbsent := make([]float64, m), make([]bool, m)
			for c, k := range s.Columns(j) {
				wantDst[k], wantAbsent[k] = row[c], rowAbsent[c]
			}
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("nansum %v, trajectory %d (%v): error %v, want %v", nanSum, i, meta, err, wantErr)
			}
			for k := range m {
				if math.Float64bits(dst[k]) != math.Float64bits(wantDst[k]) || absent[k] != wantAbsent[k] {
					t.Errorf("nansum %v, trajectory %d (%v): column %d %v (absent %v), want %v (%v)", nanSum, i, meta, k, dst[k], absent[k], wantDst[k], wantAbsent[k])
				}
			}
		}
		tr := Trajectory{Metadata: map[string]any{"src": "wide", "x": 1.0, "y": 2.0, "z": 3.0}}
		dst, absent := make([]float64, m), make([]bool, m)
		j := s.ScorerIndex("wide")
		if n := testing.AllocsPerRun(100, func() { _ = s.EvaluateSource(&tr, j, dst, absent) }); n != 0 {
			t.Errorf("nansum %v: %v allocations a trajectory of the wide source, want 0", nanSum, n)
		}
	}
}
