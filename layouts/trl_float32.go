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
// them by (the std plus 1e-4; ignored unscaled); ok is false for fewer
// than two sums or sums tied in float32 (tieResidue's).
func (t *trlTable) grpoFloat32(g []int, r []float64, v trlVariant, divisor float64) (agreement.GRPOFloat32, bool) {
	var sums []float64
	for _, i := range g {
		if !math.IsNaN(r[i]) {
			sums = append(sums, float64(float32(r[i])))
		}
	}
	if len(sums) < 2 || !slices.ContainsFunc(sums, func(s float64) bool { return s != sums[0] }) {
		return agreement.GRPOFloat32{}, false
	}
	f := agreement.GRPOFloat32{Correction: 1, Divisor: 1}
	f.MeanOf(sums)
	switch v.scale {
	case "none":
	case "batch":
		var all []float64
		for _, x := range r {
			if !math.IsNaN(x) {
				all = append(all, x)
			}
		}
		f.StdOf(all)
		f.Divisor = divisor
	default:
		f.StdOf(sums)
		f.Divisor = divisor
	}
	return f, !math.IsNaN(f.Divisor)
}

// reproduces returns whether TRL's advantage a of row i under v, with
// weights w of the first k columns (1 each when nil), reproduces the
// logged one: within trlTolerance, or, under sum_then_normalize, within
// the bound of TRL's float32 rounding of it (agreement.GRPOFloat32.Bound:
// scores far from 0 with a small spread lose more than trlTolerance in
// TRL's float32 mean and std).
func (t *trlTable) reproduces(k int, v trlVariant, w []float64) func(i int, a float64) bool {
	tolerance := func(i int, a float64) bool { return math.Abs(a-t.advantage[i]) <= trlTolerance }
	if v.rloo || v.normalizeThenSum {
		return tolerance
	}
	r := t.weightedSums(k, func(j int) float64 {
		if w == nil {
			return 1
		}
		return w[j]
	})
	_, batchStd := nanMeanStd(r, nil)
	type groupBound struct {
		f  agreement.GRPOFloat32
		ok bool // grpoFloat32's: no bound for a tie or fewer than two sums
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
			b.f, b.ok = t.grpoFloat32(t.groups[gi], r, v, std+1e-4)
			bounds[gi] = b
		}
		return b.ok && math.Abs(a-t.advantage[i]) <= b.f.Bound(a)
	}
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
// trlTolerance, or, under sum_then_normalize, within the bound of TRL's
// float32 rounding (float32Agree's).
func (t *trlTable) fitFloat32Bound(k int, v trlVariant, w []float64) func(i int, a, divisor float64) bool {
	if v.rloo || v.normalizeThenSum {
		return func(i int, a, _ float64) bool { return math.Abs(a-t.advantage[i]) <= trlTolerance }
	}
	r := t.weightedSums(k, func(j int) float64 { return w[j] })
	type groupBound struct {
		f  agreement.GRPOFloat32
		ok bool
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
			b.f, b.ok = t.grpoFloat32(t.groups[gi], r, v, divisor)
			bounds[gi] = b
		}
		return b.ok && d <= b.f.Bound(a)
	}
}
