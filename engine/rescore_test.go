package engine_test

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
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

// TestRescoreScoreOverflow: a row whose objectives are finite but whose
// float32 weighted score overflows is invalid in the result's evaluation
// (the copy follow mode rereads against); read again unchanged it is the
// same, and edited it says what changed.
func TestRescoreScoreOverflow(t *testing.T) {
	c, err := engine.New(setup.Config{
		Method:         "grpo",
		Objectives:     []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "y", Expr: "y"}},
		Weights:        map[string]float64{"x": 1, "y": 1},
		ScorePrecision: "float32",
	})
	if err != nil {
		t.Fatal(err)
	}
	// 3e38 is finite in float32; the float32 sum of two is not.
	big := enginetest.Traj(0, "g", "x", 3e38, "y", 3e38)
	res := c.Compute([]scoring.Trajectory{enginetest.Traj(0, "g", "x", 1.0, "y", 2.0), big}, engine.GRPO)
	if res.Evaluation.Valid[1] {
		t.Fatal("the overflowing row is valid")
	}
	if got, want := res.Evaluation.Causes[1], "score: infinite (the float32 weighted sum overflows)"; got != want {
		t.Errorf("cause %q, want %q", got, want)
	}
	for _, r := range []struct {
		name string
		now  scoring.Trajectory
		want string
	}{
		{"unchanged", big, ""},
		{"a value", enginetest.Traj(0, "g", "x", 3e38, "y", 1.0), "y is now 1, was 3e+38"},
		{"now invalid", enginetest.Traj(0, "g", "x", 3e38), "it is now invalid: y: missing"},
	} {
		if got := res.Evaluation.Rescore(c.Scorer, 1, &r.now); got != r.want {
			t.Errorf("%s: Rescore = %q, want %q", r.name, got, r.want)
		}
	}
}
