package scoring

import "testing"

// TestConstraintBound: a constraint of one objective against a number is
// a line, the objective on either side; any other constraint is not.
func TestConstraintBound(t *testing.T) {
	objs := []Objective{{Name: "accuracy"}, {Name: "safety"}, {Name: "length"}}
	for _, tc := range []struct {
		def  ConstraintDef
		want ConstraintBound
		ok   bool
	}{
		{ConstraintDef{Expr: "safety >= 0.9", Op: ">="}, ConstraintBound{Objective: 1, Limit: 0.9, Above: true}, true},
		{ConstraintDef{Expr: "length<512", Op: "<"}, ConstraintBound{Objective: 2, Limit: 512}, true},
		{ConstraintDef{Expr: "0.5 <= accuracy", Op: "<="}, ConstraintBound{Objective: 0, Limit: 0.5, Above: true}, true},
		{ConstraintDef{Expr: "1e3 > length", Op: ">"}, ConstraintBound{Objective: 2, Limit: 1000}, true},
		{ConstraintDef{Expr: "safety >= accuracy", Op: ">="}, ConstraintBound{}, false},
		{ConstraintDef{Expr: "safety >= 0.9 * accuracy", Op: ">="}, ConstraintBound{}, false},
		{ConstraintDef{Expr: "metadata.ok", Op: ""}, ConstraintBound{}, false},
		{ConstraintDef{Expr: "tokens <= 512", Op: "<="}, ConstraintBound{}, false},
	} {
		got, ok := tc.def.Bound(objs)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q: Bound = %+v, %v; want %+v, %v", tc.def.Expr, got, ok, tc.want, tc.ok)
		}
	}
}
