package pareto

import (
	"cmp"
	"slices"
)

// ConstrainedRanks writes into dst[i] the rank of point i under constrained
// domination (Deb, Pratap, Agarwal and Meyarivan, "A fast and elitist
// multiobjective genetic algorithm: NSGA-II", IEEE TEVC 6(2), 2002, section
// VI; pymoo's constrained domination), and returns the number of ranks:
//
//   - a feasible point dominates an infeasible one;
//   - of two infeasible points, the one of smaller violation dominates;
//   - two feasible points compare by Pareto dominance (Dominates).
//
// So the feasible points get their Pareto fronts (Ranks over the feasible
// points alone), 0..F-1, and the infeasible ones the ranks after them, one
// per distinct violation in ascending order: F + the number of distinct
// violations of infeasible points smaller than theirs. An infeasible point
// of violation 0 (a strict comparison broken by equality) comes after every
// feasible point and before any positive violation.
//
// feasible[i] says whether point i is feasible and violation[i] is its
// violation (read for infeasible points only; finite and >= 0). When every
// point is feasible the ranks are Ranks'. It panics as Ranks does, or if
// feasible or violation holds fewer than n values.
func (r *Ranker) ConstrainedRanks(dst []int, points []float64, m int, feasible []bool, violation []float64) int {
	n := dims(points, m)
	if len(feasible) < n || len(violation) < n {
		panic("pareto: ConstrainedRanks needs a feasibility and a violation per point")
	}
	dst = dst[:n]
	var feas, infeas []int
	for i := range n {
		if feasible[i] {
			feas = append(feas, i)
		} else {
			infeas = append(infeas, i)
		}
	}
	if len(infeas) == 0 {
		return r.Ranks(dst, points, m)
	}
	fronts := 0
	if len(feas) > 0 {
		sub := make([]float64, 0, len(feas)*m)
		for _, i := range feas {
			sub = append(sub, points[i*m:(i+1)*m]...)
		}
		subRanks := make([]int, len(feas))
		fronts = r.Ranks(subRanks, sub, m)
		for j, i := range feas {
			dst[i] = subRanks[j]
		}
	}
	slices.SortStableFunc(infeas, func(a, b int) int { return cmp.Compare(violation[a], violation[b]) })
	rank := fronts
	for j, i := range infeas {
		if j > 0 && violation[i] != violation[infeas[j-1]] {
			rank++
		}
		dst[i] = rank
	}
	return rank + 1
}
