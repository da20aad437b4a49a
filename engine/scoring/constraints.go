package scoring

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine/sandbox"
	"github.com/rewardlens/rewardlens/internal/suggest"
	"github.com/rewardlens/rewardlens/stats"
)

// Constraints and gates (docs/CONTRACT.md, Objectives with structure) are
// expressions over a trajectory's raw objective values, by name, and its
// fields, as objectives' expressions see them; they are evaluated with the
// objectives, and the engine's Evaluation keeps what they give.
//
// A constraint holds or is broken by an amount:
//
//	a >= b: broken when a < b, by b - a      a > b: broken when a <= b, by max(0, b - a)
//	a <= b: broken when a > b, by a - b      a < b: broken when a >= b, by max(0, a - b)
//	any other boolean: broken when false, by 1
//
// A trajectory is feasible when every constraint holds; its violation is
// the sum of the amounts.

// ConstraintDef is a constraint as configured: its expression.
type ConstraintDef struct {
	Expr string
	// Op is the comparison whose amount is measured (">=", "<=", ">",
	// "<"), or "" for a boolean broken by 1.
	Op string
}

// GateDef is a gate as configured: the objective whose term it gates and
// the expression under which the term counts.
type GateDef struct {
	Objective string
	Expr      string
}

// constraint is a compiled constraint: the whole expression for a boolean
// one, its two sides for a comparison; failed names it in the rows it
// fails on.
type constraint struct {
	def         ConstraintDef
	failed      settingFailures
	whole       *Expression
	left, right *Expression
}

// gate is a compiled gate of objective k; failed names it in the rows it
// fails on.
type gate struct {
	def    GateDef
	failed settingFailures
	k      int
	e      *Expression
}

// settingFailures are the InvalidErrors of a constraint or gate, named
// by its subject (its Subject): those of an error that says nothing of
// the row (sharedErrors) are made when it is compiled and shared by the
// rows that fail so; another (an evaluation error's reason, the value
// that is not a number) is made for its row, with the same subject.
type settingFailures struct {
	subject string
	shared  []*InvalidError
}

// sharedErrors are the errors of a constraint or gate that carry nothing
// of the row they come from.
var sharedErrors = []error{ErrMissing, ErrNaN, ErrInf, errNotBoolean}

func newSettingFailures(subject string) settingFailures {
	f := settingFailures{subject: subject, shared: make([]*InvalidError, len(sharedErrors))}
	for i, err := range sharedErrors {
		f.shared[i] = &InvalidError{Objective: subject, Err: err}
	}
	return f
}

// of returns the InvalidError of a row that failed with err. The caller
// must not modify it.
func (f *settingFailures) of(err error) *InvalidError {
	for _, ie := range f.shared {
		if ie.Err == err {
			return ie
		}
	}
	return &InvalidError{Objective: f.subject, Err: err}
}

// Structure is the constraints and gates of a scorer: read-only but for
// their expressions' VMs, which every copy (clone) has its own of.
type Structure struct {
	constraints []constraint
	gates       []gate
	// objectives maps an objective's name to its index in the rows.
	objectives map[string]int
}

// The names of the settings, as errors name them.
const (
	ConstraintSetting = "constraint"
	GateSetting       = "gate"
)

// objectiveEnv returns the type checker's environment for constraints and
// gates: the trajectory's fields and the objectives, numbers.
func objectiveEnv(objectives []Objective) map[string]any {
	env := maps.Clone(exprEnvTypes)
	for _, o := range objectives {
		env[o.Name] = 0.0
	}
	return env
}

// newStructure compiles constraints and gates (gates as "NAME: EXPR")
// over objectives. A constraint or gate that is not a boolean, a gate of
// no objective, and an expression that does not compile are errors naming
// them. It returns nil when there are neither.
func newStructure(objectives []Objective, constraints, gates []string) (*Structure, error) {
	if len(constraints) == 0 && len(gates) == 0 {
		return nil, nil
	}
	st := &Structure{objectives: map[string]int{}}
	names := make([]string, len(objectives))
	for k, o := range objectives {
		st.objectives[o.Name] = k
		names[k] = o.Name
	}
	env := objectiveEnv(objectives)
	for _, src := range constraints {
		c, err := compileConstraint(src, env)
		if err != nil {
			return nil, err
		}
		c.failed = newSettingFailures(c.def.Subject())
		st.constraints = append(st.constraints, c)
	}
	for _, spec := range gates {
		name, src, err := splitGate(spec)
		if err != nil {
			return nil, err
		}
		k, found := st.objectives[name]
		if !found {
			hint := suggest.DidYouMean(suggest.Near(name, names))
			if hint == "" {
				hint = " (objectives: " + strings.Join(names, ", ") + ")"
			}
			return nil, fmt.Errorf("gate %q: no objective %q%s", spec, name, hint)
		}
		e, err := compileBoolean(GateSetting+" "+name, src, env)
		if err != nil {
			return nil, err
		}
		def := GateDef{Objective: name, Expr: src}
		st.gates = append(st.gates, gate{def: def, failed: newSettingFailures(def.Subject()), k: k, e: e})
	}
	return st, nil
}

// splitGate splits a gate "NAME: EXPR" into its objective's name and its
// expression.
func splitGate(spec string) (name, src string, err error) {
	name, src, ok := strings.Cut(spec, ":")
	name, src = strings.TrimSpace(name), strings.TrimSpace(src)
	if !ok || name == "" || src == "" {
		return "", "", fmt.Errorf("gate %q: want 'NAME: EXPR'", spec)
	}
	return name, src, nil
}

// CheckGates checks what of the gates (each "NAME: EXPR") does not need
// the objectives: their form, and that each expression parses, failing
// with the error compiling them fails with (a *CompileError for the
// syntax). Whether NAME is an objective and the expression's types are
// checked once the objectives are known (WithStructure).
func CheckGates(gates []string) error {
	for _, spec := range gates {
		name, src, err := splitGate(spec)
		if err != nil {
			return err
		}
		if _, ok := inferredKey(src); ok {
			continue // compiled without a parser (compileExpression)
		}
		if se := (*sandbox.Error)(nil); errors.As(sandbox.Parse(src), &se) {
			return &CompileError{Name: GateSetting + " " + name, Source: src, Line: se.Line, Column: se.Column, Msg: se.Msg}
		}
	}
	return nil
}

// compileBoolean compiles src, refusing a value that is known not to be a
// boolean (a value of unknown type, a metadata field, is checked as it
// runs).
func compileBoolean(name, src string, env map[string]any) (*Expression, error) {
	e, err := compileExpression(name, src, env)
	if err != nil {
		return nil, err
	}
	if e.program == nil {
		return e, nil // metadata["KEY"]: a field's value, checked as it runs
	}
	if t := e.program.Type(); t != nil && t.Kind() != reflect.Bool && t.Kind() != reflect.Interface {
		return nil, fmt.Errorf("%s %q is not a boolean (its value is a %s): write a comparison such as %s >= 0.5", name, src, t, src)
	}
	e.direct = false // a bare name may be an objective: the VM reads it
	return e, nil
}

// comparisons are the operators whose amount a constraint measures.
var comparisons = []string{">=", "<=", ">", "<"}

// compileConstraint compiles a constraint: a comparison of two numbers
// at its top is measured, anything else must be a boolean.
func compileConstraint(src string, env map[string]any) (constraint, error) {
	whole, err := compileBoolean(ConstraintSetting, src, env)
	if err != nil {
		return constraint{}, err
	}
	c := constraint{def: ConstraintDef{Expr: src}, whole: whole}
	op, left, right, ok := sandbox.Comparison(src, comparisons)
	if !ok {
		return c, nil
	}
	sides := [2]*Expression{}
	for s, side := range []string{left, right} {
		e, err := compileExpression(ConstraintSetting, side, env)
		if err != nil {
			return constraint{}, err
		}
		if e.program != nil {
			if t := e.program.Type(); t != nil && !numericKind(t.Kind()) && t.Kind() != reflect.Interface {
				return c, nil // compares strings, say: a boolean
			}
			e.direct = false
		}
		sides[s] = e
	}
	c.def.Op, c.whole, c.left, c.right = op, nil, sides[0], sides[1]
	return c, nil
}

func numericKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// Clone returns a copy of st with its own VMs.
func (st *Structure) Clone() *Structure {
	c := &Structure{objectives: st.objectives, constraints: slices.Clone(st.constraints), gates: slices.Clone(st.gates)}
	cl := func(e *Expression) *Expression {
		if e == nil {
			return nil
		}
		return e.Clone()
	}
	for i := range c.constraints {
		x := &c.constraints[i]
		x.whole, x.left, x.right = cl(x.whole), cl(x.left), cl(x.right)
	}
	for i := range c.gates {
		c.gates[i].e = c.gates[i].e.Clone()
	}
	return c
}

// Defs returns the constraints' and the gates' definitions.
func (st *Structure) Defs() ([]ConstraintDef, []GateDef) {
	cs := make([]ConstraintDef, len(st.constraints))
	for i, c := range st.constraints {
		cs[i] = c.def
	}
	gs := make([]GateDef, len(st.gates))
	for i, g := range st.gates {
		gs[i] = g.def
	}
	return cs, gs
}

// SettingFields is a constraint or a gate and the fields it reads.
type SettingFields struct {
	// Subject is the constraint or gate as its causes name it
	// (InvalidError.Objective): "constraint EXPR", "gate NAME: EXPR".
	Subject string
	// Fields are the fields its expressions read by name, sorted, the
	// objectives' names (which win over fields) left out.
	Fields []string
}

// FieldsRead returns the fields each constraint, then each gate, reads.
func (st *Structure) FieldsRead() []SettingFields {
	var out []SettingFields
	add := func(subject string, es ...*Expression) {
		var fields []string
		for _, e := range es {
			if e == nil {
				continue
			}
			for _, f := range e.FieldsRead() {
				if _, objective := st.objectives[f]; !objective {
					fields = append(fields, f)
				}
			}
		}
		slices.Sort(fields)
		out = append(out, SettingFields{Subject: subject, Fields: slices.Compact(fields)})
	}
	for _, c := range st.constraints {
		add(c.failed.subject, c.whole, c.left, c.right)
	}
	for _, g := range st.gates {
		add(g.failed.subject, g.e)
	}
	return out
}

// Subject is how an InvalidError names the constraint
// (InvalidError.Objective): "constraint EXPR".
func (def ConstraintDef) Subject() string { return ConstraintSetting + " " + def.Expr }

// Subject is how an InvalidError names the gate
// (InvalidError.Objective): "gate NAME: EXPR".
func (def GateDef) Subject() string { return GateSetting + " " + def.Objective + ": " + def.Expr }

// valueOn evaluates e on t with the objectives' raw values row bound to
// their names (they win over fields and metadata keys of the same name).
func (st *Structure) valueOn(e *Expression, t *Trajectory, row []float64) (any, error) {
	if e.program == nil {
		return t.Metadata[e.key], nil // metadata["KEY"]: a field, by its form
	}
	env := e.env
	clear(env)
	if e.fullEnv {
		e.fillFull(env, t)
	}
	for _, name := range e.names {
		if k, ok := st.objectives[name]; ok {
			env[name] = row[k]
		} else if !e.fullEnv {
			e.setName(env, name, t)
		}
	}
	if e.fullEnv {
		for name, k := range st.objectives {
			env[name] = row[k]
		}
	}
	return e.run(env, t)
}

// errNotBoolean is the cause of a constraint or gate whose value is not a
// boolean.
var errNotBoolean = errors.New("not a boolean")

// booleanOn evaluates e on t as a boolean.
func (st *Structure) booleanOn(e *Expression, t *Trajectory, row []float64) (bool, error) {
	v, err := st.valueOn(e, t, row)
	if err != nil {
		return false, err
	}
	switch b := v.(type) {
	case bool:
		return b, nil
	case nil:
		return false, ErrMissing
	}
	return false, errNotBoolean
}

// numberOn evaluates e on t as a finite number.
func (st *Structure) numberOn(e *Expression, t *Trajectory, row []float64) (float64, error) {
	v, err := st.valueOn(e, t, row)
	if err != nil {
		return math.NaN(), err
	}
	return toNumber(v)
}

// Evaluate writes, for t of raw objective values row, whether each
// constraint holds (holds), its violation and which gates shut their
// objective's term (shut, per objective). An error, an *InvalidError
// that the caller must not modify (rows that fail alike share it), names
// the constraint or gate that could not be evaluated.
func (st *Structure) Evaluate(t *Trajectory, row []float64, holds []bool, violation *float64, shut []bool) error {
	v := 0.0
	for c := range st.constraints {
		x := &st.constraints[c]
		ok, amount, err := st.measure(x, t, row)
		if err != nil {
			return x.failed.of(err)
		}
		holds[c] = ok
		v += amount
	}
	*violation = stats.Saturate(v)
	for g := range st.gates {
		x := &st.gates[g]
		open, err := st.booleanOn(x.e, t, row)
		if err != nil {
			return x.failed.of(err)
		}
		if !open {
			shut[x.k] = true
		}
	}
	return nil
}

// measure returns whether constraint c holds on t and by how much it is
// broken.
func (st *Structure) measure(c *constraint, t *Trajectory, row []float64) (bool, float64, error) {
	if c.whole != nil {
		ok, err := st.booleanOn(c.whole, t, row)
		if err != nil || ok {
			return ok, 0, err
		}
		return false, 1, nil
	}
	a, err := st.numberOn(c.left, t, row)
	if err != nil {
		return false, 0, err
	}
	b, err := st.numberOn(c.right, t, row)
	if err != nil {
		return false, 0, err
	}
	switch c.def.Op {
	case ">=":
		return a >= b, max(0, b-a), nil
	case ">":
		return a > b, max(0, b-a), nil
	case "<=":
		return a <= b, max(0, a-b), nil
	default: // "<"
		return a < b, max(0, a-b), nil
	}
}

// structuredScorer is a scorer with constraints or gates: its objectives
// are the inner scorer's, and the Evaluator asks it for the rest.
type structuredScorer struct {
	inner Scorer
	st    *Structure
}

// Objectives implements Scorer.
func (s *structuredScorer) Objectives() []Objective { return s.inner.Objectives() }

// Evaluate implements Scorer: the inner scorer's values.
func (s *structuredScorer) Evaluate(t *Trajectory, dst []float64) error {
	return s.inner.Evaluate(t, dst)
}

// clonableStructured is a structuredScorer whose inner scorer can copy
// itself: so can it.
type clonableStructured struct{ structuredScorer }

// CloneScorer implements Cloner.
func (s *clonableStructured) CloneScorer() Scorer {
	inner := s.inner.(Cloner).CloneScorer()
	return &clonableStructured{structuredScorer{inner: inner, st: s.st.Clone()}}
}

// WithStructure returns s with the constraints and gates compiled over
// its objectives (docs/CONTRACT.md, Objectives with structure), or s itself
// when there are none.
func WithStructure(s Scorer, constraints, gates []string) (Scorer, error) {
	st, err := newStructure(s.Objectives(), constraints, gates)
	if err != nil || st == nil {
		return s, err
	}
	if _, ok := s.(Cloner); ok {
		return &clonableStructured{structuredScorer{inner: s, st: st}}, nil
	}
	return &structuredScorer{inner: s, st: st}, nil
}

// Unstructured returns the scorer below s's constraints and gates, and
// them (nil when none).
func Unstructured(s Scorer) (Scorer, *Structure) {
	switch w := s.(type) {
	case *structuredScorer:
		return w.inner, w.st
	case *clonableStructured:
		return w.inner, w.st
	}
	return s, nil
}

// leanFields are the fields a lean trajectory keeps (Trajectory.DropBody).
var leanFields = []string{"id", "batch", "group", "step_count", "done"}

// ReadsBody reports whether an expression of st reads more than the
// objectives and the fields a lean trajectory keeps.
func (st *Structure) ReadsBody() bool {
	if st == nil {
		return false
	}
	reads := func(e *Expression) bool {
		if e == nil {
			return false
		}
		if e.program == nil || e.fullEnv || e.useResponse {
			return true
		}
		for _, name := range e.names {
			if _, ok := st.objectives[name]; !ok && !slices.Contains(leanFields, name) {
				return true
			}
		}
		return false
	}
	for _, c := range st.constraints {
		if reads(c.whole) || reads(c.left) || reads(c.right) {
			return true
		}
	}
	for _, g := range st.gates {
		if reads(g.e) {
			return true
		}
	}
	return false
}
