// Package follow is the follow loop that the dashboard and stats --follow
// share: each update of the followed inputs (loaders.Follow) is applied to
// the live evaluation (engine.Live), only the batches it touches are
// computed again (engine.Evaluation.Recompute), and the trends are
// brought up to date from the previous ones (engine.Result.TrendsSince).
package follow

import (
	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
)

// Step applies the update u to live: it forgets the trajectories of the
// files u read again, evaluates u's new ones, and returns prev, a result
// of live's evaluation before u, recomputed for the evaluation after it,
// with trends, prev's trends (ref being their hypervolume reference),
// brought up to date. A caller that keeps no trends passes nil and gets
// nil. prev and trends are not changed.
func Step(live *engine.Live, u loaders.Update, prev *engine.Result, trends []engine.Trend, ref []float64) (*engine.Result, []engine.Trend) {
	res := live.Update(u.Reloaded, u.Trajectories).Recompute(prev)
	if trends != nil {
		trends = res.TrendsSince(prev, trends, ref)
	}
	return res, trends
}
