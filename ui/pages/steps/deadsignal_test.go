package steps

import (
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine/diagnose"
)

// TestDeadSignalSeries checks the dead signal's charts against
// hand-computed shares: 8 groups, 2 zero-spread all-pass (1/4), 1
// all-fail (1/8), 1 other (1/8), 2 phantom (1/4), dead share (2+1+2)/8;
// a batch without a group charts nothing (NaN); trends without a dead
// signal have no such charts.
func TestDeadSignalSeries(t *testing.T) {
	d := diagnose.DeadSignal{Groups: 8, ZeroSpread: 4, ZeroAllPass: 2, ZeroAllFail: 1, ZeroOther: 1, Phantom: 2,
		PassRate: 0.5, DeadShare: 5.0 / 8, ExpectedDeadShare: 0.25, PhantomShare: 2.0 / 8}
	empty := diagnose.DeadSignal{DeadShare: math.NaN(), ExpectedDeadShare: math.NaN(), PhantomShare: math.NaN(), PassRate: math.NaN()}
	series := deadSignalSeries([]diagnose.Trend{{DeadSignal: &d}, {DeadSignal: &empty}})
	want := []float64{0.25, 0.125, 0.125, 0.25, 0.625, 0.25}
	if len(series) != len(want) {
		t.Fatalf("%d series, want %d", len(series), len(want))
	}
	for k, s := range series {
		if len(s.values) != 2 || s.values[0] != want[k] || !math.IsNaN(s.values[1]) {
			t.Errorf("%s: %v, want [%v NaN]", s.title, s.values, want[k])
		}
	}
	if got := deadSignalSeries([]diagnose.Trend{{}}); got != nil {
		t.Errorf("%d series without a dead signal", len(got))
	}
	if n := len(stepsSeries(nil, nil, []diagnose.Trend{{DeadSignal: &d}})); n != 11 {
		t.Errorf("stepsSeries gives %d charts with no objective and a dead signal, want 5 + 6", n)
	}
}
