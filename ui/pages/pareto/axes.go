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
// many values keep the first two. ok is false when no member is valid:
// there is nothing to choose by.
func defaultAxes(ev *engine.Evaluation, members []int) (x, y int, ok bool) {
	m := ev.M
	distinct := make([][]float64, m)
	many := 0 // objectives counted up to manyDistinct: once all are, the rest changes nothing
	for _, i := range members {
		if many == m {
			break
		}
		if !ev.Valid[i] {
			continue
		}
		ok = true
		for k := range m {
			if v := ev.Values[i*m+k]; len(distinct[k]) < manyDistinct && !slices.Contains(distinct[k], v) {
				distinct[k] = append(distinct[k], v)
				if len(distinct[k]) == manyDistinct {
					many++
				}
			}
		}
	}
	if !ok || m < 2 {
		return 0, min(1, m-1), ok
	}
	order := make([]int, m)
	for k := range order {
		order[k] = k
	}
	// Stable: among equal counts, the order of declaration.
	slices.SortStableFunc(order, func(a, b int) int { return len(distinct[b]) - len(distinct[a]) })
	return min(order[0], order[1]), max(order[0], order[1]), true
}
