package engine

import "slices"

// Without returns ev with the valid trajectories i for which leave(i)
// left out: not valid, and marked Dropped, of no cause (they are not
// invalid data). Every index stays (what indexes ev indexes it), and the
// rankings, scores and statistics computed on it leave those trajectories
// out as any invalid one: the batch DAPO's group filter keeps, the
// dropped groups out (prompts.FilterGroups). It shares ev's arrays but
// validity and the marks, and none of its caches.
func (ev *Evaluation) Without(leave func(i int) bool) *Evaluation {
	out := ev.withoutShell()
	out.Valid, out.Dropped = slices.Clone(ev.Valid), make([]bool, len(ev.Valid))
	for i, valid := range out.Valid {
		if valid && leave(i) {
			out.Valid[i], out.Dropped[i] = false, true
		}
	}
	return out
}

// WithoutSince returns ev.Without(leave), given prev, a Without (or
// WithoutSince) of an evaluation that ev extends (Append), and changed,
// the batches of ev that ev adds rows to (ExtendBatches' changed): only
// the rows of changed are asked, the others keep prev's validity. leave
// must then hold for the rows outside changed exactly where prev's leave
// held (DAPO's group filter, whose groups lie within a batch). The result
// extends prev, so that Recompute and TrendsSince compute only the
// batches of changed. Its validity and Dropped marks extend prev's arrays
// in place, past their length, unless some old row's validity changes or
// prev was extended already: then they are copied, prev staying as it
// is. When prev is no such evaluation, it is ev.Without(leave).
func (ev *Evaluation) WithoutSince(prev *Evaluation, changed []Batch, leave func(i int) bool) *Evaluation {
	if prev.without == nil || !ev.Extends(prev.without) {
		return ev.Without(leave)
	}
	from, n := prev.N(), ev.N()
	validAt := func(i int) bool { return ev.Valid[i] && !leave(i) }
	copied := false // some old row's validity changes
changes:
	for _, b := range changed {
		for _, i := range b.Members {
			if i < from && validAt(i) != prev.Valid[i] {
				copied = true
				break changes
			}
		}
	}
	prev.mu.Lock()
	if prev.line == nil {
		prev.line = &appendLine{}
	}
	line := prev.line
	prev.mu.Unlock()
	inPlace := !copied && claim(line, prev.Valid)
	out := ev.withoutShell()
	out.line = line
	out.Valid, out.Dropped = extendArray(prev.Valid, n, inPlace), extendArray(prev.Dropped, n, inPlace)
	set := func(i int) {
		dropped := ev.Valid[i] && leave(i)
		out.Valid[i], out.Dropped[i] = ev.Valid[i] && !dropped, dropped
	}
	if copied { // else the old rows stand as they are: they may be prev's, read meanwhile
		for _, b := range changed {
			for _, i := range b.Members {
				if i < from {
					set(i)
				}
			}
		}
	}
	for i := from; i < n; i++ {
		set(i)
	}
	// The objectives' statistics of a batch depend on its valid members
	// alone: those of the batches not in changed stand.
	out.cache.keep(&prev.cache, func(k CacheKey) bool { return k.Of == OfObjectiveStats })
	return out
}

// withoutShell returns an evaluation made from ev (Without), sharing its
// arrays, its causes among them, but validity and the Dropped marks,
// which it leaves nil.
func (ev *Evaluation) withoutShell() *Evaluation {
	return &Evaluation{
		Objectives: ev.Objectives, Values: ev.Values, M: ev.M, Absent: ev.Absent, Causes: ev.Causes, Logged: ev.Logged, loggedExpr: ev.loggedExpr, LoggedFaults: ev.LoggedFaults,
		Constraints: ev.Constraints, Gates: ev.Gates, Violation: ev.Violation, ConstraintHolds: ev.ConstraintHolds,
		GateShut: ev.GateShut, feasible: ev.feasible,
		SourceNames: ev.SourceNames, sourceOf: ev.sourceOf, sourceScorer: ev.sourceScorer,
		sourceWeights: ev.sourceWeights, sourceColumns: ev.sourceColumns,
		batches: ev.batches, stepCounts: ev.stepCounts, groupOf: ev.groupOf, groupNames: ev.groupNames, groupRuns: ev.groupRuns,
		evalReasons: ev.evalReasons, without: ev,
	}
}
