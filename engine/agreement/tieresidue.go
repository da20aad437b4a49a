package agreement

import (
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
)

// unitRoundoff32 is u, float32's unit roundoff: a float32 operation's
// result is the exact one times (1 + d), |d| <= u.
const unitRoundoff32 = 0x1p-24

// TieResidueBound returns how far from 0 the advantage a trainer computing
// in float32 (verl's compute_grpo_outcome_advantage, TRL's GRPO) gives
// each of n >= 2 equal scores x may be, divided by divisor: the epsilon
// added to the std it divides by, 1 when it divides by none.
//
// The trainer's mean is fl(fl(sum of the n x) / n), the sum in any order
// torch reduces in: |mean - x| <= (gamma(n-1)(1 + u) + u)|x| (Higham,
// Accuracy and Stability, 4.2: any summation tree of n terms), where
// gamma(k) = k u / (1 - k u); x - mean is then exact (Sterbenz), the same
// value d for every member, and the advantage is d / fl(std + epsilon),
// the std >= 0 whatever it is (of the d's), rounded once more. With x
// itself a float32 rounding of the score (|x32| <= |x|(1 + u)) this is
//
//	|A| <= gamma(n + 3) |x| / divisor.
func TieResidueBound(n int, x, divisor float64) float64 {
	k := float64(n+3) * unitRoundoff32
	return k / (1 - k) * math.Abs(x) / divisor
}

// TieResidue reports whether logged, the advantages logged for the rows
// of a group of n >= 2 scores equal to x in the trainer's float32 sum,
// are its float32 residue: every one the same value (within Reproduces)
// within TieResidueBound(n, x, divisor) of 0. Such a group's advantage
// is 0 but for the order torch sums in (CPU vector width, version,
// device), which nothing here reproduces: the rows agree with a reward
// of 0.
func TieResidue(logged []float64, n int, x, divisor float64) bool {
	if n < 2 || len(logged) == 0 {
		return false
	}
	bound := TieResidueBound(n, x, divisor)
	lo, hi := slices.Min(logged), slices.Max(logged)
	return hi-lo <= Reproduces && -bound <= lo && hi <= bound
}

// tieResidueDivisor returns what o's advantage divides the residue of
// equal scores by (TieResidueBound), and false for a method other than
// grpo, whose rewards of equal scores are not those of a group mean and
// std, or a score in float64: the trainer is taken to compute in float32
// when its scores are summed so (--score-precision float32, the TRL and
// verl layouts'), a float64 one's residue being far below Tolerance.
func tieResidueDivisor(o engine.Options) (float64, bool) {
	if o.Method != engine.GRPO || o.ScorePrecision != engine.ScoreFloat32 {
		return 0, false
	}
	if o.Scale == engine.ScaleNone || !o.Normalize {
		return 1, true
	}
	return o.EpsilonOrDefault(), true
}

// tieResidues marks, in rows (allocated when nil), the compared rows
// (comparedRow) of batch b of res whose group is whole, its scores
// equal, rewarded 0, and whose logged advantages are the trainer's
// float32 residue (TieResidue); it returns rows and the number of those
// groups whose logged advantage is not 0. A group is whole when every
// member is valid and it has the batch's most common size: a group
// holding part of the trainer's (a member invalid here, cut by
// --max-rows, still being written) may have had other scores there,
// and an equal advantage of its rows be a real one. A batch without
// groups (a subset of a batch's rows) is taken as the batch of its step
// in res, of which only the groups holding a row of the subset count.
func tieResidues(res *engine.Result, b *engine.Batch, rows map[int]bool) (map[int]bool, int) {
	divisor, ok := tieResidueDivisor(res.Options)
	if !ok {
		return rows, 0
	}
	groups := b.Groups
	var inSubset []bool // b's rows, when b is a subset of its step's
	if groups == nil {
		bi, found := res.Ranking.BatchIndex(b.Step)
		if !found {
			return rows, 0
		}
		groups = res.Ranking.Batches[bi].Groups
		inSubset = make([]bool, len(res.Scores))
		for _, i := range b.Members {
			inSubset[i] = true
		}
	}
	usual := usualGroupSize(groups)
	nonZero := 0
	var logged []float64
	for _, g := range groups {
		if !wholeGroup(res.Evaluation, g, usual) {
			continue
		}
		if inSubset != nil && !slices.ContainsFunc(g.Members, func(i int) bool { return inSubset[i] }) {
			continue
		}
		n, x, tied := 0, 0.0, true
		logged = logged[:0]
		for _, i := range g.Members {
			if n == 0 {
				x = res.Scores[i]
			}
			n++
			if res.Scores[i] != x || res.Rewards[i] != 0 {
				tied = false
				break
			}
			if comparedRow(res.Evaluation, i) {
				logged = append(logged, res.Evaluation.Logged[i])
			}
		}
		if !tied || !TieResidue(logged, n, x, divisor) {
			continue
		}
		if rows == nil {
			rows = map[int]bool{}
		}
		for _, i := range g.Members {
			if comparedRow(res.Evaluation, i) {
				rows[i] = true
			}
		}
		if slices.ContainsFunc(logged, func(a float64) bool { return a != 0 }) {
			nonZero++
		}
	}
	return rows, nonZero
}

// wholeGroup reports whether group g holds the whole of the trainer's
// group: every member valid and the batch's usual group size
// (usualGroupSize). Only then do equal advantages logged for its rows
// sum to 0 in the trainer, so that a non-zero one is a float32 tie's
// residue; in part of a group they may be real.
func wholeGroup(ev *engine.Evaluation, g engine.Group, usual int) bool {
	return len(g.Members) == usual && !slices.ContainsFunc(g.Members, func(i int) bool { return !ev.Valid[i] })
}

// usualGroupSize returns the most common size of groups (the larger of
// two as common), 0 for none.
func usualGroupSize(groups []engine.Group) int {
	count := map[int]int{}
	usual := 0
	for _, g := range groups {
		n := len(g.Members)
		count[n]++
		if count[n] > count[usual] || count[n] == count[usual] && n > usual {
			usual = n
		}
	}
	return usual
}

// equalLoggedGroups marks the compared rows of res's whole groups
// (wholeGroup) of two such rows or more that all logged one value
// (within Reproduces), not 0: under grpo a whole group's advantages sum
// to 0, so only a float32 tie's residue does (TieResidue). Which scores
// tie depends on the weights being fitted: the tie and its bound are
// checked after the fit, by the comparison.
func equalLoggedGroups(res *engine.Result) map[int]bool {
	var rows map[int]bool
	var group []int
	for _, b := range res.Ranking.Batches {
		usual := usualGroupSize(b.Groups)
		for _, g := range b.Groups {
			if !wholeGroup(res.Evaluation, g, usual) {
				continue
			}
			group = group[:0]
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, i := range g.Members {
				if comparedRow(res.Evaluation, i) {
					group = append(group, i)
					lo, hi = min(lo, res.Evaluation.Logged[i]), max(hi, res.Evaluation.Logged[i])
				}
			}
			if len(group) < 2 || hi-lo > Reproduces || lo == 0 && hi == 0 {
				continue
			}
			if rows == nil {
				rows = map[int]bool{}
			}
			for _, i := range group {
				rows[i] = true
			}
		}
	}
	return rows
}

// allTieResidues is tieResidues of every batch of res.
func allTieResidues(res *engine.Result) map[int]bool {
	var rows map[int]bool
	for bi := range res.Ranking.Batches {
		rows, _ = tieResidues(res, &res.Ranking.Batches[bi], rows)
	}
	return rows
}

// comparedReward is the reward row i of res is compared with its logged
// advantage by: the logged value itself for a row of ties (tieResidues),
// its reward otherwise.
func comparedReward(res *engine.Result, ties map[int]bool, i int) float64 {
	if ties[i] {
		return res.Evaluation.Logged[i]
	}
	return res.Rewards[i]
}
