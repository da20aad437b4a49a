package session

import (
	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/health"
)

// deadSignal is what adds each batch's dead signal to the trends (the
// Steps tab charts it): the task metric of every trajectory and the pass
// threshold, from the prompts' columns.
type deadSignal struct {
	task      []float64
	threshold float64
	// graded says that dead_signal and phantom_signal grade it: only a
	// named task metric, as stats --health (with the first objective by
	// default and several objectives, the others vary the score by
	// design).
	graded bool
}

// deadSignal returns the current prompts' columns' deadSignal, nil
// without them. Its task slice is the columns' as they stand: later
// trajectories are appended past what a result reads, and a Finish
// replaces the slice rather than write into it.
func (s *Session) deadSignal() *deadSignal {
	if s.Prompts == nil || len(s.Prompts.Task) < s.Evaluation.N() {
		return nil
	}
	return &deadSignal{s.Prompts.Task, s.Prompts.Threshold, s.Config.TaskMetric != ""}
}

// add sets the DeadSignal of each point of trends without one: every
// point after Trends, the points of the batches an update touched after
// follow.Step (the others keep theirs).
func (d *deadSignal) add(res *engine.Result, trends []diagnose.Trend) {
	if d == nil {
		return
	}
	for bi := range trends {
		if trends[bi].DeadSignal == nil {
			ds := diagnose.DeadSignalOf(res, &res.Ranking.Batches[bi], d.task, d.threshold)
			trends[bi].DeadSignal = &ds
		}
	}
}

// findings returns the health findings of trends, the dead signal left
// out of them unless graded.
func (d *deadSignal) findings(res *engine.Result, trends []diagnose.Trend, cfg health.Config) []health.Finding {
	if d == nil || d.graded {
		return health.Findings(res, trends, cfg)
	}
	ungraded := make([]diagnose.Trend, len(trends))
	copy(ungraded, trends)
	for bi := range ungraded {
		ungraded[bi].DeadSignal = nil
	}
	return health.Findings(res, ungraded, cfg)
}
