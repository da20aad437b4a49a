package session

import (
	"context"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestCompareResultOnlyReads: CompareResult computes nothing; SetCompare
// takes B's result computed elsewhere, and drops one of options no longer
// B's (a change of B or of the options since it started).
func TestCompareResultOnlyReads(t *testing.T) {
	s := NewSession("test", []scoring.Trajectory{
		{ID: "a", Group: "g", Metadata: map[string]any{"x": 1.0}},
		{ID: "b", Group: "g", Metadata: map[string]any{"x": 2.0}},
		{ID: "c", Group: "g", Metadata: map[string]any{"x": 4.0}},
	}, mustComputer(t))
	s.CompareMethod = engine.RLOO
	if s.CompareResult() != nil {
		t.Fatal("CompareResult computed B's result")
	}
	b, ok := s.CompareNeeded(s.Result.Options)
	if !ok || b.Method != engine.RLOO {
		t.Fatalf("CompareNeeded = %v, %v; want rloo's options, true", b.Method, ok)
	}
	stale := s.Evaluation.Compute(b)
	s.CompareMethod = engine.GDPO // B changed while it was computed
	if s.SetCompare(stale) || s.CompareResult() != nil {
		t.Error("a result of the B before was taken")
	}
	b, _ = s.CompareNeeded(s.Result.Options)
	if !s.SetCompare(s.Evaluation.Compute(b)) || s.CompareResult() == nil {
		t.Error("B's result was not taken")
	}
	if _, ok := s.CompareNeeded(s.Result.Options); ok {
		t.Error("B's result is asked for again once held")
	}
}

// mustComputer returns the computer of objective x (metadata.x), method
// grpo.
func mustComputer(t *testing.T) *engine.RewardComputer {
	t.Helper()
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCompareResultOfTheEvaluation: B's result is of the evaluation as
// well as the options: once constraints or gates change the evaluation
// (ApplyStructure; the options stay equal), the B held is asked for
// again, is not B's beside the result of the new evaluation, and is
// refused when a command brings it back.
func TestCompareResultOfTheEvaluation(t *testing.T) {
	s := NewSession("test", []scoring.Trajectory{
		{ID: "a", Group: "g", Metadata: map[string]any{"x": 1.0}},
		{ID: "b", Group: "g", Metadata: map[string]any{"x": 2.0}},
		{ID: "c", Group: "g", Metadata: map[string]any{"x": 4.0}},
	}, mustComputer(t))
	s.CompareMethod = engine.RLOO
	for _, change := range []struct{ constraints, gates []string }{
		{[]string{"x >= 2"}, nil},
		{[]string{"x >= 3"}, nil},
		{[]string{"x >= 3"}, []string{"x: x < 4"}},
		{nil, nil},
	} {
		b, _ := s.CompareNeeded(s.Result.Options)
		held := s.Evaluation.Compute(b)
		if !s.SetCompare(held) {
			t.Fatal("B's result was not taken")
		}
		j, err := s.NewStructureJob(change.constraints, change.gates)
		if err != nil {
			t.Fatal(err)
		}
		j.Run(context.Background())
		if err := s.ApplyStructure(j); err != nil {
			t.Fatal(err)
		}
		if _, ok := s.CompareNeeded(s.Options); !ok {
			t.Errorf("%q %q: B's result of the evaluation before is taken for the new one's", change.constraints, change.gates)
		}
		if s.CompareResult() != held {
			t.Errorf("%q %q: B's result beside the result still shown was dropped before a new one is shown", change.constraints, change.gates)
		}
		s.Recompute()
		if s.CompareResult() != nil || s.SetCompare(held) {
			t.Errorf("%q %q: B's result of the evaluation before is B's beside the new result", change.constraints, change.gates)
		}
		b, _ = s.CompareNeeded(s.Options)
		if fresh := s.Evaluation.Compute(b); !s.SetCompare(fresh) || s.CompareResult() != fresh {
			t.Errorf("%q %q: B's result of the new evaluation was not taken", change.constraints, change.gates)
		}
	}
}
