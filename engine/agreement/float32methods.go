package agreement

import (
	"math"
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
// RLOOFloat32Bound's or GRPOFloat32's rounding (methodFloat32Bounds).
func float32Method(o engine.Options) bool {
	if o.ScorePrecision != engine.ScoreFloat32 {
		return false
	}
	return o.Method == engine.RLOO || o.Method == engine.RLOOWhitened || o.Method == engine.GDPO
}

// methodFloat32Bounds returns, for each valid row of batch (a batch of
// res, with its groups) under rloo, rloo-whitened or gdpo
// (float32Method), how far the trainer's float32 advantage may be from
// its reward:
//
//   - rloo: RLOOFloat32Bound of the row's group (n its valid members, two
//     or more; a group of one is exact);
//   - rloo-whitened: the leave-one-out advantages c (RLOOTrainer's, a
//     group of one left out) each within e = RLOOFloat32Bound, then
//     whitened over the batch: GRPOFloat32 of the c, the sample std plus
//     1e-4, InputErr the largest e;
//   - gdpo: each objective's z-score in each group within GRPOFloat32's
//     bound (e_k), their weighted sum R = sum_k w_k z_k within e = (1 +
//     gamma(K)) sum_k |w_k| e_k + gamma(K + 1) sum_k |w_k z_k| (the K
//     products, their float32 sum, the weights' rounding), then centred
//     over the batch and, normalised, divided by its std plus epsilon:
//     GRPOFloat32 of the R, InputErr the largest e.
//
// ok is false, no bound, for a batch with sources or a penalty (each
// normalised apart, or a term no trainer computes), a group that ties in
// float32 (its residue is TieResidue's or BatchResidue's), an objective
// of gdpo present in fewer than two of a group's rows, or a divisor not
// known to within half of itself (GRPOFloat32.Bound 0).
func methodFloat32Bounds(res *engine.Result, batch *engine.Batch) (bounds map[int]float64, ok bool) {
	o := res.Options
	if res.Evaluation.HasSources() || res.Evaluation.Violation != nil && o.Method == engine.GDPO {
		return nil, false
	}
	bounds = make(map[int]float64, len(batch.Members))
	var x []float64
	var members [][]int // each group's valid members
	for _, g := range batch.Groups {
		m := slices.DeleteFunc(slices.Clone(g.Members), func(i int) bool { return !res.Evaluation.Valid[i] })
		if x = gatherValid(x, res, m); o.Method == engine.RLOOWhitened && tied32(x) {
			return nil, false
		}
		members = append(members, m)
	}
	switch o.Method {
	case engine.RLOO:
		for _, m := range members {
			x = gatherValid(x, res, m)
			if len(x) < 2 {
				continue
			}
			top := maxAbs(x)
			for _, i := range m {
				bounds[i] = RLOOFloat32Bound(len(x), top, res.Rewards[i])
			}
		}
		return bounds, true
	case engine.RLOOWhitened:
		var c []float64
		var rows []int
		inputErr := 0.0
		for _, m := range members {
			x = gatherValid(x, res, m)
			if len(x) < 2 {
				continue // RLOOTrainer's NaN, left out of the whitening
			}
			sum, top := 0.0, maxAbs(x)
			for _, s := range x {
				sum += s
			}
			for j, i := range m {
				cj := x[j] - (sum-x[j])/float64(len(x)-1)
				c = append(c, cj)
				rows = append(rows, i)
				inputErr = max(inputErr, RLOOFloat32Bound(len(x), top, cj))
			}
		}
		return whitenedBounds(res, bounds, rows, c, inputErr, stats.SampleStd(c)+1e-4, true)
	}
	return gdpoBounds(res, bounds, members)
}

// gdpoBounds is methodFloat32Bounds under gdpo, of the groups' valid
// members.
func gdpoBounds(res *engine.Result, bounds map[int]float64, members [][]int) (map[int]float64, bool) {
	o := res.Options
	eps := o.EpsilonOrDefault()
	correction := 1
	if o.Std == engine.StdPopulation {
		correction = 0
	}
	objectives := len(res.Objectives)
	var rows []int
	var sums, x []float64
	inputErr := 0.0
	for _, m := range members {
		if len(m) < 2 {
			continue // its rows' rewards are 0, gdpo's group of one
		}
		sumErr := make([]float64, len(m)) // sum_k |w_k| e_k of each row
		sumAbs := make([]float64, len(m)) // sum_k |w_k z_k| of each row
		r := make([]float64, len(m))
		for k := range objectives {
			x = x[:0]
			var present []int
			for j, i := range m {
				if res.Evaluation.Absent != nil && res.Evaluation.Absent[i*res.Evaluation.M+k] {
					continue
				}
				x = append(x, res.Term(i, k))
				present = append(present, j)
			}
			if len(x) < 2 || tied32(x) {
				return nil, false
			}
			f := GRPOFloat32{Correction: correction}
			f.MeanOf(x)
			f.StdOf(x)
			mean := stats.Mean(x)
			f.Divisor = o.StdOf(x) + eps
			for jx, j := range present {
				w := res.Objectives[k].Weight
				z := (x[jx] - mean) / f.Divisor
				e := f.Bound(z)
				if e == 0 {
					return nil, false
				}
				r[j] += w * z
				sumErr[j] += math.Abs(w) * e
				sumAbs[j] += math.Abs(w * z)
			}
		}
		for j, i := range m {
			inputErr = max(inputErr, (1+gamma32(objectives))*sumErr[j]+gamma32(objectives+1)*sumAbs[j])
			rows = append(rows, i)
			sums = append(sums, r[j])
		}
	}
	divisor := 1.0
	if o.Normalize {
		divisor = o.StdOf(sums) + eps
	}
	return whitenedBounds(res, bounds, rows, sums, inputErr, divisor, o.Normalize)
}

// whitenedBounds sets in bounds, for rows, each with its value v (two or
// more; v computed by the trainer within inputErr), the GRPOFloat32 bound
// of centring v over them and, when divided, dividing by divisor (the
// std of v plus epsilon) of the row's reward; false when the bound is not
// known (GRPOFloat32.Bound 0).
func whitenedBounds(res *engine.Result, bounds map[int]float64, rows []int, v []float64, inputErr, divisor float64, divided bool) (map[int]float64, bool) {
	if len(v) < 2 || math.IsNaN(divisor) {
		return nil, false
	}
	f := GRPOFloat32{Correction: 1, Divisor: divisor, InputErr: inputErr}
	if res.Options.Method == engine.GDPO && res.Options.Std == engine.StdPopulation {
		f.Correction = 0
	}
	f.MeanOf(v)
	if divided {
		f.StdOf(v)
	}
	for _, i := range rows {
		e := f.Bound(res.Rewards[i])
		if e == 0 {
			return nil, false
		}
		bounds[i] = e
	}
	return bounds, true
}

// tied32 reports whether x holds two or more values, all equal in
// float32.
func tied32(x []float64) bool {
	return len(x) >= 2 && !slices.ContainsFunc(x, func(s float64) bool { return float32(s) != float32(x[0]) })
}

// methodFloat32Agreeing is float32Agreeing under rloo, rloo-whitened and
// gdpo (float32Method): it marks the rows of b, of batch, beyond
// Reproduces of the logged advantage but within methodFloat32Bounds'.
func methodFloat32Agreeing(res *engine.Result, b, batch *engine.Batch, rows *rowSet, beyond func(i int) bool) (marked bool) {
	bounds, ok := methodFloat32Bounds(res, batch)
	if !ok {
		return false
	}
	for _, i := range b.Members {
		if e, has := bounds[i]; has && beyond(i) && math.Abs(res.Rewards[i]-res.Evaluation.Logged[i]) <= e {
			if rows.marked == nil {
				rows.cover(slices.Min(batch.Members), slices.Max(batch.Members))
			}
			rows.mark(i)
			marked = true
		}
	}
	return marked
}
