package diagnose

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
)

// Projection is the valid trajectories of one batch seen on two of their
// objectives (raw values): the points of a 2-D scatter plot.
type Projection struct {
	// Index holds the trajectories in ascending order of index. A plot
	// orders what it walks itself (the Pareto tab, each group's points
	// by x): the whole batch sorted by x cost more than the rest of its
	// first drawing.
	Index []int
	// X and Y hold the two objectives' values, parallel to Index.
	X, Y []float64
	// Hidden counts the batch's invalid trajectories, which have no point;
	// Dropped those the group filter dropped (engine.Evaluation.DroppedAt),
	// not invalid data, which have none either.
	Hidden, Dropped int
	// NoX and NoY count the valid trajectories left out because their
	// source lacks the x or the y objective (engine.Evaluation.HasObjective:
	// the engine's 0 there is no value to draw); one lacking both counts
	// in each.
	NoX, NoY int
	// Lacking counts those trajectories.
	Lacking int
	// Ranked is the most objectives a drawn trajectory is ranked over
	// (engine.Evaluation.RankedObjectives), 0 with none drawn: above 2,
	// some point's rank is not the plot's alone.
	Ranked int
}

// Project returns batch bi's valid trajectories on objectives kx and ky,
// but those whose source lacks either.
func Project(res *engine.Result, bi, kx, ky int) Projection {
	members := res.Ranking.Batches[bi].Members
	idx := engine.ValidMembers(make([]int, 0, len(members)), members, res.Evaluation.Valid)
	var noX, noY, lacking int
	if ev := res.Evaluation; ev.HasSources() {
		idx = slices.DeleteFunc(idx, func(i int) bool {
			x, y := ev.HasObjective(i, kx), ev.HasObjective(i, ky)
			if !x {
				noX++
			}
			if !y {
				noY++
			}
			if !x || !y {
				lacking++
				return true
			}
			return false
		})
	}
	dropped := res.Evaluation.DroppedIn(members)
	// A batch's members are in input order; checking is cheap.
	if !slices.IsSorted(idx) {
		slices.Sort(idx)
	}
	p := Projection{
		Index:   idx,
		X:       make([]float64, len(idx)),
		Y:       make([]float64, len(idx)),
		Hidden:  len(members) - len(idx) - lacking - dropped,
		Dropped: dropped,
		NoX:     noX,
		NoY:     noY,
		Lacking: lacking,
	}
	values, m := res.Evaluation.Values, res.Evaluation.M
	for j, i := range idx {
		p.X[j], p.Y[j] = values[i*m+kx], values[i*m+ky]
		p.Ranked = max(p.Ranked, res.Evaluation.RankedObjectives(i))
	}
	return p
}
