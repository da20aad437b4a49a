package scoring

// StructureFormula is one formula of the objectives' structure
// (constraints, gates, objective normalisation), as docs/CONTRACT.md's
// "Objectives with structure" states it: the dashboard's help lists them
// after the methods' formulas (MethodSpec.Formula).
type StructureFormula struct {
	Name, Formula string
}

// StructureFormulas are the structure's formulas, in the order the
// dashboard's help lists them. t_k is objective k's term in the score, o'
// the orientation (min goals negated), N the objective normalisation.
var StructureFormulas = []StructureFormula{
	{"violation", "v = sum over the constraints of the amount each is broken by: a >= b, a > b: max(0, b - a); a <= b, a < b: max(0, a - b) (a = b breaks > and < with 0); any other boolean 1 when false. Feasible: every constraint holds"},
	{"penalty", "s = sum_k w_k t_k - lambda v, lambda = --penalty (default 1); gdpo subtracts lambda v from its per-objective sum before its batch normalisation"},
	{"domination", "constrained (Deb et al. 2002): feasible dominates infeasible; of two infeasible, the smaller v dominates; two feasible compare by Pareto dominance. Ranks: the feasible fronts, then the infeasible by v"},
	{"lexicographic", "feasible first, then infeasible by v ascending, then the --priority objectives"},
	{"gate", "t_k = g_k o'(N_k(x_k)), g_k = 1 where the gate's EXPR holds, else 0 (also for a minimised objective); Pareto ranking sees the objectives ungated"},
	{"none", "N(x) = x"},
	{"minmax", "N(x) = (x - min) / (max - min), over the comparison scope; a constant objective gives 0"},
	{"zscore", "N(x) = (x - mean) / std0, over the comparison scope; a constant objective gives 0"},
	{"rank", "N(x) = (avgrank(x) - 1) / (n - 1), over the comparison scope; a constant objective gives 0"},
}
