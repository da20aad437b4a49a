package engine

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// fitWeights returns the weights of res's objectives under which grpo, with
// o's scale, std and epsilon, comes closest to the logged advantages of
// res's valid rows, found by least squares; ok is false when there are
// fewer logged rows than objectives or the system is singular. Reward
// weights that are not all equal (TRL's reward_weights=[1.0, 0.5]) are
// not among the trainers' settings that MatchLogged tries one by one.
//
// With c_ik the oriented objective k of row i centred on its group's valid
// members and d_i the std that divides row i's advantage (its group's or
// its batch's, of the weighted scores, plus epsilon; 1 for scale none),
// grpo gives A_i = sum_k w_k c_ik / d_i. The weights solve
// min_w sum_i (sum_k w_k c_ik - A_i d_i)^2 with d_i taken from the weights
// of the round before, until they settle. Scaling every weight by one
// factor changes the advantages only through epsilon, so the weights are
// returned with the largest set to 1 (the commonest reward_weights), and
// with the factor that epsilon tells as a second candidate; a fit whose
// std is under ten times epsilon (nearly unscaled) is none.
func (res *Result) fitWeights(o Options) (candidates [][]float64, ok bool) {
	ev, m := res.Evaluation, res.Evaluation.M
	unscaled := !o.Normalize || o.Scale == ScaleNone
	type unit struct{ members []int } // the rows one std divides
	var rows []int                    // the valid rows with a logged advantage
	var units []unit
	unitOf := map[int]int{}
	c := make([]float64, len(ev.Valid)*m) // centred oriented values
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		var batchUnit []int
		for _, g := range b.Groups {
			valid := validMembers(nil, g.Members, ev.Valid)
			if len(valid) == 0 {
				continue
			}
			for k, obj := range ev.Objectives {
				mean := 0.0
				for _, i := range valid {
					mean += obj.orient(ev.Values[i*m+k])
				}
				mean /= float64(len(valid))
				for _, i := range valid {
					c[i*m+k] = obj.orient(ev.Values[i*m+k]) - mean
				}
			}
			if o.Scale != ScaleBatch || unscaled {
				units = append(units, unit{valid})
			} else {
				batchUnit = append(batchUnit, valid...)
			}
			for _, i := range valid {
				// A lone member's advantage follows the group-of-one
				// convention, not the weights.
				if l := ev.Logged[i]; len(valid) > 1 && !math.IsNaN(l) && !math.IsInf(l, 0) {
					rows = append(rows, i)
				}
			}
		}
		if len(batchUnit) > 0 {
			units = append(units, unit{batchUnit})
		}
	}
	for u, un := range units {
		for _, i := range un.members {
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
	eps := o.epsilon()
	// divisors returns each unit's std of the weighted scores plus
	// epsilon (1 for scale none).
	divisors := func(w []float64) []float64 {
		d := make([]float64, len(units))
		for u, un := range units {
			if unscaled {
				d[u] = 1
				continue
			}
			s := make([]float64, len(un.members))
			for j, i := range un.members {
				for k := range m {
					s[j] += w[k] * ev.Objectives[k].orient(ev.Values[i*m+k])
				}
			}
			d[u] = o.std(s) + eps
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
	w := slices.Clone(o.Weights)
	y := mat.NewVecDense(len(rows), nil)
	var sol mat.VecDense
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
			w = next
			break
		}
		// The direction comes from the solution, the scale, which only
		// epsilon tells, from scale.
		if !normalise(next) {
			return nil, false
		}
		if f := scale(next); f > 0 {
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
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
	}
	if !unscaled {
		// Weights so small that the std is about epsilon make grpo nearly
		// unscaled: such a fit mimics scale none and tells nothing.
		d := divisors(w)
		slices.Sort(d)
		if d[len(d)/2]-eps < 10*eps {
			return nil, false
		}
	}
	scaled := slices.Clone(w)
	if !normalise(w) {
		return nil, false
	}
	candidates = append(candidates, roundWeights(w, 4))
	if r := roundWeights(scaled, 4); !slices.Equal(r, candidates[0]) {
		candidates = append(candidates, r)
	}
	return candidates, true
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
