package health_test

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
)

// sampleResult computes the embedded sample experiment with its config
// (method pareto).
func sampleResult(t *testing.T) *engine.Result {
	t.Helper()
	cfg, data := sampletest.Read(t)
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c.Compute(data.Trajectories, c.Options.Method)
}

// TestHealthTellsTheSampleStory checks that the health checks find the
// sample's story where it happens: nothing before the reward hacking
// starts at step 24; then the safety/accuracy correlation flips and the
// step count drifts down soon after 24, and the zero-spread groups pass
// half of the 16 late (9 of them from step 30).
func TestHealthTellsTheSampleStory(t *testing.T) {
	res := sampleResult(t)
	findings := health.Findings(res, diagnose.Trends(res, nil), health.Config{})
	first := map[health.Check]int64{}
	for _, f := range findings {
		t.Logf("%s %s at step %d: %s", f.Check, f.Level, f.Step, f.Message)
		if f.Step < 24 {
			t.Errorf("%s fired at step %d, before the hacking starts", f.Check, f.Step)
		}
		if _, ok := first[f.Check]; !ok {
			first[f.Check] = f.Step
		}
	}
	for _, want := range []struct {
		check    health.Check
		from, to int64
	}{
		{health.CheckCorrelationFlip, 24, 28},
		{health.CheckLengthDrift, 24, 28},
		{health.CheckZeroSpread, 28, 34},
	} {
		step, ok := first[want.check]
		if !ok || step < want.from || step > want.to {
			t.Errorf("%s first fired at step %d (fired: %v), want steps %d-%d", want.check, step, ok, want.from, want.to)
		}
	}
}
