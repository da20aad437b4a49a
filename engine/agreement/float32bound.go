package agreement

import (
	"math"
	"math/bits"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
)

// GRPOFloat32 is what the float32 rounding of a trainer's grpo advantage
// (TRL's _generate_and_score_completions, scale_rewards group, batch or
// none; verl's compute_grpo_outcome_advantage, with the std or without)
// depends on in one group: the values its mean is over and those its std
// is over (the group's, or the batch's under scale batch).
type GRPOFloat32 struct {
	// N is the number of scores the mean is over (two or more), MaxAbs
	// the largest |s| among them, AbsMean the mean of their |s|.
	N       int
	MaxAbs  float64
	AbsMean float64
	// StdN is the number of scores the std is over, StdRMS the root mean
	// square of them, Correction 1 for the sample std, 0 for the
	// population std; StdN 0 when the advantage is not divided (scale
	// none, normalize off).
	StdN       int
	StdRMS     float64
	Correction int
	// Divisor is the exact std plus epsilon the advantage is divided by,
	// 1 when it is not divided.
	Divisor float64
	// InputErr bounds how far the row's own value is from its exact
	// value, InputErrMean and InputErrRMS the mean and the root mean
	// square of such bounds over the values the mean and std are over, the
	// fields above being the exact values' (all 0 for scores, whose own
	// rounding Bound counts; rloo-whitened's leave-one-out advantages and
	// gdpo's weighted sums of z-scores, the trainer's own float32
	// results, carry LeaveOneOutFloat32's and NormalizeThenSumFloat32's).
	InputErr, InputErrMean, InputErrRMS float64
}

// MeanOf sets N, MaxAbs and AbsMean from x, the scores the mean is over.
func (g *GRPOFloat32) MeanOf(x []float64) {
	g.N, g.MaxAbs, g.AbsMean = len(x), 0, 0
	for _, v := range x {
		g.MaxAbs = max(g.MaxAbs, math.Abs(v))
		g.AbsMean += math.Abs(v)
	}
	g.AbsMean /= float64(len(x))
}

// StdOf sets StdN and StdRMS from x, the scores the std is over.
func (g *GRPOFloat32) StdOf(x []float64) {
	sq := 0.0
	for _, v := range x {
		sq += v * v
	}
	g.StdN, g.StdRMS = len(x), math.Sqrt(sq/float64(len(x)))
}

// sumSteps returns the most additions on a value's path through torch's
// float32 sum of n values, n - 1 in a sum taken in a row: aten's cascade
// summation on a CPU (SumKernel.cpp's cascade_sum: runs of 16 added in a
// row, then the runs' sums the same way, at most ceil(log2 n / 4) levels
// deep: 16 ceil(log2 n / 4)), with 8 more for a GPU's reduction (a
// thread's strided run, then a tree). The worst case over every order,
// n - 1, grows with the batch: over a batch of the usual size it let a
// wrong std or epsilon pass as float32 rounding.
func sumSteps(n int) int {
	levels := (bits.Len(uint(max(n-1, 0))) + 3) / 4
	return min(max(n-1, 0), 16*levels+8)
}

// gamma32 is Higham's gamma(k) = k u / (1 - k u) of float32's unit
// roundoff u: the relative error of k float32 roundings in a row.
func gamma32(k int) float64 {
	ku := float64(k) * unitRoundoff32
	return ku / (1 - ku)
}

// Bound returns how far a trainer's float32 advantage of a row may be
// from its exact value a = (s - mean) / D (D the Divisor, mean and std of
// the same float32 scores s), the trainer's mean and std of those scores
// being computed in float32 by torch's reductions. With u = 2^-24,
// gamma(k) = k u / (1 - k u), n = N, M = MaxAbs, A = AbsMean, m = StdN,
// R = StdRMS, c = Correction, e = InputErr, e' = InputErrMean, e" =
// InputErrRMS, and d(k) = sumSteps(k), the additions on a value's path
// through torch's sum of k values:
//
// Each value the trainer sums is s within its e + u |s| (its own rounding
// to float32). The mean fl(fl(sum) / n) errs by at most gamma(d(n) + 2)
// (A + e') + e' (Higham, Accuracy and Stability, 4.2: a summation tree
// whose leaves are at most d deep errs by gamma(d) times the sum of the
// |terms|; the division), so the numerator fl(s - mean) by e_N =
// gamma(d(n) + 3) (A + e') + u (1 + u) M + (e + e') (1 + u) + u |a| D.
// The std is taken as the exact std of the values each perturbed by at
// most gamma(d(m) + 2) (|s| + its e) + its e
// (torch's, in float32 or accumulated in float64, is: a shifted mean
// changes the std only to second order); the std is 1/sqrt(m -
// c)-Lipschitz in the values' 2-norm, which those perturbations bound by
// sqrt(m) (gamma(d(m) + 2) (R + e") + e"), so it errs by e_s =
// (gamma(d(m) + 2) (R + e") + e") sqrt(m / (m - c)), and rounded, then plus epsilon
// rounded, the divisor errs by e_D = e_s
// (1 + gamma(2)) + gamma(2) D. The quotient then errs by E = (e_N + |a|
// e_D) / (D - e_D), and its own rounding adds u (|a| + E):
//
//	|A - a| <= E (1 + u) + u |a|     (scaled; e_N when not divided).
//
// It returns 0, no bound, when e_D > D / 2: the trainer's divisor is then
// not known to within half of itself, its advantage float32 noise. The
// bound grows with M / D: scores far from 0 with a small spread (a reward
// model's column near 20, std 0.01: some 1e-3) lose digits in float32;
// rewards in [0, 1] with an std near 0.3 stay some 1e-5.
func (g GRPOFloat32) Bound(a float64) float64 {
	u := unitRoundoff32
	a = math.Abs(a)
	eN := gamma32(sumSteps(g.N)+3)*(g.AbsMean+g.InputErrMean) + u*(1+u)*g.MaxAbs + (g.InputErr+g.InputErrMean)*(1+u) + u*a*g.Divisor
	if g.StdN == 0 {
		return eN
	}
	eStd := (gamma32(sumSteps(g.StdN)+2)*(g.StdRMS+g.InputErrRMS) + g.InputErrRMS) * math.Sqrt(float64(g.StdN)/float64(g.StdN-g.Correction))
	eD := eStd*(1+gamma32(2)) + gamma32(2)*g.Divisor
	if !(2*eD <= g.Divisor) {
		return 0
	}
	eQ := (eN + a*eD) / (g.Divisor - eD)
	return eQ*(1+u) + u*a
}

// MeanCoarse reports whether the trainer's float32 mean errs by more
// than maxInputErrShare of std, the spread its advantages are set
// against (the std of the group's values, of the batch's under scale
// batch): gamma(d(N) + 2) (A + e') + e' > maxInputErrShare std, as
// CoarseErrors judges rloo's and gdpo's bounds coarse. The advantages then carry float32 noise as large as what
// a slightly wrong weight changes: rows within Bound do not tell the
// weights from such wrong ones.
func (g GRPOFloat32) MeanCoarse(std float64) bool {
	meanErr := gamma32(sumSteps(g.N)+2)*(g.AbsMean+g.InputErrMean) + g.InputErrMean
	return !(meanErr <= maxInputErrShare*std)
}

// float32GRPO reports whether o's rewards are grpo's of scores summed in
// float32 (--score-precision float32, the TRL and verl layouts'), whose
// trainer's advantage carries GRPOFloat32's rounding, and the scale in
// force (engine's: none with normalize off, group for batch under scope
// batch).
func float32GRPO(o engine.Options) (engine.Scale, bool) {
	if o.Method != engine.GRPO || o.ScorePrecision != engine.ScoreFloat32 {
		return "", false
	}
	return o.MethodSettings().Scale, true
}

// float32Agreeing marks, in rows (made over b's batch's rows when it is
// not made yet), the compared rows of batch b of res whose reward is
// beyond Reproduces of the logged advantage, not marked yet, but within
// its GRPOFloat32 bound, under grpo in float32 (float32GRPO), or within
// methodFloat32Bounds' under rloo, rloo-whitened and gdpo
// (float32Method): such a row agrees, its difference the trainer's
// float32 rounding. It returns the largest bound of a row marked under
// a coarse bound (methodFloat32Bounds; 0 for none): such rows agree but
// do not tell the settings from slightly wrong ones (Diff.Float32Coarse).
// Under grpo groups of fewer than two valid members, and ties (all valid scores equal: TieResidue's), are
// left alone, and so is scale batch with sources (each normalised
// apart). A batch without groups (a subset of a batch's rows) is taken
// as the batch of its step in res.
func float32Agreeing(res *engine.Result, b *engine.Batch, rows *rowSet) (coarseBound float64) {
	scale, ok := float32GRPO(res.Options)
	if !ok && !float32Method(res.Options) || scale == engine.ScaleBatch && len(res.Evaluation.SourceNames) > 0 {
		return 0
	}
	batch := b
	if b.Groups == nil {
		bi, found := res.Ranking.BatchIndex(b.Step)
		if !found || len(b.Members) == 0 {
			return 0
		}
		batch = &res.Ranking.Batches[bi]
	}
	beyond := func(i int) bool { return beyondReproduces(res, rows, i) }
	if !slices.ContainsFunc(b.Members, beyond) {
		return 0
	}
	if !ok {
		return methodFloat32Agreeing(res, b, batch, rows, beyond)
	}
	var x []float64 // the scores of a group, or the batch
	g := GRPOFloat32{Correction: 1, Divisor: 1}
	if res.Options.Std == engine.StdPopulation {
		g.Correction = 0
	}
	eps := res.Options.EpsilonOrDefault()
	if scale == engine.ScaleBatch {
		x = gatherValid(x, res, batch.Members)
		g.StdOf(x)
		g.Divisor = res.Options.StdOf(x) + eps
	}
	for _, m := range batch.Groups {
		if !slices.ContainsFunc(m.Members, beyond) {
			continue
		}
		x = gatherValid(x, res, m.Members)
		if len(x) < 2 || !slices.ContainsFunc(x, func(s float64) bool { return s != x[0] }) {
			continue
		}
		g.MeanOf(x)
		if scale == engine.ScaleGroup {
			g.StdOf(x)
			g.Divisor = res.Options.StdOf(x) + eps
		}
		if math.IsNaN(g.Divisor) {
			continue
		}
		for _, i := range m.Members {
			if beyond(i) {
				markWithinBound(res, batch, rows, i, g.Bound(res.Rewards[i]))
			}
		}
	}
	return 0
}

// markWithinBound marks row i of batch in rows (made over batch's rows
// when it is not made yet), and reports whether it did, when row i's
// reward is within bound of its logged advantage: |reward − logged| ≤
// bound, not when either is NaN.
func markWithinBound(res *engine.Result, batch *engine.Batch, rows *rowSet, i int, bound float64) bool {
	if !(math.Abs(res.Rewards[i]-res.Evaluation.Logged[i]) <= bound) {
		return false
	}
	if rows.marked == nil {
		rows.cover(slices.Min(batch.Members), slices.Max(batch.Members))
	}
	rows.mark(i)
	return true
}

// beyondReproduces reports whether row i of res is compared
// (comparedRow), not marked in rows, and its reward is beyond Reproduces
// of the logged advantage: a row within it keeps its difference,
// float32Agreeing marking only those the bound decides.
func beyondReproduces(res *engine.Result, rows *rowSet, i int) bool {
	if !comparedRow(res.Evaluation, i) || rows.has(i) {
		return false
	}
	return BeyondReproduces(res.Rewards[i], res.Evaluation.Logged[i])
}

// BeyondReproduces reports whether reward is beyond Reproduces of the
// logged advantage, relative to it beyond 1 (Diff.MaxScaledDiff).
func BeyondReproduces(reward, logged float64) bool {
	return math.Abs(reward-logged) > Reproduces*max(1, math.Abs(logged))
}

// gatherValid returns the scores of res's valid rows among members, in
// buf.
func gatherValid(buf []float64, res *engine.Result, members []int) []float64 {
	buf = buf[:0]
	for _, i := range members {
		if res.Evaluation.Valid[i] {
			buf = append(buf, res.Scores[i])
		}
	}
	return buf
}

// maxAbs returns the largest |v| of x, 0 for none.
func maxAbs(x []float64) float64 {
	top := 0.0
	for _, v := range x {
		top = max(top, math.Abs(v))
	}
	return top
}

// markCoarse marks row i, marked, as within a coarse float32 bound.
func (s *rowSet) markCoarse(i int) {
	if j := i - s.first; j >= 0 && j < len(s.marked) {
		if s.coarse == nil {
			s.coarse = make([]bool, len(s.marked))
		}
		s.coarse[j] = true
	}
}

// isCoarse reports whether s marks row i within a coarse float32 bound.
func (s *rowSet) isCoarse(i int) bool {
	j := i - s.first
	return j >= 0 && j < len(s.coarse) && s.coarse[j]
}

// mark marks row i, when s covers it.
func (s *rowSet) mark(i int) {
	if j := i - s.first; j >= 0 && j < len(s.marked) {
		s.marked[j] = true
	}
}
