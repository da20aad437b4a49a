package engine

import (
	"fmt"
	"github.com/rewardlens/rewardlens/engine/setup"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// BenchmarkRestructureInvalidRows applies a constraint to 200k
// trajectories every one of which is invalid, half by an objective (kept
// as they were), half by the constraint before (evaluated again): what
// telling the causes apart costs per invalid row.
func BenchmarkRestructureInvalidRows(b *testing.B) {
	const n = 200_000
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		md := map[string]any{"a": 1.0}
		if i%2 == 0 {
			md = map[string]any{"c": 1.0}
		}
		ts[i] = scoring.Trajectory{ID: fmt.Sprint("t", i), Group: fmt.Sprint("g", i/8), Metadata: md}
	}
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}}, Constraints: []string{"metadata.c >= 0.5"}})
	if err != nil {
		b.Fatal(err)
	}
	ev := Evaluate(c.Scorer, ts)
	r, err := NewRestructure(c.Scorer, []string{"metadata.c >= 0.5"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := r.Apply(b.Context(), ev, func(i int) (*scoring.Trajectory, error) { return &ts[i], nil })
		if err != nil || out.Valid[0] || out.Valid[1] {
			b.Fatal("a row is valid", err)
		}
	}
}
