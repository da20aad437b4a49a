package diagnose

import (
	"cmp"
	"github.com/rewardlens/rewardlens/engine"
	"slices"
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
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(
			cmp.Compare(res.Evaluation.Values[a*res.Evaluation.M+kx], res.Evaluation.Values[b*res.Evaluation.M+kx]),
			cmp.Compare(res.Evaluation.Values[a*res.Evaluation.M+ky], res.Evaluation.Values[b*res.Evaluation.M+ky]),
			cmp.Compare(a, b))
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
