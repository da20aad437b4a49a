package pareto

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/ui/common"
)

// pointIndex is what the plot needs of a projection's points besides
// their values, under one ranking: on a large batch it is computed with
// the projection, off the event loop (indexPoints).
type pointIndex struct {
	// ranking is the engine's ranking the ranks come from: a recompute
	// with another method keeps it (engine.Evaluation.Ranking).
	ranking *engine.Ranking
	// rank holds each point's Pareto rank, parallel to proj.Index;
	// groupOf its group's index in the batch's Groups; the points of group
	// g are order[start[g]:start[g+1]], in the order of (x, y, index).
	rank, groupOf, order, start []int32
	// groupCut is how much of the batch's group keys to leave out when
	// naming a group (common.SharedGroupPrefix, as the Groups tab does).
	groupCut int
}

// indexPoints returns the index of proj's points, batch's valid
// trajectories, under res's ranking, and byXY: the points in the order of
// (x, y, index), which a group larger than sortAlone takes its order
// from, sorted here when such a group needs them and byXY is nil.
func indexPoints(res *engine.Result, batch *engine.Batch, proj diagnose.Projection, byXY []int) (pointIndex, []int) {
	n := len(proj.Index)
	ix := pointIndex{ranking: res.Ranking, rank: make([]int32, n), groupOf: make([]int32, n), order: make([]int32, n), start: make([]int32, len(batch.Groups)+1)}
	// The group of each trajectory of the batch, by its index less the
	// batch's smallest.
	base, top := math.MaxInt, 0
	for _, i := range batch.Members {
		base, top = min(base, i), max(top, i)
	}
	groupOfTrajectory := make([]int32, max(top-base+1, 0))
	largest := 0
	for g, grp := range batch.Groups {
		largest = max(largest, len(grp.Members))
		for _, i := range grp.Members {
			groupOfTrajectory[i-base] = int32(g)
		}
	}
	for j, i := range proj.Index {
		ix.rank[j] = int32(res.Ranking.Ranks[i])
		ix.groupOf[j] = groupOfTrajectory[i-base]
	}
	if largest <= sortAlone {
		chart.Buckets(ix.order, ix.start, ix.groupOf, len(batch.Groups))
		sortGroups(ix.order, ix.start, proj.X, proj.Y)
	} else {
		// Each group's points in the batch's order of (x, y, index).
		if byXY == nil {
			byXY = floatorder.ByPairs(proj.X, proj.Y)
		}
		classes := make([]int32, n)
		for k, j := range byXY {
			classes[k] = ix.groupOf[j]
		}
		chart.Buckets(ix.order, ix.start, classes, len(batch.Groups))
		for k, at := range ix.order {
			ix.order[k] = int32(byXY[at])
		}
	}
	ix.groupCut = common.SharedGroupPrefix(len(batch.Groups), func(g int) string { return batch.Groups[g].Key })
	return ix, byXY
}

// dataRanges returns the ranges of proj's points, (x min, x max, y min,
// y max), and [0, 1] on both axes when there are none.
func dataRanges(proj diagnose.Projection) [4]float64 {
	if len(proj.X) == 0 {
		return [4]float64{0, 1, 0, 1}
	}
	return [4]float64{floats.Min(proj.X), floats.Max(proj.X), floats.Min(proj.Y), floats.Max(proj.Y)}
}
