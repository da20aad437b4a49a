package agreement

import (
	"math"
	"slices"
	"strconv"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/stats"
	"gonum.org/v1/gonum/mat"
)

// fitWeights returns the weights of res's objectives under which grpo (or
// gdpo, as o.Method says), with o's scale, std and epsilon, comes closest to the logged advantages of
// res's valid rows, found by least squares; ok is false when there are
// fewer logged rows than objectives or the system is singular. Reward
// weights that are not all equal (TRL's reward_weights=[1.0, 0.5]) are
// not among the trainers' settings that MatchLogged tries one by one.
//
// With c_ik the oriented objective k of row i centred on its group's valid
// members and d_i the std that divides row i's advantage (its group's or
// its batch's, of the weighted scores, plus epsilon; 1 for scale none),
// grpo gives A_i = sum_k w_k c_ik / d_i; gdpo the same with c_ik its
// group-normalised objective centred on the batch and d_i the batch's std
// (fitSystem). The weights solve
// min_w sum_i (sum_k w_k c_ik - A_i d_i)^2 with d_i taken from the weights
// of the round before, until they settle. Scaling every weight by one
// factor changes the advantages only through epsilon: the scale is fitted
// with the direction in each round, and apart, once the direction alone
// has settled; each fit's weights are returned with the largest set to 1
// (the commonest reward_weights) and with the factor that epsilon tells,
// each rounded to 2, 3 and 4 significant digits; a fit whose std is under
// ten times epsilon (nearly unscaled) is none.
func fitWeights(res *engine.Result, o engine.Options) (candidates [][]float64, ok bool) {
	ev, m := res.Evaluation, res.Evaluation.M
	var sys fitSystem
	if o.Method == engine.GDPO {
		sys = gdpoFitSystem(res, o)
	} else {
		sys = grpoFitSystem(res, o)
	}
	unscaled, rows, units, unitOf, c, raw := sys.unscaled, sys.rows, sys.units, map[int]int{}, sys.centred, sys.raw
	for u, un := range units {
		for _, i := range un {
			unitOf[i] = u
		}
	}
	if len(rows) <= m {
		return nil, false
	}
	x := mat.NewDense(len(rows), m, nil)
	for r, i := range rows {
		x.SetRow(r, c[i*m:(i+1)*m])
	}
	eps := o.EpsilonOrDefault()
	// divisors returns each unit's std of the weighted scores plus
	// epsilon (1 for scale none).
	divisors := func(w []float64) []float64 {
		d := make([]float64, len(units))
		for u, un := range units {
			if unscaled {
				d[u] = 1
				continue
			}
			s := make([]float64, len(un))
			for j, i := range un {
				for k := range m {
					s[j] += w[k] * raw[i*m+k]
				}
			}
			d[u] = o.StdOf(s) + eps
		}
		return d
	}
	// scale returns the factor f of the direction u that fits the log:
	// with s_i = sum_k u_k c_ik and σ its unit's std, A_i = f s_i /
	// (f σ + eps), so f (s_i - A_i σ) = A_i eps, solved by least squares;
	// 0 when it cannot be told.
	scale := func(u []float64) float64 {
		d := divisors(u)
		num, den := 0.0, 0.0
		for _, i := range rows {
			s := 0.0
			for k := range m {
				s += u[k] * c[i*m+k]
			}
			a := ev.Logged[i]
			r := s - a*(d[unitOf[i]]-eps)
			num += r * a * eps
			den += r * r
		}
		if f := num / den; den > 0 && f > 0 && !math.IsInf(f, 0) {
			return f
		}
		return 0
	}
	y := mat.NewVecDense(len(rows), nil)
	var sol mat.VecDense
	// fit iterates from the weights given to the weights that settle:
	// with joint, the scale is fitted in each round with the direction
	// (weights of a small std, where epsilon weighs); without, only the
	// direction, the scale once at the end (where the scale fitted each
	// round, ill-conditioned by the log's float32 rounding, pulls the
	// direction off).
	fit := func(joint bool) ([]float64, bool) {
		w := slices.Clone(o.Weights)
		for round := 0; round < 100; round++ {
			d := divisors(w)
			for r, i := range rows {
				y.SetVec(r, ev.Logged[i]*d[unitOf[i]])
			}
			if err := sol.SolveVec(x, y); err != nil {
				return nil, false
			}
			next := slices.Clone(sol.RawVector().Data)
			if unscaled {
				return next, true
			}
			if !normalise(next) {
				return nil, false
			}
			if f := scale(next); joint && f > 0 {
				for k := range next {
					next[k] *= f
				}
			}
			settled := true
			for k := range next {
				settled = settled && math.Abs(next[k]-w[k]) <= 1e-10*math.Abs(next[k])
			}
			w = next
			if settled {
				break
			}
		}
		if !joint {
			if f := scale(w); f > 0 {
				for k := range w {
					w[k] *= f
				}
			}
		}
		for _, v := range w {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, false
			}
		}
		if !unscaled {
			// Weights so small that the std is about epsilon make grpo
			// nearly unscaled: such a fit mimics scale none and tells
			// nothing.
			d := divisors(w)
			slices.Sort(d)
			if d[len(d)/2]-eps < 10*eps {
				return nil, false
			}
		}
		return w, true
	}
	var fitted [][]float64 // each fit's weights: as scaled, then the largest 1
	for _, joint := range []bool{false, true} {
		w, ok := fit(joint)
		if !ok {
			continue
		}
		scaled := slices.Clone(w)
		if !normalise(w) {
			continue
		}
		// A column the trainer did not reward (TRL's log_extra, taken for
		// a reward) is fitted a weight of float noise: 0.
		for k := range w {
			if math.Abs(w[k]) < 1e-6 {
				w[k], scaled[k] = 0, 0
			}
		}
		fitted = append(fitted, w, scaled)
		if unscaled {
			break // one solve: the same both ways
		}
	}
	// Rounded to 2 significant digits, then 3 and 4, the roundest first
	// (MatchLogged takes the first that reproduces): float32's noise in
	// the log can leave TRL's 0.5 fitted as 0.50006.
	for _, digits := range []int{2, 3, 4} {
		for _, v := range fitted {
			if r := roundWeights(v, digits); !slices.ContainsFunc(candidates, func(c []float64) bool { return slices.Equal(c, r) }) {
				candidates = append(candidates, r)
			}
		}
	}
	return candidates, len(candidates) > 0
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
	centred  []float64
	raw      []float64
}

// grpoFitSystem is grpo's: raw the oriented objectives, centred on their
// group's valid members; a unit is a group, or the batch with scale
// batch.
func grpoFitSystem(res *engine.Result, o engine.Options) fitSystem {
	ev, m := res.Evaluation, res.Evaluation.M
	sys := fitSystem{unscaled: !o.Normalize || o.Scale == engine.ScaleNone, centred: make([]float64, len(ev.Valid)*m), raw: make([]float64, len(ev.Valid)*m)}
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
				for _, i := range valid {
					sys.centred[i*m+k] = sys.raw[i*m+k] - mean
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
	sys := fitSystem{unscaled: !o.Normalize, centred: make([]float64, len(ev.Valid)*m), raw: make([]float64, len(ev.Valid)*m)}
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
	return sys
}
