package scoring

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
)

// Objective describes one component of a scorer's objective vector.
type Objective struct {
	Name   string
	Goal   Goal
	Weight float64
}

// Orient returns x as a larger-is-better value: x for a maximised objective,
// -x for a minimised one.
func (o Objective) Orient(x float64) float64 {
	if o.Goal == Minimize {
		return -x
	}
	return x
}

// Scorer maps a trajectory to an objective vector and a scalar score
// (docs/CONTRACT.md, Scorers). Implementations reuse buffers: a Scorer is not safe for
// concurrent use.
type Scorer interface {
	// Objectives describes the vector Evaluate writes: names, goals, weights.
	Objectives() []Objective
	// Evaluate writes t's raw objective values into dst (len(Objectives())).
	// A non-nil error is an *InvalidError saying which objective is not a
	// finite number and why.
	Evaluate(t *Trajectory, dst []float64) error
}

// Cloner is a Scorer that can copy itself for another goroutine:
// Evaluate runs the copies in parallel. The copies share what is read-only.
type Cloner interface {
	CloneScorer() Scorer
}

// InvalidError says why a trajectory is invalid: which objective (or the
// score) is not a finite number, and one of the cause errors of this package.
type InvalidError struct {
	Objective string
	Err       error
}

func (e *InvalidError) Error() string { return e.Objective + ": " + e.Err.Error() }
func (e *InvalidError) Unwrap() error { return e.Err }

// causeErrors are the errors an InvalidError's cause ends with, as a
// count of causes tells them apart (an EvalError is ErrEval, a
// NotNumberError ErrNotNumber, whatever their reason).
var causeErrors = []error{ErrMissing, ErrNotNumber, ErrNaN, ErrInf, ErrEval, ErrBudget, errNotBoolean}

// CauseErrors returns the errors a cause of invalidity can end with, so
// that a caller builds the causes an evaluation can give (InvalidError's
// text of each subject and error) rather than parsing one.
func CauseErrors() []error { return slices.Clone(causeErrors) }

// Score returns the scalar score of the raw objective values:
// s = sum_k w_k * o'_k, with o' the oriented values and w the weights
// (the objectives' own weights when weights is nil).
func Score(objectives []Objective, weights, values []float64) float64 {
	s := 0.0
	for k, o := range objectives {
		w := o.Weight
		if weights != nil {
			w = weights[k]
		}
		s += w * o.Orient(values[k])
	}
	return s
}

// ScoreWeights computes Score, with the objectives' own weights, row after
// row: each weight is multiplied by its objective's orientation once, not
// for every value (w_k o'_k = c_k x_k exactly, a sign change being exact).
// The scores of 100k trajectories of three objectives take 0.2 ms rather
// than 2.5.
type ScoreWeights []float64

func NewScoreWeights(objectives []Objective) ScoreWeights {
	c := make(ScoreWeights, len(objectives))
	for k, o := range objectives {
		c[k] = o.Orient(o.Weight)
	}
	return c
}

// Score returns Score(objectives, nil, values) for the objectives c was
// made of.
func (c ScoreWeights) Score(values []float64) float64 {
	s := 0.0
	for k, x := range values[:len(c)] {
		s += c[k] * x
	}
	return s
}

// Score32 returns the score of values as a trainer that sums in float32
// computes it (Sum32 of c and values).
func (c ScoreWeights) Score32(values []float64) float64 { return Sum32(c, values[:len(c)]) }

// Sum32 returns sum_k w_k x_k in float32 arithmetic, as TRL's
// _generate_and_score_completions computes its rewards,
// (rewards_per_func * reward_weights).nansum(dim=1) on float32 tensors:
// each w_k and x_k rounded to float32, each product rounded to float32,
// the products added from the first to the last, each sum rounded to
// float32. Two terms give the same sum in any order; torch may add three
// or more in another order than this one. len(values) >= len(weights).
func Sum32(weights, values []float64) float64 {
	var s float32
	for k, w := range weights {
		// The explicit conversions round each product and each sum, so
		// that no fused multiply-add skips a rounding the trainer does.
		s = float32(s + float32(float32(w)*float32(values[k])))
	}
	return float64(s)
}

// ObjectiveExpr is a pareto objective as configured: a name, an expression,
// a goal and a weight (NaN for the default 1/m).
type ObjectiveExpr struct {
	Name   string
	Expr   string
	Goal   Goal
	Weight float64
}

// ParetoScorer is the generic multi-objective scorer: every objective is an
// expression over the trajectory.
type ParetoScorer struct {
	objectives []Objective
	exprs      []*Expression
	// pick is Pick's, nil when some expression reads more than a metadata
	// value; pickAt[k] is the index in pick.Keys of objective k's key.
	pick   *Pick
	pickAt []int
	// nanSum: a missing or NaN objective counts 0 (Evaluate); valued[k]
	// is then set once objective k was not missing in some trajectory
	// evaluated (by this scorer or its copies, which share the array), so
	// that an objective whose field no trajectory has stays an error
	// (NoValid) rather than a silent 0.
	nanSum bool
	valued []atomic.Bool
}

// NewParetoScorer compiles the objectives' expressions. An objective whose
// Weight is NaN gets the default weight 1/m. Names must be unique and
// non-empty.
func NewParetoScorer(objs []ObjectiveExpr) (*ParetoScorer, error) {
	if len(objs) == 0 {
		return nil, errors.New("the pareto scorer needs at least one objective")
	}
	s := &ParetoScorer{}
	seen := map[string]bool{}
	for _, o := range objs {
		if o.Name == "" {
			return nil, fmt.Errorf("objective %q has no name", o.Expr)
		}
		if seen[o.Name] {
			return nil, fmt.Errorf("objective %q is given twice", o.Name)
		}
		seen[o.Name] = true
		e, err := CompileExpression(o.Name, o.Expr)
		if err != nil {
			return nil, err
		}
		w := o.Weight
		if math.IsNaN(w) {
			w = 1 / float64(len(objs))
		}
		goal := o.Goal
		if goal == "" {
			goal = Maximize
		}
		s.objectives = append(s.objectives, Objective{Name: o.Name, Goal: goal, Weight: w})
		s.exprs = append(s.exprs, e)
	}
	s.pick, s.pickAt = pickOf(s.exprs)
	return s, nil
}

// pickOf returns the Pick of expressions that each read one metadata value
// and nothing else, and the index of each one's key in it; nil otherwise.
func pickOf(exprs []*Expression) (*Pick, []int) {
	pick := &Pick{}
	at := make([]int, len(exprs))
	// The keys' indexes by key: the objectives inferred from a record of
	// a million numeric fields are a million (slices.Index took an hour).
	index := make(map[string]int, len(exprs))
	for k, e := range exprs {
		if !e.direct {
			return nil, nil
		}
		i, ok := index[e.key]
		if !ok {
			i = len(pick.Keys)
			index[e.key] = i
			pick.Keys = append(pick.Keys, e.key)
		}
		at[k] = i
	}
	return pick, at
}

// Objectives implements Scorer.
func (s *ParetoScorer) Objectives() []Objective { return s.objectives }

// NanSum reports whether s counts a missing objective 0 (nansum).
func (s *ParetoScorer) NanSum() bool { return s.nanSum }

// SetNanSum makes a missing or NaN objective count 0 (Evaluate).
func (s *ParetoScorer) SetNanSum() {
	s.nanSum, s.valued = true, make([]atomic.Bool, len(s.exprs))
}

// NeverValued returns the objectives that were missing (absent or null)
// in every trajectory evaluated with nansum, by index; nil without
// nansum.
func (s *ParetoScorer) NeverValued() []int {
	var out []int
	for k := range s.valued {
		if !s.valued[k].Load() {
			out = append(out, k)
		}
	}
	return out
}

// Pick returns the metadata keys that the objectives read when each reads
// one metadata value and nothing else (metadata.KEY, metadata["KEY"] or a
// bare KEY that names no field), else nil. The scorer gives a trajectory
// read with this Pick the values it gives it with its whole metadata.
// The Pick is the scorer's: do not change it.
func (s *ParetoScorer) Pick() *Pick { return s.pick }

// CloneScorer implements Cloner.
func (s *ParetoScorer) CloneScorer() Scorer {
	c := &ParetoScorer{objectives: s.objectives, exprs: make([]*Expression, len(s.exprs)), pick: s.pick, pickAt: s.pickAt, nanSum: s.nanSum, valued: s.valued}
	for k, e := range s.exprs {
		c.exprs[k] = e.Clone()
	}
	return c
}

// Evaluate implements Scorer. With nansum (setup.Config.NanSum), an objective
// that is missing (absent, null) or NaN counts 0, adding nothing to the
// score, as TRL's nansum over its reward functions does; the trajectory is
// invalid only when every objective is so ("all objectives: missing"), as
// TRL then leaves the row out of its baseline and gives it advantage 0.
func (s *ParetoScorer) Evaluate(t *Trajectory, dst []float64) error {
	return s.EvaluateAbsent(t, dst, nil)
}

// EvaluateAbsent is Evaluate that also marks, in absent when not nil, the
// objectives nansum counted 0 (engine.Evaluation.Absent).
func (s *ParetoScorer) EvaluateAbsent(t *Trajectory, dst []float64, absent []bool) error {
	var first error
	missing := 0
	for k, e := range s.exprs {
		var v float64
		var err error
		if t.Pick != nil && t.Pick == s.pick {
			v, err = t.pickedAt(s.pickAt[k])
		} else {
			v, err = e.Eval(t)
		}
		if s.nanSum && err != ErrMissing && !s.valued[k].Load() {
			s.valued[k].Store(true)
		}
		counted0 := s.nanSum && (err == ErrMissing || err == ErrNaN)
		if counted0 {
			v, err = 0, nil
			missing++
		}
		if absent != nil {
			absent[k] = counted0
		}
		dst[k] = v
		if err != nil && first == nil {
			first = &InvalidError{Objective: s.objectives[k].Name, Err: err}
		}
	}
	if first == nil && missing == len(s.exprs) {
		first = &InvalidError{Objective: "all objectives", Err: ErrMissing}
	}
	return first
}

// SVRL's objective names.
const (
	SVRLTask             = "task"
	SVRLVerificationCost = "verification_cost"
	SVRLEfficiency       = "efficiency"
)

// SVRLScorer scores self-verification under a budget: the task objective, the
// fraction of the verification budget spent (minimised) and the fraction of
// the step budget left (maximised), so that
// s = task - verification_weight * verification_cost + efficiency_weight * efficiency.
type SVRLScorer struct {
	objectives []Objective
	task       *Expression
}

// NewSVRLScorer compiles the task expression.
func NewSVRLScorer(task string, verificationWeight, efficiencyWeight float64) (*SVRLScorer, error) {
	e, err := CompileExpression(SVRLTask, task)
	if err != nil {
		return nil, err
	}
	return &SVRLScorer{
		task: e,
		objectives: []Objective{
			{Name: SVRLTask, Goal: Maximize, Weight: 1},
			{Name: SVRLVerificationCost, Goal: Minimize, Weight: verificationWeight},
			{Name: SVRLEfficiency, Goal: Maximize, Weight: efficiencyWeight},
		},
	}, nil
}

// SetWeights sets the weight of each objective that weights names.
func (s *SVRLScorer) SetWeights(weights map[string]float64) {
	for k := range s.objectives {
		if w, ok := weights[s.objectives[k].Name]; ok {
			s.objectives[k].Weight = w
		}
	}
}

// Objectives implements Scorer.
func (s *SVRLScorer) Objectives() []Objective { return s.objectives }

// CloneScorer implements Cloner.
func (s *SVRLScorer) CloneScorer() Scorer {
	return &SVRLScorer{objectives: s.objectives, task: s.task.Clone()}
}

// Evaluate implements Scorer:
//
//	task              = the task expression
//	verification_cost = verification_spent / initial_budget (0 when initial_budget is missing or <= 0;
//	                    a missing verification_spent counts as 0)
//	efficiency        = clamp(1 - step_count / max_steps, 0, 1) (0 when max_steps is missing or <= 0)
//
// A metadata value that is null counts as missing; one that is present but
// not a number makes the trajectory invalid.
func (s *SVRLScorer) Evaluate(t *Trajectory, dst []float64) error {
	var first error
	fail := func(k int, err error) {
		if err != nil && first == nil {
			first = &InvalidError{Objective: s.objectives[k].Name, Err: err}
		}
	}
	var err error
	dst[0], err = s.task.Eval(t)
	fail(0, err)
	dst[1], err = verificationCost(t.Metadata)
	fail(1, err)
	dst[2], err = efficiency(t)
	fail(2, err)
	return first
}

func verificationCost(md map[string]any) (float64, error) {
	budget, ok, err := metadataNumber(md, "initial_budget")
	if err != nil {
		return math.NaN(), err
	}
	if !ok || budget <= 0 {
		return 0, nil
	}
	spent, ok, err := metadataNumber(md, "verification_spent")
	if err != nil {
		return math.NaN(), err
	}
	if !ok {
		return 0, nil
	}
	v := spent / budget
	return v, Finite(v)
}

func efficiency(t *Trajectory) (float64, error) {
	maxSteps, ok, err := metadataNumber(t.Metadata, "max_steps")
	if err != nil {
		return math.NaN(), err
	}
	if !ok || maxSteps <= 0 {
		return 0, nil
	}
	v := 1 - float64(t.StepCount)/maxSteps
	if err := Finite(v); err != nil {
		return math.NaN(), err
	}
	return min(max(v, 0), 1), nil
}

// metadataNumber returns md[key] as a number; ok is false when the key is
// absent or null.
func metadataNumber(md map[string]any, key string) (x float64, ok bool, err error) {
	v, present := md[key]
	if !present || v == nil {
		return 0, false, nil
	}
	x, err = toNumber(v)
	if errors.Is(err, ErrNotNumber) {
		return math.NaN(), true, err
	}
	return x, true, err
}
