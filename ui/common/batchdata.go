package common

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
)

// The values of a batch that the charts draw: those of its valid
// trajectories, the set diagnose.BatchStats summarises, so that a chart and
// the statistics beside it always count the same trajectories.

// AppendValidValues appends to dst the values of the valid trajectories
// of batch b: a tab refreshed on every method switch reuses its array.
func AppendValidValues(dst []float64, res *engine.Result, b *engine.Batch, values []float64) []float64 {
	out := dst
	for _, i := range b.Members {
		if res.Evaluation.Valid[i] {
			out = append(out, values[i])
		}
	}
	return out
}

// AppendShownRewards appends to dst the rewards of batch b's valid
// trajectories as shown (engine.Result.ShownReward: a zero-spread group's
// rounding leftovers 0), in member order.
func AppendShownRewards(dst []float64, res *engine.Result, b *engine.Batch) []float64 {
	valid := res.ValidOf(b)
	n := len(dst)
	dst = slices.Grow(dst, len(valid))[:n+len(valid)]
	res.GatherShown(dst[n:], valid)
	return dst
}

// ValidObjective returns objective k's raw values for the valid
// trajectories of batch b that have one: a value nansum counted 0 (TRL's
// None: engine.Evaluation.Missing) and the 0 of a trajectory whose source
// lacks k (engine.Evaluation.HasObjective) are left out, as the
// statistics leave them (diagnose.ObjectiveStats).
func ValidObjective(res *engine.Result, b *engine.Batch, k int) []float64 {
	out := make([]float64, 0, len(b.Members))
	for _, i := range b.Members {
		if res.Evaluation.Valid[i] && res.Evaluation.HasObjective(i, k) && !res.Evaluation.Missing(i, k) {
			out = append(out, res.Evaluation.Values[i*res.Evaluation.M+k])
		}
	}
	return out
}
