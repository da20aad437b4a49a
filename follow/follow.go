// Package follow is the follow loop that the dashboard and stats --follow
// share: each update of the followed inputs (loaders.Follow) is applied to
// the live evaluation (engine/live), only the batches it touches are
// computed again (engine.Evaluation.Recompute), and the trends are
// brought up to date from the previous ones (diagnose.TrendsSince).
package follow

import (
	"context"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/loaders"
)

// Step applies the update u to followed: it forgets the trajectories of the
// files u read again, evaluates u's new ones, and returns prev, a result
// of followed's evaluation before u, recomputed for the evaluation after it,
// with trends, prev's trends (ref being their hypervolume reference),
// brought up to date. A caller that keeps no trends passes nil and gets
// nil. prev and trends are not changed.
func Step(followed *live.Evaluation, u loaders.Update, prev *engine.Result, trends []diagnose.Trend, ref []float64) (*engine.Result, []diagnose.Trend) {
	res, trends, _ := StepContext(context.Background(), followed, u, prev, trends, ref) // never ends
	return res, trends
}

// StepContext is Step stopped once ctx is done (an interrupt), looked at
// before each comparison group and batch computed: it then returns ctx's
// error, and followed holds u's trajectories without a result computed for
// them (a caller that stops following).
func StepContext(ctx context.Context, followed *live.Evaluation, u loaders.Update, prev *engine.Result, trends []diagnose.Trend, ref []float64) (*engine.Result, []diagnose.Trend, error) {
	return recomputeContext(ctx, followed.Update(u.Reloaded, u.Trajectories), prev, trends, ref)
}

// Recompute is Step given ev, the evaluation after the update: that of a
// live evaluation, or one made from it (the dashboard's group filter:
// engine.Evaluation.WithoutSince). Only the batches ev adds to are
// computed when it extends prev's evaluation.
func Recompute(ev *engine.Evaluation, prev *engine.Result, trends []diagnose.Trend, ref []float64) (*engine.Result, []diagnose.Trend) {
	res, trends, _ := recomputeContext(context.Background(), ev, prev, trends, ref) // never ends
	return res, trends
}

// recomputeContext is Recompute stopped once ctx is done, as StepContext.
func recomputeContext(ctx context.Context, ev *engine.Evaluation, prev *engine.Result, trends []diagnose.Trend, ref []float64) (*engine.Result, []diagnose.Trend, error) {
	res, err := ev.RecomputeContext(ctx, prev)
	if err != nil {
		return nil, nil, err
	}
	if trends != nil {
		if trends, err = diagnose.TrendsSinceContext(ctx, res, prev, trends, ref); err != nil {
			return nil, nil, err
		}
	}
	return res, trends, nil
}
