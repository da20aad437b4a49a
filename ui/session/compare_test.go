package session

import (
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
