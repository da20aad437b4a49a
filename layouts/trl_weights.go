package layouts

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/rewardlens/rewardlens/engine/agreement"
)

// fitWeights returns weights of the first k columns, the first nonzero
// one 1, under which one of TRL's settings (trlVariants) reproduces the
// logged advantage of every row of rows, and whether some do: TRL's
// reward_weights (_generate_and_score_completions: rewards_per_func times
// reward_weights, nansum), which no plain sum reproduces.
//
// Each setting's advantage is linear in the weights w up to a scale: A_i
// = sum_j w_j X_ij / s_u(i) (weightedTerms), s_u the std of the weighted
// sum over row i's unit plus 1e-4 (its group under scale group, the
// table under scale batch, normalize_then_sum and RLOO's
// normalize_advantages), 1 when unscaled (scale none, RLOO). With the
// scales unknown, sum_j w_j X_ij - s_u(i) A_i = 0 is solved by least
// squares with the first weight whose column is not all 0 fixed to 1
// (unscaled: sum_j w_j X_ij = A_i, every weight free); a column of zeros
// (constant within each group) gets weight 0, and a group whose logged
// advantages are all 0 no scale of its own. The fit reproduces when every
// row is within trlTolerance, and the system has more rows than unknowns.
func (t *trlTable) fitWeights(k int, rows []int) ([]float64, int, bool) {
	for i, v := range trlVariants {
		if w, ok := t.fitVariant(k, rows, v); ok {
			return w, i, true
		}
	}
	return nil, 0, false
}

// fitVariant is fitWeights under the one setting v. Under
// sum_then_normalize the rows of a group that logged one value, not 0,
// are left out of the fit (no weights give a group's advantages one
// value but a float32 tie, whose residue they carry) and checked after
// it, as advantages gives them (tieResidue).
func (t *trlTable) fitVariant(k int, rows []int, v trlVariant) ([]float64, bool) {
	var tied []int
	if !v.rloo && !v.normalizeThenSum {
		rows, tied = t.equalLogged(rows)
	}
	w, ok := t.fitRows(k, rows, v)
	if !ok || len(tied) == 0 {
		return w, ok
	}
	a := t.advantages(k, v, w)
	within := t.reproduces(k, v, w)
	for _, i := range tied {
		if !within(i, a[i]) {
			return nil, false
		}
	}
	return w, true
}

// equalLogged splits rows into those of groups that logged one value,
// not 0 (agreement.TieGroup.LoggedOneValue: of the table's usual group
// size, two of rows or more), and the others.
func (t *trlTable) equalLogged(rows []int) (others, equal []int) {
	logged := map[int][]float64{}
	for _, i := range rows {
		logged[t.groupOf[i]] = append(logged[t.groupOf[i]], t.advantage[i])
	}
	usual := t.usualGroupSize()
	oneValue := map[int]bool{}
	for g, l := range logged {
		oneValue[g] = agreement.TieGroup{Size: len(t.groups[g]), Usual: usual, Logged: l}.LoggedOneValue()
	}
	for _, i := range rows {
		if oneValue[t.groupOf[i]] {
			equal = append(equal, i)
		} else {
			others = append(others, i)
		}
	}
	return others, equal
}

// fitRows is fitVariant of rows, each fitted.
func (t *trlTable) fitRows(k int, rows []int, v trlVariant) ([]float64, bool) {
	x := t.weightedTerms(k, v)
	var cols []int // the columns not all 0 on rows
	for j := range k {
		for _, i := range rows {
			if math.Abs(x[j][i]) > 1e-12 {
				cols = append(cols, j)
				break
			}
		}
	}
	if len(cols) == 0 {
		return nil, false
	}
	unscaled := v.unscaled()
	// The scales' units: one per group with an advantage not 0 under
	// scale group, one for the table when scaled otherwise.
	unit := map[int]int{}
	groupOf := func(i int) int {
		if v.scale == "group" && !v.rloo && !v.normalizeThenSum {
			return t.groupOf[i]
		}
		return 0
	}
	for _, i := range rows {
		g := groupOf(i)
		if _, ok := unit[g]; !ok && !unscaled && math.Abs(t.advantage[i]) > trlTolerance {
			unit[g] = len(unit)
		}
	}
	free := cols
	if !unscaled {
		free = cols[1:]
	}
	unknowns := len(free) + len(unit)
	if len(rows) <= unknowns || unknowns == 0 {
		return nil, false
	}
	m := mat.NewDense(len(rows), unknowns, nil)
	b := mat.NewVecDense(len(rows), nil)
	groupUnit := func(i int) (int, bool) {
		u, ok := unit[groupOf(i)]
		return u, ok
	}
	for r, i := range rows {
		for c, j := range free {
			m.Set(r, c, x[j][i])
		}
		if unscaled {
			b.SetVec(r, t.advantage[i])
			continue
		}
		b.SetVec(r, -x[cols[0]][i])
		if u, ok := groupUnit(i); ok {
			m.Set(r, len(free)+u, -t.advantage[i])
		}
	}
	var sol mat.VecDense
	if err := sol.SolveVec(m, b); err != nil {
		return nil, false
	}
	w := make([]float64, k)
	if !unscaled {
		w[cols[0]] = 1
	}
	for c, j := range free {
		w[j] = sol.AtVec(c)
	}
	fitted := make([]float64, len(rows))
	missed := false
	within := t.fitFloat32Bound(k, v, w)
	for r, i := range rows {
		sum := 0.0
		for _, j := range cols {
			sum += w[j] * x[j][i]
		}
		a := sum // unscaled; or a unit whose advantages are all 0: its sum must be 0
		divisor := 1.0
		u, ok := groupUnit(i) // no unit when unscaled
		if ok {
			divisor = sol.AtVec(len(free) + u)
			a /= divisor
		}
		fitted[r] = a
		if ok || unscaled {
			missed = missed || !within(i, a, divisor)
		} else {
			missed = missed || !(math.Abs(a-t.advantage[i]) <= trlTolerance)
		}
	}
	if missed && !(len(unit) == 1 && t.batchResidueFit(k, rows, v, w, fitted, sol.AtVec(len(free)))) {
		return nil, false
	}
	return w, true
}

// batchResidueFit reports whether fitted, the advantages of rows under
// weights w fitted under v, divided by divisor (the fit's std of the
// weighted sums plus 1e-4), miss the log by TRL's float32 residue of the
// tied groups alone, when v normalises over the table last
// (normalize_then_sum, RLOO's normalize_advantages): the residue shifts
// each group's logged advantages alike (agreement.BatchResidue, every
// group of the table's usual size), which no weights fit but which
// leaves them right.
func (t *trlTable) batchResidueFit(k int, rows []int, v trlVariant, w, fitted []float64, divisor float64) bool {
	if !v.normalizeThenSum && !v.normalizeRLOO {
		return false
	}
	usual := t.usualGroupSize()
	ties := make([]agreement.BatchTie, len(t.groups))
	for r, i := range rows {
		g := t.groupOf[i]
		if len(t.groups[g]) != usual {
			return false
		}
		ties[g].Diff = append(ties[g].Diff, t.advantage[i]-fitted[r])
	}
	weight := func(j int) float64 { return w[j] }
	sums := t.weightedSums(k, weight)
	for g, rows := range t.groups {
		if v.normalizeThenSum {
			ties[g].Bound = t.normalizeThenSumTieBound(rows, k, weight)
		} else {
			ties[g].Bound = t.rlooTieBound(rows, sums)
		}
	}
	return agreement.BatchResidue(ties, divisor)
}

// weightedTerms returns X_kj of each of the first k columns under v: the
// term of column j in row i's advantage, which TRL's weighted sum (nansum,
// a None adding nothing) makes sum_j w_j X_ij before the scale. Under
// sum_then_normalize X is the column centred on the mean of its group's
// scorable rows (a row whose every reward is None left out, its term 0);
// under RLOO that times n / (n - 1), n the group's scorable rows (r_i
// minus the mean of the others); under normalize_then_sum the column's
// z-score in its group (nanmean, nanstd + 1e-4) centred on the table's
// scorable rows.
func (t *trlTable) weightedTerms(k int, v trlVariant) [][]float64 {
	n := len(t.advantage)
	scorable := make([]bool, n)
	for i := range scorable {
		for _, col := range t.columns[:k] {
			scorable[i] = scorable[i] || !math.IsNaN(col[i])
		}
	}
	x := make([][]float64, k)
	for j, col := range t.columns[:k] {
		term := make([]float64, n)
		for _, g := range t.groups {
			var mean, std float64
			count := 0
			if v.normalizeThenSum {
				mean, std = nanMeanStd(col, g)
			} else {
				for _, i := range g {
					if scorable[i] {
						mean += zeroNaN(col[i])
						count++
					}
				}
				mean /= float64(max(count, 1))
			}
			for _, i := range g {
				switch {
				case !scorable[i]:
				case v.normalizeThenSum:
					term[i] = zeroNaN((col[i] - mean) / (std + 1e-4))
				case v.rloo && count < 2:
					// A lone scorable reward: TRL's 0 / 0, NaN, then 0.
				case v.rloo:
					term[i] = (zeroNaN(col[i]) - mean) * float64(count) / float64(count-1)
				default:
					term[i] = zeroNaN(col[i]) - mean
				}
			}
		}
		if v.normalizeThenSum {
			mean, count := 0.0, 0
			for i := range term {
				if scorable[i] {
					mean += term[i]
					count++
				}
			}
			mean /= float64(max(count, 1))
			for i := range term {
				if scorable[i] {
					term[i] -= mean
				}
			}
		}
		x[j] = term
	}
	return x
}

// zeroNaN returns x, 0 for NaN: nansum's None adding nothing.
func zeroNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// trlWeightsText says fitted weights of columns for the "read as" line:
// "code_reward 1, format_reward 0.5", each to 3 significant digits.
func trlWeightsText(columns []string, weights []float64, sep string) string {
	parts := make([]string, len(columns))
	for i, col := range columns {
		parts[i] = col + " " + strconv.FormatFloat(weights[i], 'g', 3, 64)
	}
	return strings.Join(parts, sep)
}
