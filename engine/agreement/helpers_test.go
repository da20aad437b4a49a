package agreement

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// oneObjective returns a computer of one objective x, maximised, weight 1.
func oneObjective(t *testing.T, opts engine.Options) *engine.RewardComputer {
	t.Helper()
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: "metadata.x", Goal: scoring.Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return &engine.RewardComputer{Scorer: s, Options: opts}
}

func near(a, b float64) bool { return testkit.Near(a, b) }

func ptr[T any](v T) *T { return &v }
