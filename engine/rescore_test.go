package engine_test

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestRescore: a trajectory read again that scores as evaluated is the
// same; one whose record was edited says the first difference, of a value
// or of validity.
func TestRescore(t *testing.T) {
	s, ts := enginetest.TwoObjectives(t, [][2]float64{{1, 0.9}, {0, 0.5}})
	ts = append(ts, enginetest.Traj(0, "g", "x", 1.0))
	ev := engine.Evaluate(s, ts)
	for _, c := range []struct {
		name string
		i    int
		now  scoring.Trajectory
		want string
	}{
		{"unchanged", 0, enginetest.Traj(0, "g", "x", 1.0, "y", 0.9), ""},
		{"unchanged invalid", 2, enginetest.Traj(0, "g", "x", 1.0), ""},
		{"a value", 0, enginetest.Traj(0, "g", "x", 1.0, "y", 0.1), "y is now 0.1, was 0.9"},
		{"now invalid", 1, enginetest.Traj(0, "g", "x", 0.0), "it is now invalid: y: missing"},
		{"now valid", 2, enginetest.Traj(0, "g", "x", 1.0, "y", 0.2), "it is now valid, was y: missing"},
	} {
		if got := ev.Rescore(s.CloneScorer(), c.i, &c.now); got != c.want {
			t.Errorf("%s: Rescore = %q, want %q", c.name, got, c.want)
		}
	}
}
