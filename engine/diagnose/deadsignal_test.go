package diagnose

import (
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestDeadSignalByHand builds one batch of five groups, the objective x
// the score and the task metric acc, and checks every count and share
// against hand-computed values.
func TestDeadSignalByHand(t *testing.T) {
	type row struct {
		g      string
		x, acc float64
	}
	rows := []row{
		{"allpass", 1, 1}, {"allpass", 1, 1}, // zero spread, all pass
		{"allfail", 0, 0}, {"allfail", 0, 0}, {"allfail", 0, 0}, // zero spread, all fail
		{"other", 0.5, 1}, {"other", 0.5, 0}, // zero spread, mixed metric
		{"phantom", -0.2, 0}, {"phantom", 0, 0}, // all fail, scores vary (a length penalty)
		{"live", 1, 1}, {"live", 0, 0}, // signal
	}
	var ts []scoring.Trajectory
	task := make([]float64, 0, len(rows))
	for _, r := range rows {
		ts = append(ts, enginetest.Traj(0, r.g, "x", r.x))
		task = append(task, r.acc)
	}
	res := oneObjective(t, engine.Options{Method: engine.GRPO}).Compute(ts, engine.GRPO)
	d := DeadSignalOf(res, &res.Ranking.Batches[0], task, 1)
	if d.Groups != 5 || d.ZeroSpread != 3 || d.ZeroAllPass != 1 || d.ZeroAllFail != 1 || d.ZeroOther != 1 || d.Phantom != 1 {
		t.Fatalf("counts %+v, want 5 groups, 3 zero-spread (1 all-pass, 1 all-fail, 1 other), 1 phantom", d)
	}
	// 4 of 11 pass: p = 4/11. Sizes 2, 3, 2, 2, 2.
	p := 4.0 / 11
	dead := func(g float64) float64 { return math.Pow(p, g) + math.Pow(1-p, g) }
	want := DeadSignal{PassRate: p, DeadShare: 3.0 / 5, PhantomShare: 1.0 / 5, ExpectedDeadShare: (4*dead(2) + dead(3)) / 5}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"pass rate", d.PassRate, want.PassRate}, {"dead share", d.DeadShare, want.DeadShare},
		{"phantom share", d.PhantomShare, want.PhantomShare}, {"expected", d.ExpectedDeadShare, want.ExpectedDeadShare}} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// A missing metric: that group is neither all-pass nor all-fail, and
	// the pass rate leaves it out.
	task[0] = math.NaN()
	d = DeadSignalOf(res, &res.Ranking.Batches[0], task, 1)
	if d.ZeroAllPass != 0 || d.ZeroOther != 2 || !near(d.PassRate, 3.0/10) {
		t.Errorf("with a missing metric: %+v, want the all-pass group other-constant and p = 3/10", d)
	}
	// The threshold: at 0, every completion passes.
	task[0] = 1
	d = DeadSignalOf(res, &res.Ranking.Batches[0], task, 0)
	if d.ZeroAllPass != 3 || d.Phantom != 2 || d.PassRate != 1 || d.ExpectedDeadShare != 1 {
		t.Errorf("threshold 0: %+v, want every group all-pass (the two whose scores vary phantom), expectation 1", d)
	}
	trends := Trends(res, nil)
	AddDeadSignal(res, trends, task, 1)
	if trends[0].DeadSignal == nil || trends[0].DeadSignal.Phantom != 1 {
		t.Errorf("AddDeadSignal: %+v, want the batch's dead signal in its trend", trends[0].DeadSignal)
	}
}
