package session

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestExportJobKeepsItsFields: a followed update sorts the session's fields
// in place, so the export job, which reads them off the loop, keeps its own.
func TestExportJobKeepsItsFields(t *testing.T) {
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	row := func(id, src string, md map[string]any) scoring.Trajectory {
		return scoring.Trajectory{ID: id, Group: "g", Done: true, Metadata: md, LoaderState: scoring.LoaderState{Source: src}}
	}
	ts := []scoring.Trajectory{row("a", "f1", map[string]any{"x": 1.0, "m": 1.0, "n": 1.0}), row("b", "f0", map[string]any{"x": 2.0, "m": 1.0, "n": 1.0})}
	s := NewSession("t", ts, c)
	// Two sources give the fields spare capacity the update appends into.
	j := s.ExportJob()
	before := slices.Clone(j.fields)
	l := live.NewOf(c.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	s.ApplyUpdate(l, loaders.Update{Trajectories: []scoring.Trajectory{row("c", "f2", map[string]any{"x": 3.0, "a0": 1.0})}})
	if !slices.Equal(before, j.fields) {
		t.Errorf("the job's fields changed under it: %q, then %q", before, j.fields)
	}
}
