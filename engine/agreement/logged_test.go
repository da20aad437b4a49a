package agreement

import (
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestLoggedAdvantage checks Evaluation.Logged and CompareLogged.
func TestLoggedAdvantage(t *testing.T) {
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	// Scores 1, 3: mean 2, sample std sqrt(2); rewards -+1/(sqrt2 + 1e-4).
	a := 1 / (math.Sqrt2 + 1e-4)
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "x", 1.0, "adv", -a),        // equal
		enginetest.Traj(0, "g", "x", 3.0, "adv", a+0.5),     // 0.5 off
		enginetest.Traj(1, "g", "x", 1.0),                   // no logged advantage
		enginetest.Traj(1, "h", "x", 1.0, "adv", 2e-4+1e-9), // a group of one: reward 0, 2e-4 off
	}
	res := c.Compute(ts, engine.GRPO)
	if len(res.Evaluation.Logged) != 4 || res.Evaluation.Logged[0] != -a || !math.IsNaN(res.Evaluation.Logged[2]) {
		t.Fatalf("Logged = %v", res.Evaluation.Logged)
	}
	got, ok := CompareLogged(res, &res.Ranking.Batches[0])
	if !ok || got.Rows != 2 || got.Differing != 1 || !near(got.MaxAbsDiff, 0.5) || !near(got.MeanAbsDiff, 0.25) {
		t.Errorf("batch 0: %+v, %v", got, ok)
	}
	got, _ = CompareLogged(res, &res.Ranking.Batches[1])
	if got.Rows != 1 || got.Differing != 1 || !near(got.MaxAbsDiff, 2e-4+1e-9) {
		t.Errorf("batch 1: %+v", got)
	}
	plain, _ := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}})
	if res := plain.Compute(ts, engine.GRPO); res.Evaluation.Logged != nil {
		t.Errorf("without an expression, Logged = %v", res.Evaluation.Logged)
	} else if _, ok := CompareLogged(res, &res.Ranking.Batches[0]); ok {
		t.Error("CompareLogged without logged advantages: ok")
	}
}
