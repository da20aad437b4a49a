package engine

import (
	"fmt"
	"math"
	"strings"
)

// Feasible reports whether trajectory i meets every constraint (true
// without constraints).
func (ev *Evaluation) Feasible(i int) bool {
	return ev.feasible == nil || ev.feasible[i]
}

// ViolationOf returns trajectory i's violation: the sum of the amounts by
// which it breaks the constraints, 0 without constraints.
func (ev *Evaluation) ViolationOf(i int) float64 {
	if ev.Violation == nil {
		return 0
	}
	return ev.Violation[i]
}

// HasConstraints reports whether the evaluation has constraints.
func (ev *Evaluation) HasConstraints() bool { return len(ev.Constraints) > 0 }

// Holds reports whether trajectory i meets constraint c.
func (ev *Evaluation) Holds(i, c int) bool { return ev.ConstraintHolds[i*len(ev.Constraints)+c] }

// InfeasibleWarning says, when there are constraints and no valid
// trajectory meets them all, that every one is infeasible and the ranks
// go by violation alone; "" otherwise.
func (ev *Evaluation) InfeasibleWarning() string {
	if !ev.HasConstraints() {
		return ""
	}
	valid := 0
	for i, ok := range ev.Valid {
		if ok {
			if ev.feasible[i] {
				return ""
			}
			valid++
		}
	}
	if valid == 0 {
		return ""
	}
	exprs := make([]string, len(ev.Constraints))
	for c, d := range ev.Constraints {
		exprs[c] = d.Expr
	}
	return fmt.Sprintf("every one of the %d valid trajectories breaks a constraint (%s): pareto ranks go by violation alone, and every score carries its penalty", valid, strings.Join(exprs, "; "))
}

// FeasibilityKeys returns, per trajectory, the key that orders them by
// feasibility then violation: -1 for a feasible one, its violation for a
// valid one that breaks a constraint (0 for one that meets a strict
// comparison with equality), NaN for an invalid one, whose score is NaN
// too: a table sorts it where it sorts those. It is computed once per
// evaluation (its Cache).
func (ev *Evaluation) FeasibilityKeys() []float64 {
	return Cached(&ev.cache, CacheKey{Of: ofFeasibilityKeys}, func(keys []float64) bool { return len(keys) == ev.N() }, func() []float64 {
		keys := make([]float64, ev.N())
		for i := range keys {
			switch {
			case !ev.Valid[i]:
				keys[i] = math.NaN()
			case ev.Feasible(i):
				keys[i] = -1
			default:
				keys[i] = ev.ViolationOf(i)
			}
		}
		return keys
	})
}
