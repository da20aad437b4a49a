package session

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/diagnose"

	"github.com/rewardlens/rewardlens/internal/pause"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// TestHealthJobStepsAside: the background command's health job, started
// while the gate is held, stops at it before its work and goes on once it
// is released, to the same trends and findings as a job run without one.
func TestHealthJobStepsAside(t *testing.T) {
	want := deadSignalSession(t)
	settleHealth(want)

	s := deadSignalSession(t)
	j := s.HealthJob()
	var gate pause.Gate
	gate.Hold()
	done := make(chan struct{})
	go func() {
		j.RunPausing(&gate)
		close(done)
	}()
	if !testkit.StopsAt(&gate, 1, done) {
		t.Fatal("the health job ran past the held gate")
	}
	if j.done.Load() {
		t.Fatal("the health job is done while stopped at the gate")
	}
	gate.Release()
	<-done
	if !s.HealthDone(j) {
		t.Fatal("the job's result was not taken")
	}
	if !reflect.DeepEqual(comparable(s.Trends()), comparable(want.Trends())) || !reflect.DeepEqual(s.Findings(), want.Findings()) {
		t.Error("the health job that stepped aside computed other trends or findings")
	}
}

// comparable returns a copy of trends that reflect.DeepEqual can compare:
// a hypervolume NaN (not 2 or 3 objectives) made -1, which none is.
func comparable(trends []diagnose.Trend) []diagnose.Trend {
	out := slices.Clone(trends)
	for i := range out {
		if math.IsNaN(out[i].Hypervolume) {
			out[i].Hypervolume = -1
		}
	}
	return out
}
