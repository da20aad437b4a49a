package agreement

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/stats"
	"gonum.org/v1/gonum/mat"
)

// fittedWeights are the weights fitWeights offers for a method, the
// likeliest first, and whether the log tells their common factor.
type fittedWeights struct {
	candidates [][]float64
	// scaleFree is true when twice or half the first candidate
	// reproduces the log as well (a scaled method whose std is far above
	// epsilon, which alone tells the factor): the first candidate is then
	// a guess at the trainer's, of a largest weight of 1 among the
	// simplest.
	scaleFree bool
}

// float32Noise is how far from the advantage of exact arithmetic the
// trainer's float32 log may be, relative beyond 1: a few units of
// float32's last place (2^-24). TRL's GRPOTrainer computes the advantages
// in float32 tensors (_generate_and_score_completions) and log() writes
// them as they are.
const float32Noise = 4 * 0x1p-24

// fitWeights returns the weights of res's objectives under which grpo (or
// gdpo or rloo, as o.Method says), with o's scale, std and epsilon, reproduces the
// logged advantages of res's valid rows but those leftOut marks (nil for
// none: the rows the trainer grouped otherwise) and, under grpo, those
// equalLogged marks (equalLoggedGroups of res, nil for none); ok is false when there are fewer
// logged rows than objectives, the system is singular, or a scaled fit is
// nearly unscaled. Reward weights that are not all equal (TRL's
// reward_weights=[1.0, 0.5]) are not among the trainers' settings that
// MatchLogged tries one by one.
//
// With c_ik the oriented objective k of row i centred on its group's valid
// members, grpo gives A_i = sum_k w_k c_ik / d_i with d_i the std of the
// weighted scores over row i's unit (its group, or its batch) plus epsilon,
// 1 unscaled (TRL's _generate_and_score_completions: advantages =
// rewards - mean_grouped_rewards, divided by std_rewards + 1e-4); gdpo the
// same with c_ik its group-normalised objective centred on the batch;
// rloo A_i = sum_k w_k c_ik n / (n - 1), n the group's valid members,
// unscaled (fitSystem). Unscaled, the weights solve min_w sum_i (sum_k w_k c_ik -
// A_i)^2. Scaled, w = f u with u of largest magnitude 1: scaling every
// weight by f divides the std by f too, so A_i = sum_k u_k c_ik / (σ_i(u) +
// t) with t = epsilon / f, the factor seen only through epsilon; u and t
// are fitted in turn until they settle (fitDirection).
//
// The fit carries the log's float32 noise: the candidates are the fit
// rounded, the direction normalised with each nonzero weight in turn set
// to 1 (TRL's [3, 1] is the direction (1, 0.3333), or (3, 1)) and to a sum
// of 1 (0.45, 0.55), rounded to 1 to 4 significant digits, and for each
// direction its factor fitted again (fitFactor) and rounded to 1 to 4
// digits, or 1; when the closest is not within float32's noise but
// within Tolerance, or the fit reproduces the log to the noise of the
// trainer's float32 sums (determines), it and the direction scaled to
// make each weight short are rounded weight by weight to 2 to 5 digits
// (eachRounding). Those within the log's noise (float32's, or twice what
// the closest candidate leaves) come first, the fewest significant digits
// first (the trainer's config is written by hand), then the closest of
// the rest; each candidate is measured only as far as that choice needs
// (candidateSet). A fit whose median std is under ten times t is
// nearly unscaled (a log of scale none mimicked by tiny weights): none. A
// t fitted at or under 0 is epsilon lost in the noise: the factor is
// then only tried as 1.
func fitWeights(res *engine.Result, o engine.Options, leftOut, equalLogged []bool) (fittedWeights, bool) {
	var sys fitSystem
	switch o.Method {
	case engine.GDPO:
		sys = gdpoFitSystem(res, o)
	case engine.RLOO:
		sys = rlooFitSystem(res, o)
	default:
		sys = grpoFitSystem(res, o)
	}
	if leftOut != nil {
		sys.rows = slices.DeleteFunc(sys.rows, func(i int) bool { return leftOut[i] })
	}
	if o.Method == engine.GRPO && equalLogged != nil {
		// A whole group that logged one value, not 0, is a float32 tie
		// whose residue no weights fit (TieGroup.LoggedOneValue): the
		// candidates are measured against it by the comparison, not
		// the fit.
		sys.rows = slices.DeleteFunc(sys.rows, func(i int) bool { return equalLogged[i] })
	}
	sys.indexRows()
	m := res.Evaluation.M
	if len(sys.rows) <= m {
		return fittedWeights{}, false
	}
	eps := o.EpsilonOrDefault()
	u, t, ok := sys.fitDirection(o.Weights, eps)
	if !ok {
		return fittedWeights{}, false
	}
	if !sys.unscaled && t > 0 {
		d := sys.divisors(u, t)
		slices.Sort(d)
		if d[len(d)/2]-t < 10*t {
			return fittedWeights{}, false
		}
	}
	// A column the trainer did not reward (TRL's log_extra, taken for a
	// reward) is fitted a weight of float noise: 0.
	top := 0.0
	for _, v := range u {
		top = max(top, math.Abs(v))
	}
	for k := range u {
		if math.Abs(u[k]) < 1e-6*top {
			u[k] = 0
		}
	}

	cands := candidateSet{sys: &sys, eps: eps, seen: map[string]bool{}}
	for digits := 1; digits <= 4; digits++ {
		if sys.unscaled {
			cands.add(roundWeights(u, digits))
			continue
		}
		for _, direction := range directions(u) {
			direction = roundWeights(direction, digits)
			factors := []float64{1}
			if f := sys.fitFactor(direction, eps); f > 0 {
				for fd := 1; fd <= 4; fd++ {
					factors = append(factors, roundSignificant(f, fd))
				}
			}
			for _, f := range factors {
				w := make([]float64, m)
				for k := range w {
					// The product of two short decimals, without
					// float64's tail (0.1 * 3 = 0.30000000000000004).
					w[k] = roundSignificant(f*direction[k], 12)
				}
				cands.add(w)
			}
		}
	}
	// A direction and a factor rounded apart may each miss what the
	// trainer wrote (0.45 / 0.55 rounds to 0.8182; 0.7071, 1.4142, 0.25
	// is a factor of 1.4142 on 0.5, 1, 0.1768): when the closest is within
	// the agreement tolerance but not float32's noise, it is rounded weight
	// by weight to 2 to 5 digits, and so is the fitted direction scaled to
	// make each weight in turn short (its fitted value rounded to 1 to 5
	// digits), the direction's ratios being what the log tells best.
	cands.settle()
	closest := func() fitCandidate {
		return slices.MinFunc(cands.all, func(a, b fitCandidate) int { return cmp.Compare(a.diff, b.diff) })
	}
	if c := closest(); c.diff > float32Noise && (c.diff <= Tolerance || sys.determines(u, t)) {
		around := [][]float64{c.w}
		f := 1.0
		if !sys.unscaled {
			f = sys.fitFactor(u, eps)
		}
		for k := range u {
			if u[k] == 0 || f <= 0 {
				continue
			}
			for d := 1; d <= 5; d++ {
				scale := roundSignificant(f*u[k], d) / u[k]
				w := make([]float64, m)
				for j := range w {
					w[j] = scale * u[j]
				}
				around = append(around, w)
			}
		}
		for _, w := range around {
			eachRounding(w, 2, 5, cands.add)
		}
		cands.settle()
	}
	all := cands.all
	// The log's noise: float32's, or what the closest candidate leaves,
	// should the trainer have summed in float32 what would round
	// further. Not the unrounded fit's: its weights, off by the noise,
	// give a group whose scores their true weights make equal (std 0,
	// advantages 0) a std of that noise, and advantages of that noise
	// over epsilon.
	noise := max(float32Noise, 2*closest().diff)
	within := func(c fitCandidate) bool { return c.diff <= noise }
	slices.SortStableFunc(all, func(a, b fitCandidate) int {
		if wa, wb := within(a), within(b); wa != wb {
			if wa {
				return -1
			}
			return 1
		}
		if within(a) && a.digits != b.digits {
			return a.digits - b.digits
		}
		return cmp.Compare(a.diff, b.diff)
	})
	var fit fittedWeights
	if len(all) > 0 && within(all[0]) && !sys.unscaled {
		// Does the log tell the factor? Twice or half the weights
		// reproduce it as well when epsilon is lost in the std.
		w := all[0].w
		twice, half := make([]float64, m), make([]float64, m)
		for k := range w {
			twice[k], half[k] = 2*w[k], w[k]/2
		}
		if sys.maxDiff(twice, eps, noise) <= noise || sys.maxDiff(half, eps, noise) <= noise {
			fit.scaleFree = true
			// Any multiple will do: of the simplest, one of a largest
			// weight of 1, else of a weight of 1 (TRL's reward_weights
			// default to 1).
			best := 0
			for k, c := range all {
				if within(c) && c.digits == all[0].digits && unitWeight(c.w) < unitWeight(all[best].w) {
					best = k
				}
			}
			all[0], all[best] = all[best], all[0]
		}
	}
	// The likeliest few, then the closest of the rest, should the
	// engine's rewards, which fitSystem mirrors, not reproduce them.
	const offered = 4
	for i, c := range all {
		if !within(c) {
			fit.candidates = append(fit.candidates, c.w)
			break
		}
		if i < offered {
			fit.candidates = append(fit.candidates, c.w)
		}
	}
	return fit, len(fit.candidates) > 0
}

// fitDirection returns the weights' direction u (largest magnitude 1) and
// t, epsilon over the weights' factor, that fit the log
// (fitWeights); t is 0 unscaled, where u is the weights themselves. From
// start, with t = epsilon, it solves in turn u for t (min_u sum_i (sum_k
// u_k c_ik - A_i (σ_i(u_before) + t))^2, a linear least squares) and t
// for u (fitT), until they settle (at most 100 rounds); ok is false when
// the system is singular or the fit is not finite.
func (sys *fitSystem) fitDirection(start []float64, eps float64) (u []float64, t float64, ok bool) {
	m := len(start)
	x := mat.NewDense(len(sys.rows), m, nil)
	for r, i := range sys.rows {
		x.SetRow(r, sys.centred[i*m:(i+1)*m])
	}
	// Every round solves the same system for another right-hand side.
	var qr mat.QR
	qr.Factorize(x)
	y := mat.NewVecDense(len(sys.rows), nil)
	var sol mat.VecDense
	u = slices.Clone(start)
	if !sys.unscaled {
		if !normalise(u) {
			return nil, 0, false
		}
		t = eps
	}
	for round := 0; round < 100; round++ {
		d := sys.divisors(u, t)
		for r, i := range sys.rows {
			y.SetVec(r, sys.logged[i]*d[sys.unitOf[i]])
		}
		if err := qr.SolveVecTo(&sol, false, y); err != nil {
			return nil, 0, false
		}
		next := slices.Clone(sol.RawVector().Data)
		if sys.unscaled {
			u = next
			break
		}
		if !normalise(next) {
			return nil, 0, false
		}
		nextT := sys.fitT(next, eps)
		settled := math.Abs(nextT-t) <= 1e-12
		for k := range next {
			settled = settled && math.Abs(next[k]-u[k]) <= 1e-10
		}
		u, t = next, nextT
		if settled {
			break
		}
	}
	for _, v := range append(slices.Clone(u), t) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, false
		}
	}
	return u, t, true
}

// fitT returns the t of min_t sum_i ((A_i (σ_i(u) + t) - s_i) / (σ_i +
// eps))^2, s_i = sum_k u_k c_ik: sum_i v_i A_i (s_i - A_i σ_i) / sum_i v_i
// A_i^2 with v_i = 1 / (σ_i + eps)^2, the residual measured on the
// advantage, where the log's noise is (unweighted, a group of a large std
// drowns t in its noise times the std); 0 when no logged advantage is
// nonzero.
func (sys *fitSystem) fitT(u []float64, eps float64) float64 {
	m := len(u)
	d := sys.divisors(u, 0)
	num, den := 0.0, 0.0
	for _, i := range sys.rows {
		s := 0.0
		for k := range m {
			s += u[k] * sys.centred[i*m+k]
		}
		a, sd := sys.logged[i], d[sys.unitOf[i]]
		v := 1 / ((sd + eps) * (sd + eps))
		num += v * a * (s - a*sd)
		den += v * a * a
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// fitFactor returns the factor f of the weights f u that fits the log
// best, epsilon over fitT; 0 when that is not positive and finite.
func (sys *fitSystem) fitFactor(u []float64, eps float64) float64 {
	if f := eps / sys.fitT(u, eps); f > 0 && !math.IsInf(f, 0) {
		return f
	}
	return 0
}

// divisors returns each unit's std of the scores weighted by w, plus
// eps (1 each when unscaled).
func (sys *fitSystem) divisors(w []float64, eps float64) []float64 {
	m := len(w)
	d := make([]float64, len(sys.units))
	for u, un := range sys.units {
		if sys.unscaled {
			d[u] = 1
			continue
		}
		s := make([]float64, len(un))
		for j, i := range un {
			for k := range m {
				s[j] += w[k] * sys.raw[i*m+k]
			}
		}
		d[u] = sys.std(s) + eps
	}
	return d
}

// A fitCandidate is weights fitWeights offers, with their significant
// digits and their largest difference from the log.
type fitCandidate struct {
	w      []float64
	digits int
	// diff is w's largest difference from the log (maxDiffUpTo) once
	// settled, or, when measured no further than past what mattered
	// (candidateSet.bound), a lower bound of it above that; while
	// pending, the lower bound of a sample of the units.
	diff    float64
	pending bool
}

// A candidateSet holds the candidates fitWeights offers, in the order
// added, measured on the system with epsilon eps only as far as the
// choice among them needs.
type candidateSet struct {
	sys  *fitSystem
	eps  float64
	all  []fitCandidate
	seen map[string]bool
}

// add adds w unless added before, pending, measured on the sample of the
// units (fitSystem.sampleUnits).
func (cs *candidateSet) add(w []float64) {
	key := fmt.Sprint(w)
	if cs.seen[key] {
		return
	}
	cs.seen[key] = true
	c := fitCandidate{w: w, pending: true, diff: cs.sys.maxDiffUpTo(w, cs.eps, math.Inf(1), cs.sys.sampleUnits, 0)}
	for _, v := range w {
		c.digits += significantDigits(v)
	}
	cs.all = append(cs.all, c)
}

// bound is how large a difference a candidate needs measured in full,
// from the settled ones: one within the noise the closest leaves
// (fitWeights' noise, at least float32's) may be among the first
// offered, and one under the closest beyond that may be the closest of
// the rest; any other is neither, as the closest only comes closer. It
// only falls as candidates settle.
func (cs *candidateSet) bound() float64 {
	closest := math.Inf(1)
	for _, c := range cs.all {
		if !c.pending {
			closest = min(closest, c.diff)
		}
	}
	noise, rest := max(float32Noise, 2*closest), math.Inf(1)
	for _, c := range cs.all {
		if !c.pending && c.diff > noise {
			rest = min(rest, c.diff)
		}
	}
	return max(noise, rest)
}

// settle measures the pending candidates, the closest on the sample
// first (so that the bound falls early): in full up to the bound, or
// not at all when the sample is past it already. What fitWeights reads
// of the candidates is then what measuring each in full gives: the
// closest, the exact differences of those within the noise, and the
// closest of the rest, the others past it.
func (cs *candidateSet) settle() {
	var order []int
	for k, c := range cs.all {
		if c.pending {
			order = append(order, k)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cs.all[a].diff, cs.all[b].diff) })
	for _, k := range order {
		c := &cs.all[k]
		if bound := cs.bound(); !(c.diff > bound) {
			c.diff = cs.sys.maxDiffUpTo(c.w, cs.eps, bound, cs.sys.otherUnits, c.diff)
		}
		c.pending = false
	}
}

// maxDiff returns the largest |A - logged| / max(1, |logged|) over the
// rows, with A the advantage of weights w and epsilon eps (Reproduces'
// measure), or, once that exceeds bound, a lower bound of it above bound
// (maxDiffUpTo).
func (sys *fitSystem) maxDiff(w []float64, eps, bound float64) float64 {
	return sys.maxDiffUpTo(w, eps, bound, sys.otherUnits, sys.maxDiffUpTo(w, eps, bound, sys.sampleUnits, 0))
}

// maxDiffUpTo returns the largest of worst, the difference of units
// measured before, and |A - logged| / max(1, |logged|) over the rows of
// units (indices into units), with A the advantage of weights w and
// epsilon eps; or, once that exceeds bound, the largest so far: a lower
// bound above bound, without the pass over the other units.
func (sys *fitSystem) maxDiffUpTo(w []float64, eps, bound float64, units []int, worst float64) float64 {
	m := len(w)
	var scores []float64
	for _, u := range units {
		if worst > bound {
			break
		}
		rows := sys.unitRows[u]
		d := 1.0
		if !sys.unscaled {
			scores = slices.Grow(scores[:0], len(sys.units[u]))[:len(sys.units[u])]
			for j, i := range sys.units[u] {
				scores[j] = 0
				for k := range m {
					scores[j] += w[k] * sys.raw[i*m+k]
				}
			}
			d = sys.std(scores) + eps
		}
		for _, i := range rows {
			a := 0.0
			for k := range m {
				a += w[k] * sys.centred[i*m+k]
			}
			a /= d
			l := sys.logged[i]
			worst = max(worst, math.Abs(a-l)/max(1, math.Abs(l)))
		}
	}
	return worst
}

// determines reports whether the fit (u, t) reproduces every logged
// advantage to the float32 noise of the trainer's sums, measured as the
// fit measures it, on the linearised residual |s_i - A_i d_i| (s_i =
// sum_k u_k c_ik, d_i = σ_i(u) + t, 1 unscaled), where a group whose
// true weights make its scores equal adds no noise over epsilon. A
// weight rounded to 4 digits may then be off by more than Tolerance
// (unscaled, the advantages are of the rewards' size; scaled, many rows
// make the largest difference large) while the log tells it to
// float32's last place. The noise is scale-free: each of the m products
// and sums of a row's reward, the n of its group's mean or std, the
// subtraction, the division and the logging round at most once to 2^-24
// of the largest magnitude handled (sum_k |u_k raw_ik|, or |A_i| d_i).
func (sys *fitSystem) determines(u []float64, t float64) bool {
	m := len(u)
	d := sys.divisors(u, t)
	magnitude, largest, worst := 0.0, 0, 0.0
	for _, un := range sys.units {
		largest = max(largest, len(un))
	}
	for _, i := range sys.rows {
		s, r := 0.0, 0.0
		for k := range m {
			s += u[k] * sys.centred[i*m+k]
			r += math.Abs(u[k] * sys.raw[i*m+k])
		}
		ld := sys.logged[i] * d[sys.unitOf[i]]
		magnitude = max(magnitude, r, math.Abs(ld))
		worst = max(worst, math.Abs(s-ld))
	}
	return worst <= float64(largest+2*m+3)*0x1p-24*magnitude
}

// significantDigits returns how many significant digits x is written
// with: 0 for 0, 1 for 3 and 0.5, 4 for 2.964.
func significantDigits(x float64) int {
	if x == 0 {
		return 0
	}
	for d := 1; d < 17; d++ {
		if roundSignificant(x, d) == x {
			return d
		}
	}
	return 17
}

// unitWeight ranks w as a guess at a trainer's weights: 0 when its
// largest magnitude is 1, 1 when another weight is 1 or -1, 2 otherwise.
func unitWeight(w []float64) int {
	top, one := 0.0, false
	for _, v := range w {
		top = max(top, math.Abs(v))
		one = one || math.Abs(v) == 1
	}
	switch {
	case top == 1:
		return 0
	case one:
		return 1
	}
	return 2
}

// directions returns u normalised as a trainer's weights may be written:
// each nonzero weight in turn 1 (the largest, the smallest: TRL's [3, 1]
// is (1, 0.3333) or (3, 1)), and a sum of 1 (0.45 and 0.55), when the sum
// is not lost in the weights' noise.
func directions(u []float64) [][]float64 {
	var out [][]float64
	scaled := func(by float64) {
		d := make([]float64, len(u))
		for k := range u {
			d[k] = u[k] / by
		}
		out = append(out, d)
	}
	top, sum := 0.0, 0.0
	for _, v := range u {
		top, sum = max(top, math.Abs(v)), sum+v
		if v != 0 {
			scaled(math.Abs(v))
		}
	}
	if math.Abs(sum) > 1e-6*top {
		scaled(sum)
	}
	return out
}

// maxRoundedApart is the most weights eachRounding rounds each to its own
// digits: beyond, the combinations outgrow the fit (4^m of them).
const maxRoundedApart = 3

// eachRounding calls fn with w, each weight rounded to its own number of
// significant digits from lo to hi, every combination (all to the same
// number of digits for more than maxRoundedApart weights).
func eachRounding(w []float64, lo, hi int, fn func([]float64)) {
	if len(w) > maxRoundedApart {
		for d := lo; d <= hi; d++ {
			fn(roundWeights(w, d))
		}
		return
	}
	var walk func(k int, out []float64)
	walk = func(k int, out []float64) {
		if k == len(w) {
			fn(slices.Clone(out))
			return
		}
		for d := lo; d <= hi; d++ {
			out[k] = roundSignificant(w[k], d)
			walk(k+1, out)
		}
	}
	walk(0, make([]float64, len(w)))
}

// normalise divides w by its largest magnitude, reporting false when that
// is 0 or not finite.
func normalise(w []float64) bool {
	top := 0.0
	for _, v := range w {
		top = max(top, math.Abs(v))
	}
	if top == 0 || math.IsNaN(top) || math.IsInf(top, 0) {
		return false
	}
	for k := range w {
		w[k] /= top
	}
	return true
}

// roundWeights rounds each weight to digits significant digits.
func roundWeights(w []float64, digits int) []float64 {
	out := make([]float64, len(w))
	for k, v := range w {
		out[k] = roundSignificant(v, digits)
	}
	return out
}

// roundSignificant rounds x to digits significant digits: a fitted weight
// of 0.50000003 is TRL's 0.5.
func roundSignificant(x float64, digits int) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
	if err != nil {
		return x
	}
	return r
}

// A fitSystem is what fitWeights solves for a method: with weights w, the
// rewarded sum of row i is s_i = sum_k w_k raw_ik, and its advantage
// A_i = sum_k w_k centred_ik / d_i, d_i being the std of s over row i's
// unit plus epsilon (1 when unscaled). rows are the valid rows with a
// logged advantage that the weights decide.
type fitSystem struct {
	unscaled bool
	rows     []int
	units    [][]int
	unitOf   []int   // each row's index into units (of the rows in one)
	unitRows [][]int // the rows of each unit (indexRows)
	// sampleUnits are every sampleEvery-th unit with rows, otherUnits the
	// others with rows (indexRows).
	sampleUnits, otherUnits []int
	centred                 []float64
	raw                     []float64
	logged                  []float64               // the evaluation's logged advantages
	std                     func([]float64) float64 // the options' std (StdOf)
}

// index fills unitOf from units.
func (sys *fitSystem) index() {
	sys.unitOf = make([]int, len(sys.logged))
	for u, un := range sys.units {
		for _, i := range un {
			sys.unitOf[i] = u
		}
	}
}

// sampleEvery is one in how many units with rows a candidate is first
// measured on (candidateSet.add).
const sampleEvery = 16

// indexRows fills unitRows from rows, and sampleUnits and otherUnits.
func (sys *fitSystem) indexRows() {
	sys.unitRows = make([][]int, len(sys.units))
	for _, i := range sys.rows {
		u := sys.unitOf[i]
		sys.unitRows[u] = append(sys.unitRows[u], i)
	}
	sys.sampleUnits, sys.otherUnits = nil, nil
	for u, rows := range sys.unitRows {
		switch {
		case len(rows) == 0:
		case (len(sys.sampleUnits)+len(sys.otherUnits))%sampleEvery == 0:
			sys.sampleUnits = append(sys.sampleUnits, u)
		default:
			sys.otherUnits = append(sys.otherUnits, u)
		}
	}
}

// grpoFitSystem is grpo's: raw the oriented objectives, centred on their
// group's valid members; a unit is a group, or the batch with scale
// batch.
func grpoFitSystem(res *engine.Result, o engine.Options) fitSystem {
	return centredFitSystem(res, o, !o.Normalize || o.Scale == engine.ScaleNone, false)
}

// rlooFitSystem is rloo's (TRL's RLOOTrainer with reward_weights, without
// normalize_advantages): unscaled, the centred objectives times n / (n -
// 1), n the group's valid members, as the leave-one-out baseline's
// advantage s_i - mean of the others is.
func rlooFitSystem(res *engine.Result, o engine.Options) fitSystem {
	return centredFitSystem(res, o, true, true)
}

// centredFitSystem is grpo's, or with leaveOneOut rloo's (its centred
// objectives times n / (n - 1)); unscaled divides by nothing.
func centredFitSystem(res *engine.Result, o engine.Options, unscaled, leaveOneOut bool) fitSystem {
	ev, m := res.Evaluation, res.Evaluation.M
	sys := fitSystem{unscaled: unscaled, centred: make([]float64, len(ev.Valid)*m), raw: make([]float64, len(ev.Valid)*m), logged: ev.Logged, std: o.StdOf}
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		var batchUnit []int
		for _, g := range b.Groups {
			valid := engine.ValidMembers(nil, g.Members, ev.Valid)
			if len(valid) == 0 {
				continue
			}
			for k, obj := range ev.Objectives {
				mean := 0.0
				for _, i := range valid {
					sys.raw[i*m+k] = obj.Orient(ev.Values[i*m+k])
					mean += sys.raw[i*m+k]
				}
				mean /= float64(len(valid))
				by := 1.0
				if n := float64(len(valid)); leaveOneOut && n > 1 {
					by = n / (n - 1)
				}
				for _, i := range valid {
					sys.centred[i*m+k] = by * (sys.raw[i*m+k] - mean)
				}
			}
			if o.Scale != engine.ScaleBatch || sys.unscaled {
				sys.units = append(sys.units, valid)
			} else {
				batchUnit = append(batchUnit, valid...)
			}
			for _, i := range valid {
				// A lone member's advantage follows the group-of-one
				// convention, not the weights.
				if l := ev.Logged[i]; len(valid) > 1 && !math.IsNaN(l) && !math.IsInf(l, 0) {
					sys.rows = append(sys.rows, i)
				}
			}
		}
		if len(batchUnit) > 0 {
			sys.units = append(sys.units, batchUnit)
		}
	}
	sys.index()
	return sys
}

// gdpoFitSystem is gdpo's (TRL's normalize_then_sum with reward_weights):
// raw is g_ik, objective k normalised within its group as gdpo does (an
// absent value, or a group with fewer than two, adds 0), centred on the
// batch's valid rows; the unit is the batch, whose std normalises the
// weighted sum.
func gdpoFitSystem(res *engine.Result, o engine.Options) fitSystem {
	ev, m := res.Evaluation, res.Evaluation.M
	eps := o.EpsilonOrDefault()
	sys := fitSystem{unscaled: !o.Normalize, centred: make([]float64, len(ev.Valid)*m), raw: make([]float64, len(ev.Valid)*m), logged: ev.Logged, std: o.StdOf}
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		var batch []int
		for _, g := range b.Groups {
			valid := engine.ValidMembers(nil, g.Members, ev.Valid)
			batch = append(batch, valid...)
			if len(valid) < 2 {
				continue
			}
			for k := range m {
				var present []int
				for _, i := range valid {
					if res.Evaluation.Absent == nil || !res.Evaluation.Absent[i*m+k] {
						present = append(present, i)
					}
				}
				if len(present) < 2 {
					continue
				}
				x := make([]float64, len(present))
				for j, i := range present {
					x[j] = res.Term(i, k)
				}
				mean, std1 := stats.Mean(x), o.StdOf(x)
				for j, i := range present {
					sys.raw[i*m+k] = (x[j] - mean) / (std1 + eps)
				}
			}
		}
		if len(batch) < 2 {
			continue
		}
		for k := range m {
			mean := 0.0
			for _, i := range batch {
				mean += sys.raw[i*m+k]
			}
			mean /= float64(len(batch))
			for _, i := range batch {
				sys.centred[i*m+k] = sys.raw[i*m+k] - mean
			}
		}
		sys.units = append(sys.units, batch)
		for _, i := range batch {
			if l := ev.Logged[i]; !math.IsNaN(l) && !math.IsInf(l, 0) {
				sys.rows = append(sys.rows, i)
			}
		}
	}
	sys.index()
	return sys
}
