package pareto

import (
	"cmp"
	"slices"

	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/internal/parallel"
)

// The projection's points are in index order (diagnose.Project); the tab
// walks each group's points from left to right, in the order of
// (x, y, index), which it sorts group by group: a batch's groups are
// small, and sorting each is linear in the batch where sorting the batch
// by x was not. A group of more than sortAlone points (scope batch: the
// whole batch in one) takes its order from the batch's, sorted once a
// projection (indexPoints).

// sortAlone is the largest group sorted by itself; the rest take their
// order from the batch's.
const sortAlone = 4096

// insertionMax is the largest group sorted by insertion.
const insertionMax = 16

// lessXY reports whether point a comes before point b in the order of
// (x, y, index): x and y in cmp.Compare's order (floatorder.Key), ties by
// position, which is the index's order.
func lessXY(xs, ys []float64, a, b int32) bool {
	return cmpXY(xs, ys, a, b) < 0
}

// cmpXY compares points a and b in the order of (x, y, index).
func cmpXY(xs, ys []float64, a, b int32) int {
	return cmp.Or(cmp.Compare(floatorder.Key(xs[a]), floatorder.Key(xs[b])),
		cmp.Compare(floatorder.Key(ys[a]), floatorder.Key(ys[b])), cmp.Compare(a, b))
}

// sortGroups sorts each group's points, order[start[g]:start[g+1]], in
// the order of (x, y, index), the groups shared out among the cores.
func sortGroups(order, start []int32, xs, ys []float64) {
	groups := len(start) - 1
	parallel.Chunks(groups, 1<<12, parallel.Workers(len(order), 1<<16), func(_, lo, hi int) {
		var keyed [insertionMax]xyKey
		for g := lo; g < hi; g++ {
			points := order[start[g]:start[g+1]]
			if len(points) > insertionMax {
				slices.SortFunc(points, func(a, b int32) int { return cmpXY(xs, ys, a, b) })
				continue
			}
			// By insertion, each key computed once; an insertion sort is
			// stable, and the points come in index order.
			group := keyed[:len(points)]
			for k, j := range points {
				p := xyKey{floatorder.Key(xs[j]), floatorder.Key(ys[j]), j}
				l := k
				for ; l > 0 && (p.x < group[l-1].x || p.x == group[l-1].x && p.y < group[l-1].y); l-- {
					group[l] = group[l-1]
				}
				group[l] = p
			}
			for k, p := range group {
				points[k] = p.at
			}
		}
	})
}

// xyKey is a point's position with its keys.
type xyKey struct {
	x, y uint64
	at   int32
}

// leftmost returns the position of the first point in the order of
// (x, y, index), -1 if there are none.
func leftmost(xs, ys []float64) int {
	if len(xs) == 0 {
		return -1
	}
	best, bx, by := 0, floatorder.Key(xs[0]), floatorder.Key(ys[0])
	for j := 1; j < len(xs); j++ {
		// Ties keep the first, the lower index.
		if x := floatorder.Key(xs[j]); x < bx || x == bx && floatorder.Key(ys[j]) < by {
			best, bx, by = j, x, floatorder.Key(ys[j])
		}
	}
	return best
}
