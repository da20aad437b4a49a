package diagnose

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/floatorder"
)

// Projection is the valid trajectories of one batch seen on two of their
// objectives (raw values): the points of a 2-D scatter plot.
type Projection struct {
	// Index holds the trajectories in ascending order of (X, Y, index), the
	// order in which a reader walks the plot from left to right.
	Index []int
	// X and Y hold the two objectives' values, parallel to Index.
	X, Y []float64
	// Hidden counts the batch's invalid trajectories, which have no point.
	Hidden int
}

// Project returns batch bi's valid trajectories on objectives kx and ky.
func Project(res *engine.Result, bi, kx, ky int) Projection {
	members := res.Ranking.Batches[bi].Members
	idx := engine.ValidMembers(nil, members, res.Evaluation.Valid)
	// A stable radix sort by (X, Y): ties keep idx's order, which is the
	// index's once sorted (a batch's members are, but checking is cheap).
	// On an X of a few hundred values, floatorder sorts by Y then by X.
	if !slices.IsSorted(idx) {
		slices.Sort(idx)
	}
	values, m := res.Evaluation.Values, res.Evaluation.M
	floatorder.Sort(idx, 2, func(k, i int) uint64 {
		if k == 0 {
			return floatorder.Key(values[i*m+kx])
		}
		return floatorder.Key(values[i*m+ky])
	})
	p := Projection{
		Index:  idx,
		X:      make([]float64, len(idx)),
		Y:      make([]float64, len(idx)),
		Hidden: len(members) - len(idx),
	}
	for j, i := range idx {
		p.X[j], p.Y[j] = res.Evaluation.Values[i*res.Evaluation.M+kx], res.Evaluation.Values[i*res.Evaluation.M+ky]
	}
	return p
}
