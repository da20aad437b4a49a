package scoring

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rewardlens/rewardlens/engine/sandbox"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// The reasons an expression's value makes a trajectory invalid. They are
// categories, not messages, so that invalid trajectories can be counted per
// cause.
var (
	ErrMissing   = errors.New("missing")
	ErrNotNumber = errors.New("not a number")
	ErrNaN       = errors.New("NaN")
	ErrInf       = errors.New("infinite")
	ErrEval      = errors.New("evaluation error")
	// ErrBudget is an evaluation that went over one of its budgets.
	ErrBudget = sandbox.ErrBudget
)

// exprEnvTypes gives the type checker the trajectory's fields. Metadata keys
// are not known before data is read, so bare names are compiled as undefined
// variables and resolved per trajectory.
var exprEnvTypes = map[string]any{
	"id":         "",
	"batch":      0,
	"group":      "",
	"step_count": 0,
	"done":       true,
	"response":   "",
	"metadata":   map[string]any{},
}

// Expression is a compiled objective or task expression over one
// trajectory (docs/CONTRACT.md, Expressions).
type Expression struct {
	Source      string
	program     *sandbox.Program
	env         map[string]any
	useResponse bool
	// names are the identifiers the expression reads, sorted; fullEnv is
	// set when it reads $env, which can reach any name.
	names   []string
	fullEnv bool
	// key is set when the expression only reads one metadata value, as
	// metadata.KEY, metadata["KEY"] or a bare KEY that names no field: Eval
	// then looks it up without the VM, with the same result.
	key    string
	direct bool
	// fields are the fields the expression reads (sandbox's FieldsRead),
	// found once a run fails, for its reason (textValues).
	fields []string
}

// CompileError is an expression that does not compile: its text and the
// position of the problem.
type CompileError struct {
	Name   string // the objective or setting the expression belongs to
	Source string
	Line   int
	Column int // 1-based
	Msg    string
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("expression %s = %q: line %d, column %d: %s", e.Name, e.Source, e.Line, e.Column, e.Msg)
}

// CompileExpression compiles src, the expression of the objective or
// setting name. It fails with a *CompileError on a syntax or type error.
func CompileExpression(name, src string) (*Expression, error) {
	return compileExpression(name, src, exprEnvTypes)
}

// compileExpression is CompileExpression with the type checker's
// environment envTypes: exprEnvTypes, and for a constraint or a gate the
// objectives' names too (constraints.go).
func compileExpression(name, src string, envTypes map[string]any) (*Expression, error) {
	if key, ok := inferredKey(src); ok {
		// What setup.Config.InferObjectives writes reads one metadata value, which
		// Eval and Value look up without a program: a record of a million
		// numeric fields is a million objectives, which compiled took 7
		// GB and a minute.
		return &Expression{Source: src, key: key, direct: true, names: []string{"metadata"}}, nil
	}
	program, err := sandbox.Compile(src, envTypes)
	if err != nil {
		ce := &CompileError{Name: name, Source: src, Line: 1, Column: 1, Msg: err.Error()}
		var se *sandbox.Error
		if errors.As(err, &se) {
			ce.Line, ce.Column, ce.Msg = se.Line, se.Column, se.Msg
		}
		return nil, ce
	}
	e := &Expression{
		Source:      src,
		program:     program,
		env:         make(map[string]any, len(exprEnvTypes)+8),
		useResponse: program.Reads("response"),
		names:       program.Names(),
		fullEnv:     program.Reads("$env"),
	}
	e.key, e.direct = program.MetadataKey()
	return e, nil
}

// inferredKey returns KEY when src is metadata["KEY"] exactly as
// setup.Config.InferObjectives writes it (KEY quoted as Go quotes it).
func inferredKey(src string) (string, bool) {
	quoted, ok := strings.CutPrefix(src, "metadata[")
	if !ok {
		return "", false
	}
	if quoted, ok = strings.CutSuffix(quoted, "]"); !ok {
		return "", false
	}
	key, err := strconv.Unquote(quoted)
	if err != nil || strconv.Quote(key) != quoted {
		return "", false
	}
	return key, true
}

// Clone returns a copy of e with its own VM and environment, for use on
// another goroutine: the compiled program is immutable and shared.
func (e *Expression) Clone() *Expression {
	c := *e
	if e.program == nil {
		return &c // no program to run (inferredKey)
	}
	c.program = e.program.Clone()
	c.env = make(map[string]any, len(exprEnvTypes)+8)
	return &c
}

// Eval evaluates the expression on t and returns its value as a float64.
// The error is one of ErrMissing, ErrNotNumber, ErrNaN, ErrInf, ErrEval (an
// *EvalError, which says why) or ErrBudget.
// Eval reuses one VM and one environment: an Expression is not safe for
// concurrent use.
func (e *Expression) Eval(t *Trajectory) (float64, error) {
	if e.direct && t.Pick != nil {
		return t.pickedNumber(e.key)
	}
	v, err := e.Value(t)
	if err != nil {
		return math.NaN(), err
	}
	return toNumber(v)
}

// EvalNumber is Eval for a value that must be a number as it is, a
// logged advantage: a bool is ErrNotNumber, not 1 or 0, as a string is
// ("0.7" too). v is the value read (Value), for the caller to say one
// that is not a number. t must not have been read with a Pick.
func (e *Expression) EvalNumber(t *Trajectory) (x float64, v any, err error) {
	if v, err = e.Value(t); err != nil {
		return math.NaN(), nil, err
	}
	if _, isBool := v.(bool); isBool {
		return math.NaN(), v, notNumber(v)
	}
	x, err = toNumber(v)
	return x, v, err
}

// Value evaluates the expression on t and returns its value as it is: a
// metadata value (float64, string, bool or nil), or whatever the program
// computes. The error is an *EvalError (ErrEval) when the program fails,
// ErrBudget when it goes over its budget. t must not have been read with
// a Pick (the picked values are numbers only). Like Eval,
// Value is not safe for concurrent use.
func (e *Expression) Value(t *Trajectory) (any, error) {
	if e.direct {
		return t.Metadata[e.key], nil
	}
	env := e.env
	clear(env)
	if !e.fullEnv {
		// Without $env the VM only looks up the identifiers of the
		// expression: the environment need hold nothing else.
		for _, name := range e.names {
			e.setName(env, name, t)
		}
		return e.run(env, t)
	}
	return e.runFull(env, t)
}

// runFull runs the program with the whole trajectory in env, for a program
// that reads $env.
func (e *Expression) runFull(env map[string]any, t *Trajectory) (any, error) {
	e.fillFull(env, t)
	return e.run(env, t)
}

// fillFull sets in env the whole trajectory t, for a program that reads
// $env.
func (e *Expression) fillFull(env map[string]any, t *Trajectory) {
	for k, v := range t.Metadata {
		env[k] = v
	}
	// The trajectory's own fields win over metadata keys of the same name.
	env["id"] = t.ID
	env["batch"] = int(t.Batch)
	env["group"] = t.Group
	env["step_count"] = int(t.StepCount)
	env["done"] = t.Done
	env["metadata"] = t.Metadata
	if e.useResponse {
		env["response"] = t.ResponseText()
	} else {
		env["response"] = ""
	}
}

// setName sets in env what the identifier name stands for on t: the
// trajectory's field of that name, else its metadata value, if any.
func (e *Expression) setName(env map[string]any, name string, t *Trajectory) {
	switch name {
	case "id":
		env[name] = t.ID
	case "batch":
		env[name] = int(t.Batch)
	case "group":
		env[name] = t.Group
	case "step_count":
		env[name] = int(t.StepCount)
	case "done":
		env[name] = t.Done
	case "metadata":
		env[name] = t.Metadata
	case "response":
		env[name] = t.ResponseText()
	default:
		if v, ok := t.Metadata[name]; ok {
			env[name] = v
		}
	}
}

// EvalError is ErrEval with why the program failed (Reason: "invalid
// argument for len (type float64)"). Its text is ErrEval's, so that the
// causes of invalid trajectories are counted as one whatever the reason.
// The reason is put into words when asked, for the first row of a cause
// alone: the rows that fail alike would each build the same sentence.
type EvalError struct {
	run   string     // the VM's message (sandbox.RunError's reason)
	texts []readText // the string and bool values the program read
}

// readText is a field the program read (by name, or as metadata.KEY)
// whose value is a string or a bool, which arithmetic refuses.
type readText struct {
	name  string
	value any
}

func (e *EvalError) Error() string { return ErrEval.Error() }

// Is makes an EvalError an ErrEval.
func (e *EvalError) Is(target error) bool { return target == ErrEval }

// Reason says why the program failed: the VM's message, then the text
// values it read, a string quoted and cut short (textsafe.QuoteShort):
// `invalid operation: string / int (length = "long")`, so that the
// message says which value.
func (e *EvalError) Reason() string {
	if len(e.texts) == 0 {
		return e.run
	}
	parts := make([]string, len(e.texts))
	for k, tv := range e.texts {
		switch v := tv.value.(type) {
		case string:
			parts[k] = tv.name + " = " + textsafe.QuoteShort(v)
		case bool:
			parts[k] = tv.name + " = " + strconv.FormatBool(v)
		}
	}
	return e.run + " (" + strings.Join(parts, ", ") + ")"
}

// run runs the program on env, t's; its error is ErrBudget or an
// *EvalError, which keeps the text values the program read (textValues).
func (e *Expression) run(env map[string]any, t *Trajectory) (any, error) {
	out, err := e.program.Run(env)
	var re *sandbox.RunError
	if errors.As(err, &re) {
		return nil, &EvalError{run: re.Reason, texts: e.textValues(env, t)}
	}
	return out, err
}

// textValues returns the fields the program reads (by name, or as
// metadata.KEY) whose value, in env or else t's metadata, is a string or
// a bool; nil when none is.
func (e *Expression) textValues(env map[string]any, t *Trajectory) []readText {
	if e.fields == nil {
		e.fields = e.program.FieldsRead()
	}
	var texts []readText
	for _, name := range e.fields {
		v, ok := env[name]
		if !ok {
			v = t.Metadata[name]
		}
		switch v.(type) {
		case string, bool:
			texts = append(texts, readText{name, v})
		}
	}
	return texts
}

// toNumber converts an expression's value to a finite float64, or says why
// it cannot. A bool counts as 1 or 0 (verl's acc, a check's outcome).
func toNumber(v any) (float64, error) {
	var x float64
	switch n := v.(type) {
	case nil:
		return math.NaN(), ErrMissing
	case bool:
		if n {
			return 1, nil
		}
		return 0, nil
	case float64:
		x = n
	case float32:
		x = float64(n)
	case int:
		x = float64(n)
	case int64:
		x = float64(n)
	case int32:
		x = float64(n)
	case uint:
		x = float64(n)
	case uint64:
		x = float64(n)
	default:
		return math.NaN(), notNumber(v)
	}
	return x, Finite(x)
}

// NotNumberError is ErrNotNumber with the value that is not a number
// (Value says it). Its text is ErrNotNumber's, so that the causes of
// invalid trajectories are counted as one whatever the value.
type NotNumberError struct{ value any }

func (e *NotNumberError) Error() string { return ErrNotNumber.Error() }

// Is makes a NotNumberError an ErrNotNumber.
func (e *NotNumberError) Is(target error) bool { return target == ErrNotNumber }

// notNumber returns the error of v, a value that is not a number (nil
// for one not kept).
func notNumber(v any) *NotNumberError { return &NotNumberError{value: v} }

// Value says what the value was: a string quoted and escaped, cut short
// (textsafe.QuoteShort: "the string "1.0""); "a bool true";
// "a list"; "a map"; else its Go type; "" for a value not kept. It is
// worked out when asked, for the first of a cause alone.
func (e *NotNumberError) Value() string {
	switch x := e.value.(type) {
	case nil:
		return ""
	case string:
		return "the string " + textsafe.QuoteShort(x)
	case bool:
		return fmt.Sprintf("a bool %t", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a map"
	}
	return fmt.Sprintf("a %T", e.value)
}

// Finite returns ErrNaN or ErrInf when x is not a finite number, else nil.
func Finite(x float64) error {
	switch {
	case math.IsNaN(x):
		return ErrNaN
	case math.IsInf(x, 0):
		return ErrInf
	}
	return nil
}
