package session

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
)

// deadSignalSession is one step of three groups of two scored by acc:
// group a all pass, b mixed, c all fail.
func deadSignalSession(t *testing.T) *Session {
	t.Helper()
	accs := []float64{1, 1, 1, 0, 0, 0}
	var ts []scoring.Trajectory
	for i, acc := range accs {
		ts = append(ts, scoring.Trajectory{ID: fmt.Sprint(i), Group: string(rune('a' + i/2)), Done: true,
			Metadata: map[string]any{"acc": acc}})
	}
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "acc", Expr: "acc"}}})
	if err != nil {
		t.Fatal(err)
	}
	return NewSession("test", ts, c)
}

// TestTrendsCarryTheDeadSignal checks the health job's dead signal against
// hand-computed values: groups 3, a zero-spread all-pass, c all-fail, b
// mixed; p = 3/6; dead share 2/3; expected share (1/3) * 3 * (0.5^2 +
// 0.5^2) = 0.5. dead_signal (2/3 > 0.5: WARN) grades it only when the
// task metric is named.
func TestTrendsCarryTheDeadSignal(t *testing.T) {
	for _, named := range []bool{false, true} {
		s := deadSignalSession(t)
		if named {
			s.Config.TaskMetric = "acc"
		}
		settleHealth(s)
		trends := s.Trends()
		d := trends[0].DeadSignal
		if d == nil {
			t.Fatal("no dead signal on the trends")
		}
		want := diagnose.DeadSignal{Groups: 3, ZeroSpread: 2, ZeroAllPass: 1, ZeroAllFail: 1, PassRate: 0.5, DeadShare: 2.0 / 3, ExpectedDeadShare: 0.5}
		if *d != want {
			t.Errorf("dead signal %+v, want %+v", *d, want)
		}
		graded := false
		for _, f := range s.Findings() {
			graded = graded || f.Check == health.CheckDeadSignal
		}
		if graded != named {
			t.Errorf("task metric named %v: dead_signal among the findings %v", named, graded)
		}
	}
}

// TestTrendsWithoutPrompts: a session whose prompts cannot be read has no
// dead signal, and its health is computed all the same.
func TestTrendsWithoutPrompts(t *testing.T) {
	s := deadSignalSession(t)
	s.Prompts = nil
	s.health, s.job = healthCache{}, nil
	settleHealth(s)
	if d := s.Trends()[0].DeadSignal; d != nil {
		t.Errorf("dead signal %+v without the prompts' columns", *d)
	}
}

// settleHealth runs s's health job, as the dashboard runs it off the
// event loop, and hands its result to s: Trends and Findings only read.
func settleHealth(s *Session) {
	j := s.HealthJob()
	j.Run()
	s.HealthDone(j)
}
