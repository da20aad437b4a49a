package agreement

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// oneObjective returns a computer of enginetest.OneObjectiveScorer (x,
// maximised) with opts.
func oneObjective(t *testing.T, opts engine.Options) *engine.RewardComputer {
	t.Helper()
	return &engine.RewardComputer{Scorer: enginetest.OneObjectiveScorer(t), Options: opts}
}

func near(a, b float64) bool { return testkit.Near(a, b) }

func ptr[T any](v T) *T { return &v }
