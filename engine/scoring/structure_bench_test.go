package scoring

import (
	"fmt"
	"testing"
)

// BenchmarkStructureFailingRows evaluates a constraint, and a gate, on
// rows that each lack the field it reads: every row fails with an
// InvalidError naming the constraint or gate. The rows that have the
// field ("holds", "open") are the reference of the same run. One op is
// one row, so allocs/op is the allocations of a row.
func BenchmarkStructureFailingRows(b *testing.B) {
	s, err := NewParetoScorer([]ObjectiveExpr{{Name: "x", Expr: "x", Goal: Maximize, Weight: 1}})
	if err != nil {
		b.Fatal(err)
	}
	const n = 1024
	rows := func(field string) []Trajectory {
		ts := make([]Trajectory, n)
		for i := range ts {
			md := map[string]any{"x": float64(i % 7)}
			if field != "" {
				md[field] = true
			}
			ts[i] = Trajectory{ID: fmt.Sprint(i), Metadata: md}
		}
		return ts
	}
	for _, c := range []struct {
		name               string
		constraints, gates []string
		ts                 []Trajectory
		fails              bool
	}{
		{"constraint/fails", []string{"metadata.limit"}, nil, rows(""), true},
		{"constraint/holds", []string{"metadata.limit"}, nil, rows("limit"), false},
		{"gate/fails", nil, []string{"x: metadata.passed"}, rows(""), true},
		{"gate/open", nil, []string{"x: metadata.passed"}, rows("passed"), false},
	} {
		b.Run(c.name, func(b *testing.B) {
			structured, err := WithStructure(s, c.constraints, c.gates)
			if err != nil {
				b.Fatal(err)
			}
			_, st := Unstructured(structured)
			row, holds, shut := []float64{1}, make([]bool, len(c.constraints)), make([]bool, 1)
			var violation float64
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := st.Evaluate(&c.ts[i%n], row, holds, &violation, shut); (err != nil) != c.fails {
					b.Fatalf("row %d: error %v", i%n, err)
				}
				i++
			}
		})
	}
}
