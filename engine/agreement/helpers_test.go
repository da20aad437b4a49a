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

// rankedSide is a side of values on the trajectories index, made alone,
// as Ranked makes one.
func rankedSide(index []int, values []float64, buf *Buffers) *Side {
	s := (&Gathered{Index: index}).newSide(0, values, buf)
	s.rank(&buf.ranks[0])
	return s
}
