package engine

import "slices"

// Without returns ev with the valid trajectories i for which leave(i)
// made invalid, their cause being cause: every index stays (what indexes
// ev indexes it), and the rankings, scores and statistics computed on it
// leave those trajectories out as any invalid one: the batch DAPO's
// group filter keeps, the dropped groups out (prompts.FilterGroups). It
// shares ev's arrays but validity and causes, and none of its caches.
func (ev *Evaluation) Without(leave func(i int) bool, cause string) *Evaluation {
	out := &Evaluation{
		Objectives: ev.Objectives, Values: ev.Values, M: ev.M, Absent: ev.Absent, Logged: ev.Logged,
		Constraints: ev.Constraints, Gates: ev.Gates, Violation: ev.Violation, ConstraintHolds: ev.ConstraintHolds,
		GateShut: ev.GateShut, feasible: ev.feasible,
		SourceNames: ev.SourceNames, sourceOf: ev.sourceOf, sourceScorer: ev.sourceScorer,
		sourceWeights: ev.sourceWeights, sourceColumns: ev.sourceColumns,
		batches: ev.batches, stepCounts: ev.stepCounts, groupOf: ev.groupOf, groupNames: ev.groupNames,
		Valid: slices.Clone(ev.Valid), Causes: slices.Clone(ev.Causes),
	}
	for i, valid := range out.Valid {
		if valid && leave(i) {
			out.Valid[i], out.Causes[i] = false, cause
		}
	}
	return out
}
