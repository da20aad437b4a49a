package engine

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// An expression's budgets (docs/CONTRACT.md, Expressions), so that no
// expression or data takes the machine. All but the clock are counts, so
// that whether a trajectory is over budget does not depend on the machine.
const (
	// maxRepeatBytes bounds what repeat may build in one call.
	maxRepeatBytes = 1 << 20
	// maxBuiltBytes bounds the strings that repeat, replace, join, the
	// other builders and + build in one evaluation, together: a loop (map
	// over a range) multiplies what one call may build, and a chain of +
	// on a long string builds the square of its terms.
	maxBuiltBytes = 16 << 20
	// maxLoopRounds bounds the rounds of the loops of one evaluation (the
	// bodies of map, filter, reduce... over a range or an array), nested
	// loops included.
	maxLoopRounds = 1 << 20
	// maxRunTime stops the loops of one evaluation whose rounds are each
	// slow (a scan of a long string), which the counts above let through:
	// far above what the counts allow cheap rounds, so that the clock
	// never decides an ordinary expression's fate (BENCHMARKS.md).
	maxRunTime = 5 * time.Second
)

// budgetError is a budget's error: what went over, wrapping ErrBudget.
func budgetError(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), ErrBudget)
}

// errRepeatBudget is repeat's error past maxRepeatBytes.
var errRepeatBudget = budgetError("repeat: the result would exceed %d bytes", maxRepeatBytes)

// builtName is the identifier of the evaluation's builtBudget, which
// withBudget passes to the builders, + and tick as their first argument.
const builtName = "$built"

// builtBudget is what is left of an evaluation's budgets, and when its
// time is up: each Expression (each of its clones) has its own, reset by
// every run.
type builtBudget struct {
	left      int // of maxBuiltBytes
	rounds    int // of maxLoopRounds
	matchWork int // of maxMatchWork
	deadline  time.Time
	// patterns are the expression's compiled matches patterns, kept from
	// run to run.
	patterns map[string]pattern
}

// take counts n bytes that fn is about to build, or fails when they
// would exceed the budget.
func (b *builtBudget) take(fn string, n int) error {
	if n > b.left {
		return b.exceeded(fn)
	}
	b.left -= n
	return nil
}

// budgetOf returns the budget the patched call passes first.
func budgetOf(fn string, param any) (*builtBudget, error) {
	if b, ok := param.(*builtBudget); ok {
		return b, nil
	}
	return nil, fmt.Errorf("%s: no memory budget", fn)
}

// withBudget passes the evaluation's budget (builtName) as the first
// argument of every call of repeat, replace, join and the other builders,
// which expr's own builtins would let build gigabytes from a few bytes,
// makes a + that may join strings a call of addName (a chain of + on a
// long string builds the square of its terms), a matches a call of
// matchesName, and makes the body of every loop (a predicate: the body of
// map, filter, reduce...) go through tickName, which counts its rounds.
type withBudget struct{}

// tickName is the function a loop's body goes through (tick).
const tickName = "$tick"

func (withBudget) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok && builders[id.Value] {
			ast.Patch(node, &ast.CallNode{
				Callee:    n.Callee,
				Arguments: append([]ast.Node{&ast.IdentifierNode{Value: builtName}}, n.Arguments...),
			})
		}
	case *ast.BinaryNode:
		switch {
		case n.Operator == "+" && maybeString(n.Left.Type()) && maybeString(n.Right.Type()):
			// A + that may join two strings: both sides strings or of
			// types known only when it runs (metadata values). Numbers,
			// and types that cannot be added (an error when the tree is
			// checked), stay.
			ast.Patch(node, &ast.CallNode{
				Callee:    &ast.IdentifierNode{Value: addName},
				Arguments: []ast.Node{&ast.IdentifierNode{Value: builtName}, n.Left, n.Right},
			})
		case n.Operator == "matches" && (maybeString(n.Left.Type()) || n.Left.Type() == bytesType) && maybeString(n.Right.Type()):
			ast.Patch(node, &ast.CallNode{
				Callee:    &ast.IdentifierNode{Value: matchesName},
				Arguments: []ast.Node{&ast.IdentifierNode{Value: builtName}, n.Left, n.Right},
			})
		}
	case *ast.PredicateNode:
		n.Node = &ast.CallNode{
			Callee:    &ast.IdentifierNode{Value: tickName},
			Arguments: []ast.Node{&ast.IdentifierNode{Value: builtName}, n.Node},
		}
	}
}

// bytesType is a bytes literal's type, which matches also takes.
var bytesType = reflect.TypeOf([]byte(nil))

// maybeString reports whether a value of type t may be a string when the
// expression runs.
func maybeString(t reflect.Type) bool {
	return t == nil || t.Kind() == reflect.String || t.Kind() == reflect.Interface
}

// stringType is a string's type.
var stringType = reflect.TypeOf("")

// budgetedFunction registers fn, called as name with the budget and
// operands more arguments, whose type expr's checker takes from typeOf of
// the arguments' types (the budget's first): patched calls keep the types
// of what they wrap.
func budgetedFunction(name string, fn func(params ...any) (any, error), operands int, typeOf func(args []reflect.Type) reflect.Type) expr.Option {
	return func(c *conf.Config) {
		c.Functions[name] = &builtin.Function{
			Name: name,
			Func: fn,
			Validate: func(args []reflect.Type) (reflect.Type, error) {
				if len(args) != 1+operands {
					return nil, fmt.Errorf("%s: want %d operands, got %d", name, operands, len(args)-1)
				}
				return typeOf(args), nil
			},
		}
	}
}

// addType is boundedAdd's type: a string when both sides are, else of a
// type known only when it runs, as expr's own + on values of unknown
// types (a sum of metadata values is still a number to compare, round or
// divide).
func addType(args []reflect.Type) reflect.Type {
	if args[1] == stringType && args[2] == stringType {
		return stringType
	}
	return reflect.TypeOf((*any)(nil)).Elem()
}

// tickType is tick's type: its body's, so that the body is type checked
// as if tick were not there (a filter's predicate must still be a
// boolean).
func tickType(args []reflect.Type) reflect.Type { return args[1] }

// tick is a loop body's way through: it returns the body's value, and
// fails once the evaluation's loops have gone round maxLoopRounds times,
// or past their deadline (looked at every 256 rounds: the clock costs
// more than a round).
func tick(params ...any) (any, error) {
	b, err := budgetOf("loop", params[0])
	if err != nil {
		return nil, err
	}
	if b.rounds++; b.rounds > maxLoopRounds {
		return nil, budgetError("the loops went round more than %d times", maxLoopRounds)
	}
	if b.rounds%256 == 0 && time.Now().After(b.deadline) {
		return nil, budgetError("the loops ran out of time")
	}
	return params[1], nil
}

// boundedRepeat is expr's repeat(s, n) with the size of its result, not
// only n, checked before anything is built: at most maxRepeatBytes, and
// within the evaluation's budget.
func boundedRepeat(params ...any) (any, error) {
	budget, s, err := budgetAndString("repeat", params)
	if err != nil {
		return nil, err
	}
	n, err := countArg("repeat", params[2])
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("repeat: negative count %d", n)
	}
	if len(s) > 0 && n > maxRepeatBytes/len(s) {
		return nil, errRepeatBudget
	}
	if err := budget.take("repeat", len(s)*n); err != nil {
		return nil, err
	}
	return strings.Repeat(s, n), nil
}

// countArg reads fn's count argument: an integer, as expr gives it (int,
// or int64 and float64 from data).
func countArg(fn string, v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case float64:
		return int(x), nil
	}
	return 0, fmt.Errorf("%s: want an integer count, got %T", fn, v)
}

// boundedReplace is expr's replace(s, old, new[, n]) with the size of its
// result counted against the evaluation's budget before it is built.
func boundedReplace(params ...any) (any, error) {
	budget, err := budgetOf("replace", params[0])
	if err != nil {
		return nil, err
	}
	var args [3]string
	for k := range args {
		s, ok := params[1+k].(string)
		if !ok {
			return nil, fmt.Errorf("replace: want a string, got %T", params[1+k])
		}
		args[k] = s
	}
	s, old, with := args[0], args[1], args[2]
	n := -1
	if len(params) == 5 {
		if n, err = countArg("replace", params[4]); err != nil {
			return nil, err
		}
	}
	count := strings.Count(s, old) // for "", a place between every two runes
	if n >= 0 {
		count = min(count, n)
	}
	if err := budget.take("replace", len(s)+count*(len(with)-len(old))); err != nil {
		return nil, err
	}
	return strings.Replace(s, old, with, n), nil
}

// boundedJoin is expr's join(array[, sep]) of strings with the size of its
// result counted against the evaluation's budget before it is built.
func boundedJoin(params ...any) (any, error) {
	budget, err := budgetOf("join", params[0])
	if err != nil {
		return nil, err
	}
	sep := ""
	if len(params) == 3 {
		s, ok := params[2].(string)
		if !ok {
			return nil, fmt.Errorf("join: want a string separator, got %T", params[2])
		}
		sep = s
	}
	var parts []string
	switch a := params[1].(type) {
	case []string:
		parts = a
	case []any:
		parts = make([]string, len(a))
		for i, v := range a {
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("join: want strings, got %T", v)
			}
			parts[i] = s
		}
	default:
		return nil, fmt.Errorf("join: want an array of strings, got %T", params[1])
	}
	size := len(sep) * max(len(parts)-1, 0)
	for _, s := range parts {
		size += len(s)
	}
	if err := budget.take("join", size); err != nil {
		return nil, err
	}
	return strings.Join(parts, sep), nil
}

// maxExprNodes bounds the size of an expression so that evaluation stays
// cheap whatever a config file holds.
const maxExprNodes = 1000

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
	ErrBudget = errors.New("over the expression's budget")
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
	program     *vm.Program
	vm          vm.VM
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
	// budget is what is left of the current run's budgets (builtBudget);
	// budgeted is set when the program reads it (calls a builder, may
	// join strings with +, matches, or loops).
	budget   builtBudget
	budgeted bool
	// runTime is the loops' time budget, maxRunTime but in tests.
	runTime time.Duration
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
		// What InferObjectives writes reads one metadata value, which
		// Eval and Value look up without a program: a record of a million
		// numeric fields is a million objectives, which compiled took 7
		// GB and a minute.
		return &Expression{Source: src, key: key, direct: true, names: []string{"metadata"}}, nil
	}
	program, err := expr.Compile(src,
		expr.Env(envTypes),
		expr.AllowUndefinedVariables(),
		expr.MaxNodes(maxExprNodes),
		// The clock is the one thing outside the trajectory that an
		// expression could read: rewards must not depend on when they run.
		expr.DisableBuiltin("now"),
		// expr's own repeat checks its count, not the size it builds, so
		// that repeat(repeat("x", 100000), 100000) would take 10 GB;
		// replace and join build as much from a loop. Ours take the
		// evaluation's budget as their first argument (withBudget).
		// The other builders (builders), and + on strings, count what
		// they build against the same budget.
		expr.DisableBuiltin("repeat"),
		expr.DisableBuiltin("replace"),
		expr.DisableBuiltin("join"),
		expr.DisableBuiltin("upper"),
		expr.DisableBuiltin("lower"),
		expr.DisableBuiltin("toBase64"),
		expr.DisableBuiltin("string"),
		expr.DisableBuiltin("toJSON"),
		expr.DisableBuiltin("fromJSON"),
		expr.DisableBuiltin("split"),
		expr.DisableBuiltin("splitAfter"),
		expr.DisableBuiltin("flatten"),
		expr.Function("upper", boundedCase("upper", strings.ToUpper), new(func(*builtBudget, string) string)),
		expr.Function("lower", boundedCase("lower", strings.ToLower), new(func(*builtBudget, string) string)),
		expr.Function("toBase64", boundedToBase64, new(func(*builtBudget, string) string)),
		expr.Function("string", boundedString, new(func(*builtBudget, any) string)),
		expr.Function("toJSON", boundedToJSON, new(func(*builtBudget, any) string)),
		expr.Function("fromJSON", boundedFromJSON, new(func(*builtBudget, string) any)),
		expr.Function("split", boundedSplit("split", false),
			new(func(*builtBudget, string, string) []string),
			new(func(*builtBudget, string, string, int) []string)),
		expr.Function("splitAfter", boundedSplit("splitAfter", true),
			new(func(*builtBudget, string, string) []string),
			new(func(*builtBudget, string, string, int) []string)),
		expr.Function("flatten", boundedFlatten, new(func(*builtBudget, any) []any)),
		budgetedFunction(addName, boundedAdd, 2, addType),
		expr.Function(matchesName, boundedMatches, new(func(*builtBudget, any, any) bool)),
		expr.Function("repeat", boundedRepeat, new(func(*builtBudget, string, int) string)),
		expr.Function("replace", boundedReplace,
			new(func(*builtBudget, string, string, string) string),
			new(func(*builtBudget, string, string, string, int) string)),
		expr.Function("join", boundedJoin,
			new(func(*builtBudget, []any) string),
			new(func(*builtBudget, []any, string) string),
			new(func(*builtBudget, []string) string),
			new(func(*builtBudget, []string, string) string)),
		budgetedFunction(tickName, tick, 1, tickType),
		expr.Function(torchNumberName, torchNumber, new(func(any) float64)),
		expr.Patch(withBudget{}),
	)
	if err == nil {
		// A pattern written in the expression is checked as it
		// compiles, as expr's own matches does.
		patterns := &constantPatterns{}
		node := program.Node()
		if ast.Walk(&node, patterns); patterns.err != nil {
			err = patterns.err.Bind(file.NewSource(src))
		}
	}
	if err != nil {
		ce := &CompileError{Name: name, Source: src, Line: 1, Column: 1, Msg: err.Error()}
		var fe *file.Error
		if errors.As(err, &fe) {
			ce.Line, ce.Column, ce.Msg = fe.Line, fe.Column+1, fe.Message
		}
		return nil, ce
	}
	refs := &identifiers{}
	node := program.Node()
	ast.Walk(&node, refs)
	e := &Expression{
		Source:      src,
		program:     program,
		env:         make(map[string]any, len(exprEnvTypes)+8),
		useResponse: refs.names["response"],
		names:       refs.fields(),
		fullEnv:     refs.names["$env"],
		budgeted:    refs.names[builtName],
		runTime:     maxRunTime,
	}
	e.key, e.direct = metadataKey(program.Node())
	return e, nil
}

// inferredKey returns KEY when src is metadata["KEY"] exactly as
// InferObjectives writes it (KEY quoted as Go quotes it).
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

// metadataKey returns the metadata key that node reads when node is
// nothing but that read: metadata.KEY or metadata["KEY"] (not optional,
// not a method), or a bare identifier that is not a trajectory field nor
// expr's $env. The VM evaluates these to the metadata value itself (nil
// when absent), which is what Eval's direct path returns.
func metadataKey(node ast.Node) (string, bool) {
	switch n := node.(type) {
	case *ast.IdentifierNode:
		if _, field := exprEnvTypes[n.Value]; field || strings.HasPrefix(n.Value, "$") {
			return "", false
		}
		return n.Value, true
	case *ast.MemberNode:
		id, ok := n.Node.(*ast.IdentifierNode)
		if !ok || id.Value != "metadata" || n.Optional || n.Method {
			return "", false
		}
		if key, ok := n.Property.(*ast.StringNode); ok {
			return key.Value, true
		}
	}
	return "", false
}

// clone returns a copy of e with its own VM and environment, for use on
// another goroutine: the compiled program is immutable and shared.
func (e *Expression) clone() *Expression {
	c := *e
	if e.program == nil {
		return &c // no program to run (inferredKey)
	}
	c.vm, c.budget = vm.VM{}, builtBudget{}
	c.env = make(map[string]any, len(exprEnvTypes)+8)
	return &c
}

// identifiers collects the names an expression reads, so that costly fields
// (the response text) are only built when used.
type identifiers struct{ names map[string]bool }

// fields returns the identifiers that name values, sorted.
func (v *identifiers) fields() []string {
	var out []string
	for name, isField := range v.names {
		if isField && name != builtName {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Visit notes the identifiers that name values, not the functions called
// (repeat, a function of ours, is called through an identifier).
func (v *identifiers) Visit(node *ast.Node) {
	if v.names == nil {
		v.names = map[string]bool{}
	}
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		if _, called := v.names[n.Value]; !called {
			v.names[n.Value] = true
		}
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			v.names[id.Value] = false
		}
	}
}

// Eval evaluates the expression on t and returns its value as a float64.
// The error is one of ErrMissing, ErrNotNumber, ErrNaN, ErrInf, ErrEval or
// ErrBudget.
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

// Value evaluates the expression on t and returns its value as it is: a
// metadata value (float64, string, bool or nil), or whatever the program
// computes. The error is ErrEval when the program fails, ErrBudget when it
// goes over its budget. t must not have
// been read with a Pick (the picked values are numbers only). Like Eval,
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
		return e.run(env)
	}
	return e.runFull(env, t)
}

// runFull runs the program with the whole trajectory in env, for a program
// that reads $env.
func (e *Expression) runFull(env map[string]any, t *Trajectory) (any, error) {
	e.fillFull(env, t)
	return e.run(env)
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

// run runs the program on env.
func (e *Expression) run(env map[string]any) (any, error) {
	if e.budgeted {
		e.budget = builtBudget{left: maxBuiltBytes, matchWork: maxMatchWork, deadline: time.Now().Add(e.runTime), patterns: e.budget.patterns}
		env[builtName] = &e.budget
	}
	out, err := e.vm.Run(e.program, env)
	if err != nil {
		if errors.Is(err, ErrBudget) || strings.Contains(err.Error(), "memory budget exceeded") {
			return nil, ErrBudget // expr's own budget panics with a string
		}
		return nil, ErrEval
	}
	return out, nil
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
		return math.NaN(), ErrNotNumber
	}
	return x, finite(x)
}

func finite(x float64) error {
	switch {
	case math.IsNaN(x):
		return ErrNaN
	case math.IsInf(x, 0):
		return ErrInf
	}
	return nil
}
