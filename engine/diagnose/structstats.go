package diagnose

import (
	"cmp"
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/parallel"
)

// feasibleShares sets st's feasible shares of the valid trajectories
// valid (docs/CONTRACT.md, Statistics).
func feasibleShares(res *engine.Result, st *Counts, valid []int) {
	// Without constraints every valid trajectory meets them all.
	st.Feasible = 1
	if len(valid) == 0 {
		st.Feasible = math.NaN()
	}
	if c := len(res.Evaluation.Constraints); c > 0 {
		st.ConstraintFeasible = make([]float64, c)
		feasible := 0
		for _, i := range valid {
			if res.Evaluation.Feasible(i) {
				feasible++
			}
			for j := range c {
				if res.Evaluation.ConstraintHolds[i*c+j] {
					st.ConstraintFeasible[j]++
				}
			}
		}
		n := float64(len(valid))
		st.Feasible = float64(feasible) / n
		for j := range st.ConstraintFeasible {
			st.ConstraintFeasible[j] /= n
		}
	}
}

// Collapse returns the share of b's comparison groups, among those whose
// valid members hold two distinct objective vectors or more, where two
// members of distinct objective vectors get identical rewards (exactly
// equal): the advantage collapse of TRL#4785. It is NaN when no group
// holds two distinct vectors; groups counts those that do. It is not part
// of BatchStats, which a method switch recomputes for every batch: it
// sorts every group's rewards. The groups are counted in chunks on every
// core.
func Collapse(res *engine.Result, b *engine.Batch) (share float64, groups int) {
	res.ComputeBatchOf(b)
	m := res.Evaluation.M
	row := func(i int) []float64 { return res.Evaluation.Values[i*m : (i+1)*m] }
	nw := parallel.Workers(len(b.Groups), collapseChunk)
	// Each goroutine's groups of distinct vectors and collapsed ones, and
	// its buffer of a group's valid members.
	type counts struct{ groups, collapsed int }
	counted := make([]counts, nw)
	idx := make([][]int, nw)
	parallel.Chunks(len(b.Groups), collapseChunk, nw, func(w, lo, hi int) {
		c := counted[w]
		for _, g := range b.Groups[lo:hi] {
			idx[w] = engine.ValidMembers(idx[w], g.Members, res.Evaluation.Valid)
			valid := idx[w]
			distinct := false
			for _, i := range valid[min(1, len(valid)):] {
				if !slices.Equal(row(i), row(valid[0])) {
					distinct = true
					break
				}
			}
			if !distinct {
				continue
			}
			c.groups++
			if tiedDistinct(valid, res.Rewards, row) {
				c.collapsed++
			}
		}
		counted[w] = c
	})
	collapsed := 0
	for _, c := range counted {
		groups += c.groups
		collapsed += c.collapsed
	}
	return collapseShare(collapsed, groups), groups
}

// collapseShare is the share of groups that collapsed, NaN of none.
func collapseShare(collapsed, groups int) float64 {
	if groups == 0 {
		return math.NaN()
	}
	return float64(collapsed) / float64(groups)
}

// CollapseDistinct is Collapse of a batch whose rewards are all distinct,
// given its groups holding distinct vectors (which Collapse of any result
// of the same evaluation and partition counts): none collapses.
func CollapseDistinct(groups int) float64 { return collapseShare(0, groups) }

// collapseChunk is how many groups a goroutine of Collapse counts at a
// time.
const collapseChunk = 4096

// pairwiseMax is the most members tiedDistinct compares pair by pair:
// up to it, the pairs of a group cost less than sorting it.
const pairwiseMax = 32

// tiedDistinct reports whether two of the members idx (which it may
// reorder) hold distinct objective vectors (row) and equal rewards: pair
// by pair, or in a larger group along its rewards sorted, where a run of
// equal rewards holds two distinct vectors when one differs from the
// run's first.
func tiedDistinct(idx []int, rewards []float64, row func(i int) []float64) bool {
	if len(idx) <= pairwiseMax {
		for k, i := range idx {
			for _, j := range idx[k+1:] {
				if rewards[i] == rewards[j] && !slices.Equal(row(i), row(j)) {
					return true
				}
			}
		}
		return false
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(rewards[a], rewards[b]) })
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && rewards[idx[hi]] == rewards[idx[lo]] {
			hi++
		}
		if slices.ContainsFunc(idx[lo+1:hi], func(i int) bool { return !slices.Equal(row(i), row(idx[lo])) }) {
			return true
		}
		lo = hi
	}
	return false
}
