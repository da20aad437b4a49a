package scoring

import (
	"strconv"
	"strings"
)

// ConstraintBound is a constraint on one objective against a constant
// (`safety >= 0.9`, `0.9 <= safety`): the line a plot of that objective
// draws at Limit, feasible above it when Above (>=, >) and below it
// otherwise.
type ConstraintBound struct {
	Objective int
	Limit     float64
	Above     bool
}

// Bound returns the constraint as a ConstraintBound when one side of its
// comparison is an objective's name and the other a number; false for any
// other constraint (two objectives, a field, a boolean).
func (d ConstraintDef) Bound(objectives []Objective) (ConstraintBound, bool) {
	if d.Op == "" {
		return ConstraintBound{}, false
	}
	left, right, _ := strings.Cut(d.Expr, d.Op)
	left, right = strings.TrimSpace(left), strings.TrimSpace(right)
	above := d.Op == ">=" || d.Op == ">"
	// The objective on the right turns the comparison round.
	for _, side := range []struct {
		name, number string
		above        bool
	}{{left, right, above}, {right, left, !above}} {
		limit, err := strconv.ParseFloat(side.number, 64)
		if err != nil {
			continue
		}
		for k, o := range objectives {
			if o.Name == side.name {
				return ConstraintBound{Objective: k, Limit: limit, Above: side.above}, true
			}
		}
	}
	return ConstraintBound{}, false
}
