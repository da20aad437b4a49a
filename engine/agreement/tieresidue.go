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

// TieGroup is a group of a trainer's as it is held here, for the rules
// of a float32 tie's residue (Residue, LoggedOneValue), which the
// engine's comparison and the layouts' readings of a log share.
type TieGroup struct {
	// Size is the number of the group's rows held, Usual the most common
	// size of its batch's groups (UsualGroupSize).
	Size, Usual int
	// Scores are the scores of the rows the trainer averaged over, as it
	// summed them (float32), NaN for a row it scored that is not scored
	// here (invalid); a row neither scored (TRL's unscorable) is not
	// among them.
	Scores []float64
	// Logged are the advantages logged for the rows compared.
	Logged []float64
}

// Whole reports whether g holds the whole of the trainer's group: of the
// usual size, every row scored here. Only then do the advantages the
// trainer gave its rows sum to 0, so that one value logged for all,
// not 0, is a float32 tie's residue; part of a group (a member invalid
// here, cut by --max-rows or by TRL's deque, still being written) may
// have had other scores there and logged a real advantage.
func (g TieGroup) Whole() bool {
	return g.Size == g.Usual && !slices.ContainsFunc(g.Scores, math.IsNaN)
}

// Residue reports whether g's logged advantages are the float32 residue
// of a tie: g whole, its two or more scores equal to x, and Logged
// TieResidue(Logged, len(Scores), x, divisor).
func (g TieGroup) Residue(divisor float64) bool {
	if !g.Whole() || len(g.Scores) < 2 {
		return false
	}
	x := g.Scores[0]
	if slices.ContainsFunc(g.Scores, func(s float64) bool { return s != x }) {
		return false
	}
	return TieResidue(g.Logged, len(g.Scores), x, divisor)
}

// LoggedOneValue reports whether g is whole and its two or more logged
// advantages are one value (within Reproduces), not 0: under grpo only a
// float32 tie's residue is. A fit of the weights leaves such a group
// out: which scores tie depends on the weights fitted, so the tie and
// its bound (Residue) are checked after the fit.
func (g TieGroup) LoggedOneValue() bool {
	if !g.Whole() || len(g.Logged) < 2 {
		return false
	}
	lo, hi := slices.Min(g.Logged), slices.Max(g.Logged)
	return hi-lo <= Reproduces && (lo != 0 || hi != 0)
}

// UsualGroupSize returns the most common of the sizes of n groups, size(j)
// that of the j-th (the larger of two as common), 0 for none.
func UsualGroupSize(n int, size func(j int) int) int {
	count := map[int]int{}
	usual := 0
	for j := range n {
		k := size(j)
		count[k]++
		if count[k] > count[usual] || count[k] == count[usual] && k > usual {
			usual = k
		}
	}
	return usual
}

// usualGroupSize is UsualGroupSize of groups.
func usualGroupSize(groups []engine.Group) int {
	return UsualGroupSize(len(groups), func(j int) int { return len(groups[j].Members) })
}

// tieGroup fills g with group m of res, its batch's groups of size
// usual: the scores of its members, NaN for an invalid one but one the
// trainer left out too (unscorable), and the logged advantages of its
// compared rows (comparedRow). g's slices are reused.
func tieGroup(g *TieGroup, res *engine.Result, m engine.Group, usual int) {
	g.Size, g.Usual = len(m.Members), usual
	g.Scores, g.Logged = g.Scores[:0], g.Logged[:0]
	for _, i := range m.Members {
		x := res.Scores[i]
		if !res.Evaluation.Valid[i] {
			if unscorable(res.Evaluation, i) {
				continue
			}
			x = math.NaN()
		}
		g.Scores = append(g.Scores, x)
		if comparedRow(res.Evaluation, i) {
			g.Logged = append(g.Logged, res.Evaluation.Logged[i])
		}
	}
}

// unscorable reports whether row i of ev has every objective absent
// under nansum (Evaluation.Absent): TRL's row for which every reward
// function returned None, which its GRPOTrainer leaves out of the
// group's nanmean and nanstd (unscorable_mask), its advantage 0, so that
// the group's others are the whole group to it.
func unscorable(ev *engine.Evaluation, i int) bool {
	if ev.Absent == nil {
		return false
	}
	return !slices.Contains(ev.Absent[i*ev.M:(i+1)*ev.M], false)
}

// rowSet marks rows of a result: marked[i - first] for row i; coarse
// those of them marked within a coarse float32 bound (methodFloat32Agreeing),
// nil for none.
type rowSet struct {
	first          int
	marked, coarse []bool
}

// has reports whether s marks row i.
func (s *rowSet) has(i int) bool {
	j := i - s.first
	return j >= 0 && j < len(s.marked) && s.marked[j]
}

// cover makes s able to mark the rows first to last, unless it is
// already made: its callers make it over a batch's rows or all of them.
func (s *rowSet) cover(first, last int) {
	if s.marked != nil {
		return
	}
	s.first, s.marked = first, make([]bool, last-first+1)
}

// coverGroups covers the rows of groups (cover), n the result's rows,
// unless s is made.
func (s *rowSet) coverGroups(n int, groups []engine.Group) {
	if s.marked != nil {
		return
	}
	first, last := n, -1
	for _, m := range groups {
		first, last = min(first, slices.Min(m.Members)), max(last, slices.Max(m.Members))
	}
	s.cover(first, last)
}

// tieResidues marks, in rows (made over the rows of b's groups when it
// is not made yet; else it must cover them), the compared rows (comparedRow) of batch b of res whose
// group is a tie rewarded 0 whose logged advantages are the trainer's
// float32 residue (TieGroup.Residue: the group whole); it returns the
// number of those groups whose logged advantage is not 0. A batch
// without groups (a subset of a batch's rows) is taken as the batch of
// its step in res, of which only the groups holding a row of the subset
// count.
func tieResidues(res *engine.Result, b *engine.Batch, rows *rowSet) int {
	if OverBatch(res.Options) {
		return batchTieResidues(res, b, rows)
	}
	divisor, ok := tieResidueDivisor(res.Options)
	if !ok {
		return 0
	}
	groups := b.Groups
	var inSubset rowSet // b's rows, when b is a subset of its step's
	if groups == nil {
		bi, found := res.Ranking.BatchIndex(b.Step)
		if !found || len(b.Members) == 0 {
			return 0
		}
		groups = res.Ranking.Batches[bi].Groups
		inSubset.cover(slices.Min(b.Members), slices.Max(b.Members))
		for _, i := range b.Members {
			inSubset.marked[i-inSubset.first] = true
		}
	}
	usual := usualGroupSize(groups)
	nonZero := 0
	var g TieGroup
	for _, m := range groups {
		if inSubset.marked != nil && !slices.ContainsFunc(m.Members, inSubset.has) {
			continue
		}
		tieGroup(&g, res, m, usual)
		if !g.Residue(divisor) || slices.ContainsFunc(m.Members, func(i int) bool { return res.Rewards[i] != 0 }) {
			continue
		}
		rows.coverGroups(len(res.Scores), groups)
		for _, i := range m.Members {
			if comparedRow(res.Evaluation, i) {
				rows.marked[i-rows.first] = true
			}
		}
		if slices.ContainsFunc(g.Logged, func(a float64) bool { return a != 0 }) {
			nonZero++
		}
	}
	return nonZero
}

// equalLoggedGroups marks the compared rows of res's groups whose logged
// advantages are one value, not 0 (TieGroup.LoggedOneValue: the group
// whole), which a fit of grpo's weights leaves out.
func equalLoggedGroups(res *engine.Result) []bool {
	var rows []bool
	var g TieGroup
	for _, b := range res.Ranking.Batches {
		usual := usualGroupSize(b.Groups)
		for _, m := range b.Groups {
			tieGroup(&g, res, m, usual)
			if !g.LoggedOneValue() {
				continue
			}
			if rows == nil {
				rows = make([]bool, len(res.Scores))
			}
			for _, i := range m.Members {
				rows[i] = comparedRow(res.Evaluation, i)
			}
		}
	}
	return rows
}

// tieRows returns the rowSet tieResidues marks any batch of res in: over
// every row when res's options have a residue (tieResidueDivisor), else
// not made.
func tieRows(res *engine.Result) *rowSet {
	rows := &rowSet{}
	if _, ok := tieResidueDivisor(res.Options); ok || OverBatch(res.Options) {
		rows.cover(0, len(res.Scores)-1)
	}
	return rows
}

// allTieResidues is tieResidues of every batch of res.
func allTieResidues(res *engine.Result) *rowSet {
	rows := tieRows(res)
	for bi := range res.Ranking.Batches {
		tieResidues(res, &res.Ranking.Batches[bi], rows)
		float32Agreeing(res, &res.Ranking.Batches[bi], rows)
	}
	return rows
}

// comparedReward is the reward row i of res is counted as agreeing or
// differing by: the logged value itself for a row of ties (tieResidues)
// or within a float32 bound (float32Agreeing), its reward otherwise.
func comparedReward(res *engine.Result, ties *rowSet, i int) float64 {
	if ties.has(i) {
		return res.Evaluation.Logged[i]
	}
	return res.Rewards[i]
}
