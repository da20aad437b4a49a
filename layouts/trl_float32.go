package layouts

import (
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/engine/agreement"
)

// grpoFloat32 returns what the float32 rounding of TRL's
// sum_then_normalize advantage of group g's rows depends on
// (agreement.GRPOFloat32), r the rows' weighted sums (NaN for a row of no
// reward, out of TRL's nanmean and nanstd) and divisor what v divides
// them by (the std plus 1e-4; ignored unscaled); coarse when its mean's
// error passes a share of the sums' std (agreement.GRPOFloat32.MeanCoarse,
// the table's under scale batch); ok is false for fewer than two sums or
// sums tied in float32 (tieResidue's).
func (t *trlTable) grpoFloat32(g []int, r []float64, v trlVariant, divisor float64) (f agreement.GRPOFloat32, coarse, ok bool) {
	var sums []float64
	for _, i := range g {
		if !math.IsNaN(r[i]) {
			sums = append(sums, float64(float32(r[i])))
		}
	}
	if len(sums) < 2 || !slices.ContainsFunc(sums, func(s float64) bool { return s != sums[0] }) {
		return agreement.GRPOFloat32{}, false, false
	}
	f = agreement.GRPOFloat32{Correction: 1, Divisor: 1}
	f.MeanOf(sums)
	centred := sums // the values whose std the mean's error is set against
	switch v.scale {
	case "none":
	case "batch":
		centred = nil
		for _, x := range r {
			if !math.IsNaN(x) {
				centred = append(centred, x)
			}
		}
		f.StdOf(centred)
		f.Divisor = divisor
	default:
		f.StdOf(sums)
		f.Divisor = divisor
	}
	_, std := nanMeanStd(centred, nil)
	return f, f.MeanCoarse(std), !math.IsNaN(f.Divisor)
}

// methodFloat32 returns the bound of TRL's float32 rounding of the
// advantage a of row i under v, rloo (RLOOTrainer's, whitened under
// normalize_advantages) or normalize_then_sum, with weights w of the
// first k columns (1 each when nil): agreement.LeaveOneOutFloat32 of the
// rows' weighted sums, or agreement.NormalizeThenSumFloat32 of the
// columns, each group's rows in t.groups' order, the table the batch;
// 0 where there is none, and whether it is coarse. It is worked out when
// first asked: the searches for weights ask for few.
func (t *trlTable) methodFloat32(k int, v trlVariant, w []float64) func(i int, a float64) (bound float64, coarse bool) {
	var bound agreement.Float32Bound
	var pos []int // each row's place in its group
	asked, coarse, ok := false, false, false
	return func(i int, a float64) (float64, bool) {
		if !asked {
			asked = true
			bound, coarse, ok = t.methodFloat32Of(k, v, w)
			pos = make([]int, len(t.advantage))
			for _, g := range t.groups {
				for j, r := range g {
					pos[r] = j
				}
			}
		}
		if !ok {
			return 0, false
		}
		return bound(t.groupOf[i], pos[i], a), coarse
	}
}

// methodFloat32Of is methodFloat32's bound, of weights w (1 each when
// nil).
func (t *trlTable) methodFloat32Of(k int, v trlVariant, w []float64) (bound agreement.Float32Bound, coarse, ok bool) {
	weight := weightOr1(w)
	if v.rloo {
		r := t.weightedSums(k, weight)
		groups := make([][]float64, len(t.groups))
		for g, rows := range t.groups {
			for _, i := range rows {
				groups[g] = append(groups[g], float64(float32(r[i])))
			}
		}
		bound, coarse, ok = agreement.LeaveOneOutFloat32(groups, v.normalizeRLOO)
		if ok && !v.normalizeRLOO {
			coarse = t.rlooCoarse(groups, bound)
		}
		return bound, coarse, ok
	}
	terms := make([][][]float64, len(t.groups))
	weights := make([]float64, k)
	for j := range weights {
		weights[j] = weight(j)
	}
	for g, rows := range t.groups {
		terms[g] = make([][]float64, k)
		for j, col := range t.columns[:k] {
			for _, i := range rows {
				terms[g][j] = append(terms[g][j], float64(float32(col[i])))
			}
		}
	}
	return agreement.NormalizeThenSumFloat32(terms, weights, 1e-4, 1, true)
}

// rlooCoarse reports whether bound, LeaveOneOutFloat32's of rloo
// unwhitened of groups (each group's weighted sums), is coarse for
// reading weights (agreement.CoarseErrors): its advantages' float32
// errors as large as what a wrong weight changes, as whitening judges
// them. LeaveOneOutFloat32 calls no such bound coarse, its check taking
// the method as given; a weight read from the log is not.
func (t *trlTable) rlooCoarse(groups [][]float64, bound agreement.Float32Bound) bool {
	var c, errs []float64
	for g, scores := range groups {
		n, sum := 0, 0.0
		for _, s := range scores {
			if !math.IsNaN(s) {
				n++
				sum += s
			}
		}
		if n < 2 {
			continue
		}
		for j, s := range scores {
			if !math.IsNaN(s) {
				a := s - (sum-s)/float64(n-1)
				c = append(c, a)
				errs = append(errs, bound(g, j, a))
			}
		}
	}
	return len(c) >= 2 && agreement.CoarseErrors(c, errs, 1)
}

// weightOr1 returns the weight of column j: w[j], 1 when w is nil.
func weightOr1(w []float64) func(j int) float64 {
	return func(j int) float64 {
		if w == nil {
			return 1
		}
		return w[j]
	}
}

// reproduces returns whether TRL's advantage a of row i under v, with
// weights w of the first k columns (1 each when nil), reproduces the
// logged one: within trlTolerance, or within the bound of TRL's float32
// rounding of it (agreement.GRPOFloat32.Bound under sum_then_normalize,
// methodFloat32 otherwise: scores far from 0 with a small spread lose
// more than trlTolerance in TRL's float32 mean and std) when that bound
// is not coarse (withinFloat32).
func (t *trlTable) reproduces(k int, v trlVariant, w []float64) func(i int, a float64) bool {
	tolerance := func(i int, a float64) bool { return math.Abs(a-t.advantage[i]) <= trlTolerance }
	if v.rloo || v.normalizeThenSum {
		bound := t.methodFloat32(k, v, w)
		return func(i int, a float64) bool {
			if tolerance(i, a) {
				return true
			}
			b, coarse := bound(i, a)
			return t.withinFloat32(math.Abs(a-t.advantage[i]), b, coarse)
		}
	}
	r := t.weightedSums(k, weightOr1(w))
	_, batchStd := nanMeanStd(r, nil)
	type groupBound struct {
		f          agreement.GRPOFloat32
		coarse, ok bool // grpoFloat32's: no bound for a tie or fewer than two sums
	}
	bounds := map[int]groupBound{} // by group, once it is asked
	return func(i int, a float64) bool {
		if tolerance(i, a) || math.IsNaN(r[i]) {
			return tolerance(i, a)
		}
		gi := t.groupOf[i]
		b, asked := bounds[gi]
		if !asked {
			std := batchStd
			if v.scale != "batch" {
				_, std = nanMeanStd(r, t.groups[gi])
			}
			b.f, b.coarse, b.ok = t.grpoFloat32(t.groups[gi], r, v, std+1e-4)
			bounds[gi] = b
		}
		return b.ok && t.withinFloat32(math.Abs(a-t.advantage[i]), b.f.Bound(a), b.coarse)
	}
}

// withinFloat32 reports whether a difference d from the log beyond
// trlTolerance is TRL's float32 rounding: within bound, and bound not
// coarse. A coarse bound (float32's error at the table's scale as large
// as what a wrong weight changes) would take wrong weights for the
// trainer's: such a d is not taken, and t.coarseFloat32 set, for the
// "read as" line to say why the weights could not be read.
func (t *trlTable) withinFloat32(d, bound float64, coarse bool) bool {
	if !(d <= bound) {
		return false
	}
	if coarse {
		t.coarseFloat32 = true
		return false
	}
	return true
}

// reproducesRows reports whether TRL's advantages under v with weights w
// of the first k columns reproduce every row of rows (reproduces).
func (t *trlTable) reproducesRows(k int, v trlVariant, w []float64, rows []int) bool {
	a := t.advantages(k, v, w)
	within := t.reproduces(k, v, w)
	return !slices.ContainsFunc(rows, func(i int) bool { return !within(i, a[i]) })
}

// fitFloat32Bound returns whether a fitted advantage a of row i, divided
// by divisor (the fit's std of the weighted sums plus 1e-4, 1 unscaled)
// under weights w of the first k columns, reproduces the logged one: within
// trlTolerance, or within the bound of TRL's float32 rounding (of
// GRPOFloat32 under sum_then_normalize, of methodFloat32 under w
// otherwise, its divisor that of w) when it is not coarse
// (withinFloat32).
func (t *trlTable) fitFloat32Bound(k int, v trlVariant, w []float64) func(i int, a, divisor float64) bool {
	if v.rloo || v.normalizeThenSum {
		within := t.reproduces(k, v, w)
		return func(i int, a, _ float64) bool { return within(i, a) }
	}
	r := t.weightedSums(k, func(j int) float64 { return w[j] })
	type groupBound struct {
		f          agreement.GRPOFloat32
		coarse, ok bool
	}
	bounds := map[int]groupBound{} // by group: one fit's divisor is the group's
	return func(i int, a, divisor float64) bool {
		d := math.Abs(a - t.advantage[i])
		if d <= trlTolerance {
			return true
		}
		gi := t.groupOf[i]
		b, asked := bounds[gi]
		if !asked {
			b.f, b.coarse, b.ok = t.grpoFloat32(t.groups[gi], r, v, divisor)
			bounds[gi] = b
		}
		return b.ok && t.withinFloat32(d, b.f.Bound(a), b.coarse)
	}
}
