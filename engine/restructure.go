package engine

import (
	"context"
	"maps"
	"slices"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/parallel"
)

// Restructure changes an evaluation's constraints and gates without
// evaluating its objectives again (the dashboard's weights editor): the
// objectives' raw values are kept, and the constraints and gates, which
// see those values and the trajectory's fields (constraints.go), are
// evaluated anew. The evaluation it gives is the one the scorer with the
// new constraints and gates gives on the same trajectories.
type Restructure struct {
	scorer scoring.Scorer
	st     *scoring.Structure
	// readsBody says that an expression reads more of a trajectory than a
	// lean one keeps (Trajectory.DropBody): its response, its metadata,
	// or a name that is neither an objective nor id, batch, group,
	// step_count or done.
	readsBody bool
}

// NewRestructure compiles constraints and gates (gates as "NAME: EXPR")
// over the objectives of s, the scorer an evaluation was made with (with
// or without constraints and gates of its own, which the new ones
// replace). Its errors are WithStructure's: a constraint or gate that is
// not a boolean, a gate of no objective ("did you mean"), an expression
// that does not compile.
func NewRestructure(s scoring.Scorer, constraints, gates []string) (*Restructure, error) {
	inner, _ := scoring.Unstructured(s)
	scorer, err := scoring.WithStructure(inner, constraints, gates)
	if err != nil {
		return nil, err
	}
	_, st := scoring.Unstructured(scorer)
	return &Restructure{scorer: scorer, st: st, readsBody: st.ReadsBody()}, nil
}

// Scorer returns the scorer with the new constraints and gates: what
// evaluates trajectories added later.
func (r *Restructure) Scorer() scoring.Scorer { return r.scorer }

// ReadsBody reports whether the constraints and gates read more of a
// trajectory than a lean one keeps: Apply must then be given whole ones.
func (r *Restructure) ReadsBody() bool { return r.readsBody }

// Apply returns ev with r's constraints and gates, evaluated on the
// trajectories that trajectory(i) returns for each index i of ev (whole
// ones when ReadsBody; with ReadsBody it is called on one goroutine, in
// order, else on several at once). A trajectory invalid by its objectives
// stays so and is not asked for; one that was invalid by a constraint or
// gate of ev is evaluated again. ev is not changed. An error of
// trajectory, or ctx's once done, stops it.
func (r *Restructure) Apply(ctx context.Context, ev *Evaluation, trajectory func(i int) (*scoring.Trajectory, error)) (*Evaluation, error) {
	n := ev.N()
	out := &Evaluation{
		Objectives: ev.Objectives, M: ev.M, Values: ev.Values, Absent: ev.Absent, Logged: ev.Logged, loggedExpr: ev.loggedExpr, LoggedFaults: ev.LoggedFaults,
		batches: ev.batches, stepCounts: ev.stepCounts, groupOf: ev.groupOf, groupNames: ev.groupNames, groupRuns: ev.groupRuns,
		SourceNames: ev.SourceNames, sourceOf: ev.sourceOf, sourceScorer: ev.sourceScorer,
		sourceWeights: ev.sourceWeights, sourceColumns: ev.sourceColumns,
		Valid: make([]bool, n), Causes: make([]string, n),
	}
	// The arrays shared with ev end where ev's do: appending to out copies
	// them, and appending to ev writes where out never looks.
	out.clip()
	var c int
	if r.st != nil {
		out.Constraints, out.Gates = r.st.Defs()
		c = len(out.Constraints)
		if c > 0 {
			out.Violation, out.feasible, out.ConstraintHolds = make([]float64, n), make([]bool, n), make([]bool, n*c)
		}
		if len(out.Gates) > 0 {
			out.GateShut = make([]bool, n*ev.M)
		}
	}
	byStructure := structureCauses(ev)
	// evaluate returns the first reason of each cause (EvalReason), as
	// Evaluation.evaluate does.
	evaluate := func(st *scoring.Structure, lo, hi int) (map[string]firstReason, error) {
		var failed failures
		for i := lo; i < hi; i++ {
			if !ev.Valid[i] && !byStructure(ev.Causes[i]) {
				out.Causes[i] = ev.Causes[i]
				continue
			}
			if st == nil {
				out.Valid[i] = true
				continue
			}
			if i%1024 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			t, err := trajectory(i)
			if err != nil {
				return nil, err
			}
			var holds, shut []bool
			var violation float64
			if c > 0 {
				holds = out.ConstraintHolds[i*c : (i+1)*c]
			}
			if out.GateShut != nil {
				shut = out.GateShut[i*ev.M : (i+1)*ev.M]
			}
			if err := st.Evaluate(t, ev.Row(i), holds, &violation, shut); err != nil {
				failed.add(err, i, out.Causes)
				continue
			}
			out.Valid[i] = true
			if c > 0 {
				out.Violation[i], out.feasible[i] = violation, !slices.Contains(holds, false)
			}
		}
		return failed.reasons, nil
	}
	if r.readsBody {
		reasons, err := evaluate(r.st, 0, n)
		if err != nil {
			return nil, err
		}
		out.evalReasons = restructuredReasons(ev, byStructure, reasons)
		return out, ctx.Err()
	}
	nw := parallel.Workers(n, evalChunk)
	sts := make([]*scoring.Structure, nw)
	errs := make([]error, nw)
	reasons := make([]map[string]firstReason, nw) // per goroutine
	for w := range sts {
		if sts[w] = r.st; w > 0 && r.st != nil {
			sts[w] = r.st.Clone()
		}
	}
	parallel.Chunks(n, evalChunk, nw, func(w, lo, hi int) {
		if errs[w] == nil {
			var chunk map[string]firstReason
			chunk, errs[w] = evaluate(sts[w], lo, hi)
			reasons[w] = mergeReasons(reasons[w], chunk)
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var first map[string]firstReason
	for _, r := range reasons {
		first = mergeReasons(first, r)
	}
	out.evalReasons = restructuredReasons(ev, byStructure, first)
	return out, nil
}

// restructuredReasons returns ev's evaluation reasons (EvalReason) with
// those of its constraints and gates (byStructure) replaced by first, the
// reasons of the new ones: a copy, ev's own are not changed.
func restructuredReasons(ev *Evaluation, byStructure func(cause string) bool, first map[string]firstReason) map[string]firstReason {
	reasons := maps.Clone(ev.evalReasons)
	maps.DeleteFunc(reasons, func(cause string, _ firstReason) bool { return byStructure(cause) })
	for cause, r := range first {
		if reasons == nil {
			reasons = map[string]firstReason{}
		}
		reasons[cause] = r
	}
	return reasons
}

// structureCauses returns whether a cause of ev's is one of its
// constraints' or gates' (evaluated once the objectives were: a
// trajectory of that cause has all its objectives' values).
func structureCauses(ev *Evaluation) func(cause string) bool {
	return func(cause string) bool {
		c, ok := ev.CauseOf(cause)
		return ok && c.Setting()
	}
}
