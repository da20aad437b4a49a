package pareto

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
)

// manyDistinct is how many distinct values count as many: objectives
// with at least as many rank alike for the default axes.
const manyDistinct = 10

// defaultAxes returns the objectives the plot starts on, x before y: the
// two with the most distinct values among members' valid trajectories,
// counted up to manyDistinct, ties to the objective declared first, put
// on the axes in their declaration order. A 0/1 objective (two stripes of
// points) yields to objectives with a spread; objectives that all have
// many values keep the first two. With sources, a trajectory counts for
// the objectives of its source only, and the two are the first pair in
// that order that some trajectory has both of (the plot draws only those,
// diagnose.Project). ok is false when no member is valid: there is
// nothing to choose by.
func defaultAxes(ev *engine.Evaluation, members []int) (x, y int, ok bool) {
	m := ev.M
	// Each objective counted on its own, up to manyDistinct: one of a
	// few values (a 0/1 score) is read through, the others stop early.
	distinct := make([]int, m)
	var values []float64
	for k := range m {
		values = values[:0]
		for _, i := range members {
			if !ev.Valid[i] {
				continue
			}
			ok = true
			if !ev.HasObjective(i, k) {
				continue
			}
			if v := ev.Values[i*m+k]; !slices.Contains(values, v) {
				if values = append(values, v); len(values) == manyDistinct {
					break
				}
			}
		}
		distinct[k] = len(values)
	}
	if !ok || m < 2 {
		return 0, min(1, m-1), ok
	}
	order := make([]int, m)
	for k := range order {
		order[k] = k
	}
	// Stable: among equal counts, the order of declaration.
	slices.SortStableFunc(order, func(a, b int) int { return distinct[b] - distinct[a] })
	first, second := order[0], order[1]
	if ev.HasSources() {
	pairs:
		for a := range order {
			for _, b := range order[a+1:] {
				if someHasBoth(ev, members, order[a], b) {
					first, second = order[a], b
					break pairs
				}
			}
		}
	}
	return min(first, second), max(first, second), true
}

// someHasBoth reports whether a valid trajectory among members has
// objectives a and b (engine.Evaluation.HasObjective).
func someHasBoth(ev *engine.Evaluation, members []int, a, b int) bool {
	return slices.ContainsFunc(members, func(i int) bool { return ev.Valid[i] && ev.HasObjective(i, a) && ev.HasObjective(i, b) })
}
