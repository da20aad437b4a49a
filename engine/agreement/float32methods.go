package agreement

import (
	"math"
	"math/bits"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/stats"
)

// RLOOFloat32Bound returns how far a trainer's float32 rloo advantage of
// a row may be from its exact value a = s - (S - s) / (n - 1), S the sum
// of the group's n >= 2 float32 scores, M the largest |s| among them,
// the sums in any order. With u = 2^-24 and gamma(k) = k u / (1 - k u):
//
// TRL's RLOOTrainer computes fl(s - fl(fl(fl(S) - s) / (n - 1))): fl(S)
// errs by gamma(n - 1) n M (Higham, Accuracy and Stability, 4.2), the
// difference and the division add gamma(2) of (n - 1) M, so the baseline
// errs by n / (n - 1) gamma(n + 1) M. verl's compute_rloo_outcome_advantage
// computes fl(fl(fl(s n) / (n - 1)) - fl(fl(mean n) / (n - 1))), the mean
// fl(fl(S) / n) within gamma(n) M: each product errs by n / (n - 1)
// gamma(n + 3) M at most. With the score's own rounding and the final
// subtraction's u |a|:
//
//	|A - a| <= (1 + u) n / (n - 1) gamma(n + 6) M + u |a|.
//
// It does not depend on the spread: scores far from 0 (a reward model's
// column near 2000: some 3e-4) lose digits whatever their spread; rewards
// in [0, 1] stay below 1e-6.
func RLOOFloat32Bound(n int, maxAbs, a float64) float64 {
	u := unitRoundoff32
	return (1+u)*float64(n)/float64(n-1)*gamma32(n+6)*maxAbs + u*math.Abs(a)
}

// float32Method reports whether o's rewards are those of rloo,
// rloo-whitened or gdpo of scores in float32 (--score-precision float32,
// the TRL and verl layouts'), whose trainer's advantage carries
// LeaveOneOutFloat32's or NormalizeThenSumFloat32's rounding.
func float32Method(o engine.Options) bool {
	if o.ScorePrecision != engine.ScoreFloat32 {
		return false
	}
	return o.Method == engine.RLOO || o.Method == engine.RLOOWhitened || o.Method == engine.GDPO
}

// A Float32Bound returns how far a trainer's float32 advantage of row j
// of group g of a batch may be from its exact value a; 0 for a row whose
// advantage is exact (one the trainer leaves out, or gives 0).
type Float32Bound func(g, j int, a float64) float64

// LeaveOneOutFloat32 returns the bound of a trainer's float32 rloo
// advantage, whitened (rloo-whitened: RLOOTrainer's
// normalize_advantages) or not, of a batch whose groups[g][j] is the
// score of row j of group g (NaN for a row the trainer leaves out):
//
//   - rloo: RLOOFloat32Bound of the row's group (n its scores, two or
//     more; a group of one is exact);
//   - rloo-whitened: the leave-one-out advantages c (a group of one left
//     out, as RLOOTrainer's NaN) each within RLOOFloat32Bound, e_c, then
//     whitened over the batch, the sample std plus 1e-4: GRPOFloat32 of
//     the c, each within its e_c.
//
// A group tied in float32 has its leave-one-out advantages' residue
// within RLOOFloat32Bound too, and the batch's std, not the group's,
// divides them. ok is false, no bound, when the batch's divisor is not
// known to within half of itself (GRPOFloat32.Bound 0); coarse says the
// bound is coarse (whitened32): rows within it do not tell the weights
// or the method from slightly wrong ones.
func LeaveOneOutFloat32(groups [][]float64, whitened bool) (bound Float32Bound, coarse, ok bool) {
	n, top := make([]int, len(groups)), make([]float64, len(groups))
	var x []float64
	for g, scores := range groups {
		x = slices.DeleteFunc(append(x[:0], scores...), math.IsNaN)
		n[g], top[g] = len(x), maxAbs(x)
	}
	rloo := func(g, _ int, a float64) float64 {
		if n[g] < 2 {
			return 0
		}
		return RLOOFloat32Bound(n[g], top[g], a)
	}
	if !whitened {
		return rloo, false, true
	}
	var c, errs []float64
	own := make([][]float64, len(groups)) // each c's error, by row
	for g, scores := range groups {
		if n[g] < 2 {
			continue
		}
		sum := 0.0
		for _, s := range scores {
			if !math.IsNaN(s) {
				sum += s
			}
		}
		own[g] = make([]float64, len(scores))
		for j, s := range scores {
			if !math.IsNaN(s) {
				c = append(c, s-(sum-s)/float64(n[g]-1))
				own[g][j] = rloo(g, j, c[len(c)-1])
				errs = append(errs, own[g][j])
			}
		}
	}
	f, coarse, ok := whitened32(c, errs, 1e-4, 1, true)
	if !ok {
		return nil, false, false
	}
	return func(g, j int, a float64) float64 {
		if n[g] < 2 || math.IsNaN(groups[g][j]) {
			return 0
		}
		f.InputErr = own[g][j]
		return f.Bound(a)
	}, coarse, true
}

// NormalizeThenSumFloat32 returns the bound of a trainer's float32
// normalize_then_sum advantage (gdpo) of a batch whose terms[g][k][j] is
// objective k's value of row j of group g (NaN for none), weighted by
// weights, each objective z-scored in its group by its std (Bessel's
// correction, 1 or 0) plus eps, the weighted sum R then centred over the
// batch and, normalized, divided by its std plus eps; a row with no value
// is left out, an objective with fewer than two values in a group adds
// nothing (TRL's nanstd NaN, then nansum):
//
// each z_k within e_k, GRPOFloat32's bound of the group, R = sum_k w_k z_k
// within e = (1 + gamma(K)) sum_k |w_k| e_k + gamma(K + 1) sum_k |w_k z_k|
// (the K products, their float32 sum, the weights' rounding), and the
// advantage within GRPOFloat32's bound of the R, each within its e.
//
// An objective tied in a group whose float32 sum is exact (exactSum32:
// a binary reward's 0s or 1s) has z exactly 0 there, the trainer's too.
// ok is false, no bound, when an objective ties in float32 in a group
// otherwise (its residue is BatchResidue's), or a divisor is not known to
// within half of itself (GRPOFloat32.Bound 0); coarse says the bound is
// coarse (whitened32), as LeaveOneOutFloat32's.
func NormalizeThenSumFloat32(terms [][][]float64, weights []float64, eps float64, correction int, normalized bool) (bound Float32Bound, coarse, ok bool) {
	in := make([][]bool, len(terms))     // whether row j of group g has a value
	own := make([][]float64, len(terms)) // each R's error, by row
	var sums, errs, x []float64
	for g, objectives := range terms {
		if len(objectives) == 0 {
			continue
		}
		rows := len(objectives[0])
		in[g] = make([]bool, rows)
		sumErr := make([]float64, rows) // sum_k |w_k| e_k of each row
		sumAbs := make([]float64, rows) // sum_k |w_k z_k| of each row
		r := make([]float64, rows)
		for k, values := range objectives {
			x = slices.DeleteFunc(append(x[:0], values...), math.IsNaN)
			for j, v := range values {
				in[g][j] = in[g][j] || !math.IsNaN(v)
			}
			if len(x) < 2 {
				continue
			}
			if tied32(x) {
				if exactSum32(x[0], len(x)) {
					continue // z exactly 0, the trainer's too: no error
				}
				return nil, false, false
			}
			f := GRPOFloat32{Correction: correction}
			f.MeanOf(x)
			f.StdOf(x)
			mean := stats.Mean(x)
			f.Divisor = stdWith(x, correction) + eps
			w := weights[k]
			for j, v := range values {
				if math.IsNaN(v) {
					continue
				}
				z := (v - mean) / f.Divisor
				e := f.Bound(z)
				if e == 0 {
					return nil, false, false
				}
				r[j] += w * z
				sumErr[j] += math.Abs(w) * e
				sumAbs[j] += math.Abs(w * z)
			}
		}
		own[g] = make([]float64, rows)
		for j := range rows {
			if in[g][j] {
				own[g][j] = (1+gamma32(len(objectives)))*sumErr[j] + gamma32(len(objectives)+1)*sumAbs[j]
				errs = append(errs, own[g][j])
				sums = append(sums, r[j])
			}
		}
	}
	f, coarse, ok := whitened32(sums, errs, eps, correction, normalized)
	if !ok {
		return nil, false, false
	}
	return func(g, j int, a float64) float64 {
		if !in[g][j] {
			return 0
		}
		f.InputErr = own[g][j]
		return f.Bound(a)
	}, coarse, true
}

// whitened32 returns the GRPOFloat32 of centring v, two or more values
// the trainer computed each within errs (InputErrMean and InputErrRMS
// theirs; the caller sets InputErr, a row's own, before Bound), and,
// when divided, dividing by divisor (their std plus epsilon, Bessel's
// correction c); ok false when the bound is not known (GRPOFloat32.Bound
// 0). coarse says the errors' root mean square is beyond
// maxInputErrShare of v's std: the trainer's advantages then carry
// float32 noise as large as what a slightly wrong method or weight
// changes, so rows within the bound agree with the settings but do not
// tell them from such a wrong one (Diff.Float32Coarse).
func whitened32(v, errs []float64, eps float64, correction int, divided bool) (f GRPOFloat32, coarse, ok bool) {
	f = GRPOFloat32{Correction: correction, Divisor: 1}
	if len(v) < 2 {
		return f, false, false
	}
	sq := 0.0
	for _, e := range errs {
		f.InputErrMean += e
		sq += e * e
	}
	f.InputErrMean /= float64(len(errs))
	f.InputErrRMS = math.Sqrt(sq / float64(len(errs)))
	f.MeanOf(v)
	std := stdWith(v, correction)
	if divided {
		f.StdOf(v)
		f.Divisor = std + eps
	}
	return f, CoarseErrors(v, errs, correction), f.Bound(0) > 0
}

// CoarseErrors reports whether values v, each computed by a trainer in
// float32 within its errs, carry float32 noise as large as what a
// slightly wrong method or weight changes: the errors' root mean square
// beyond maxInputErrShare of v's std (Bessel's correction c).
func CoarseErrors(v, errs []float64, correction int) bool {
	sq := 0.0
	for _, e := range errs {
		sq += e * e
	}
	rms := math.Sqrt(sq / float64(max(len(errs), 1)))
	return !(rms <= maxInputErrShare*stdWith(v, correction))
}

// maxInputErrShare is the largest share of their std that the errors'
// root mean square of values whitened over a batch may reach for
// whitened32's bound to tell a setting from a slightly wrong one: past
// it a rloo or gdpo advantage carries float32 noise as large as what a
// wrong method or weight changes.
const maxInputErrShare = 0.01

// stdWith returns the std of x about mean, Bessel's correction c: the
// sample std for 1, the population std for 0.
func stdWith(x []float64, correction int) float64 {
	if correction == 0 {
		_, std := stats.PopMeanStd(x)
		return std
	}
	return stats.SampleStd(x)
}

// methodFloat32Bounds returns, for each valid row of batch (a batch of
// res, with its groups) under rloo, rloo-whitened or gdpo
// (float32Method), how far the trainer's float32 advantage may be from
// its reward: LeaveOneOutFloat32's or NormalizeThenSumFloat32's bound of
// the groups' valid rows, bounds[i - first] of row i (0 for none), first
// the batch's first row; coarse when that bound is (whitened32). ok is
// false, no bound, for a batch with sources or a penalty (each normalised
// apart, or a term no trainer computes), or where those give none.
func methodFloat32Bounds(res *engine.Result, batch *engine.Batch) (bounds []float64, first int, coarse, ok bool) {
	o := res.Options
	if res.Evaluation.HasSources() || res.Evaluation.Violation != nil && o.Method == engine.GDPO {
		return nil, 0, false, false
	}
	members := make([][]int, len(batch.Groups)) // each group's valid members
	for g, m := range batch.Groups {
		members[g] = engine.ValidMembers(nil, m.Members, res.Evaluation.Valid)
	}
	var bound Float32Bound
	if o.Method == engine.GDPO {
		terms := make([][][]float64, len(members))
		weights := make([]float64, len(res.Objectives))
		for k := range res.Objectives {
			weights[k] = res.Objectives[k].Weight
		}
		for g, m := range members {
			terms[g] = make([][]float64, len(res.Objectives))
			for k := range res.Objectives {
				for _, i := range m {
					v := math.NaN()
					if !res.Evaluation.Missing(i, k) {
						v = res.Term(i, k)
					}
					terms[g][k] = append(terms[g][k], v)
				}
			}
		}
		correction := 1
		if o.Std == engine.StdPopulation {
			correction = 0
		}
		bound, coarse, ok = NormalizeThenSumFloat32(terms, weights, o.EpsilonOrDefault(), correction, o.Normalize)
	} else {
		groups := make([][]float64, len(members))
		for g, m := range members {
			for _, i := range m {
				groups[g] = append(groups[g], res.Scores[i])
			}
		}
		bound, coarse, ok = LeaveOneOutFloat32(groups, o.Method == engine.RLOOWhitened)
	}
	if !ok {
		return nil, 0, false, false
	}
	first = slices.Min(batch.Members)
	bounds = make([]float64, slices.Max(batch.Members)-first+1)
	for g, m := range members {
		for j, i := range m {
			bounds[i-first] = bound(g, j, res.Rewards[i])
		}
	}
	return bounds, first, coarse, true
}

// exactSum32 reports whether a float32 sum of n values v, in any order,
// is exact: v's significant bits and those n adds fit float32's 24, so
// the trainer's mean of a group tied at v is v itself.
func exactSum32(v float64, n int) bool {
	f := float32(v)
	if f == 0 {
		return true
	}
	mant := uint32(math.Float32bits(f)&(1<<23-1) | 1<<23)
	if math.Float32bits(f)>>23&0xff == 0 { // subnormal: no implicit bit
		return false
	}
	significant := 24 - bits.TrailingZeros32(mant)
	return significant+bits.Len(uint(n)) <= 24
}

// tied32 reports whether x holds two or more values, all equal in
// float32.
func tied32(x []float64) bool {
	return len(x) >= 2 && !slices.ContainsFunc(x, func(s float64) bool { return float32(s) != float32(x[0]) })
}

// methodFloat32Agreeing is float32Agreeing under rloo, rloo-whitened and
// gdpo (float32Method): it marks the rows of b, of batch, beyond
// Reproduces of the logged advantage but within methodFloat32Bounds'
// (those within a coarse one marked coarse too: rowSet.isCoarse), and returns the largest bound of a row marked under a coarse one (0
// for none).
func methodFloat32Agreeing(res *engine.Result, b, batch *engine.Batch, rows *rowSet, beyond func(i int) bool) (coarseBound float64) {
	bounds, first, coarse, ok := methodFloat32Bounds(res, batch)
	if !ok {
		return 0
	}
	for _, i := range b.Members {
		if e := bounds[i-first]; e > 0 && beyond(i) && markWithinBound(res, batch, rows, i, e) && coarse {
			coarseBound = max(coarseBound, e)
			rows.markCoarse(i)
		}
	}
	return coarseBound
}
