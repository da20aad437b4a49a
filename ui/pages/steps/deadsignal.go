package steps

import (
	"math"

	"github.com/rewardlens/rewardlens/engine/diagnose"
)

// deadSignalSeries returns the charts of the groups without signal by the
// task metric (diagnose.DeadSignal, docs/CONTRACT.md Dead signal), each a
// share of the batch's groups: the zero-spread groups split into
// all-pass, all-fail and other-constant, the phantom groups, and the
// groups all-pass or all-fail whatever their scores against what
// independent sampling at the batch's pass rate gives (mean over the
// groups of p^G_i + (1-p)^G_i). None when the trends carry no dead
// signal (no prompts' columns); NaN where a batch has no group.
func deadSignalSeries(trends []diagnose.Trend) []stepSeries {
	if len(trends) == 0 || trends[0].DeadSignal == nil {
		return nil
	}
	// Short titles: a grid cell keeps the step's value beside them.
	series := []stepSeries{
		{title: "0-spread all-pass", nonNegative: true},
		{title: "0-spread all-fail", nonNegative: true},
		{title: "0-spread other", nonNegative: true},
		{title: "phantom share", nonNegative: true},
		{title: "dead share", nonNegative: true},
		{title: "expected dead share", nonNegative: true},
	}
	for _, tr := range trends {
		d := tr.DeadSignal
		values := []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		if d != nil && d.Groups > 0 {
			n := float64(d.Groups)
			values = []float64{float64(d.ZeroAllPass) / n, float64(d.ZeroAllFail) / n, float64(d.ZeroOther) / n,
				d.PhantomShare, d.DeadShare, d.ExpectedDeadShare}
		}
		for k, v := range values {
			series[k].values = append(series[k].values, v)
		}
	}
	return series
}
