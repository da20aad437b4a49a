package ui

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestDeadSignalFollows: while following, the steps that come get their
// dead signal on the trends (the Steps tab charts it), and every step's
// is the one of the run opened whole.
func TestDeadSignalFollows(t *testing.T) {
	m, _ := newLiveModel(t)
	m.Settle()
	_, more := sampleSteps(t, 20, 30)
	m.Update(liveMsg{loaders.Update{Trajectories: more}, true})
	m.Settle()
	s := m.Session()
	s.Result.Finish()
	trends := s.Trends()
	if len(trends) != 30 {
		t.Fatalf("%d trend points, want 30", len(trends))
	}
	for bi := range trends {
		d := trends[bi].DeadSignal
		if d == nil {
			t.Fatalf("step %d has no dead signal", bi)
		}
		want := diagnose.DeadSignalOf(s.Result, &s.Result.Ranking.Batches[bi], s.Prompts.Task, s.Prompts.Threshold)
		if d.Groups != want.Groups || d.ZeroSpread != want.ZeroSpread || d.Phantom != want.Phantom || d.ZeroAllPass != want.ZeroAllPass || d.ZeroAllFail != want.ZeroAllFail {
			t.Errorf("step %d: %+v, want %+v", bi, *d, want)
		}
	}
}
