// Package sandbox runs the expressions of objectives and record fields
// (docs/CONTRACT.md, Expressions) within budgets, so that no expression or
// data takes the machine: what the builders (repeat, replace, join, toJSON,
// + on strings...) build, the rounds and the time of the loops, the work of
// matches, and the size of the expression. It is the one package that
// imports the expression library (expr-lang); it knows nothing of
// trajectories: its caller gives the names of the fields and their values.
package sandbox

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// ErrBudget is an evaluation that went over one of its budgets.
var ErrBudget = errors.New("over the expression's budget")

// ErrRun is a program that failed as it ran, within its budgets (a type
// met at run time that an operator does not take, an index out of range).
var ErrRun = errors.New("evaluation error")

// RunError is ErrRun with what the run met, expr's message
// ("invalid argument for len (type float64)").
type RunError struct{ Reason string }

func (e *RunError) Error() string { return ErrRun.Error() + ": " + e.Reason }

// Is makes a RunError an ErrRun.
func (e *RunError) Is(target error) bool { return target == ErrRun }

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

// Error is an expression that does not compile: where (Line, and Column
// counted from 1) and what.
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg) }

// Program is a compiled expression and the machine that runs it, with its
// budgets. A Program is not safe for concurrent use: Clone gives another
// goroutine its own.
type Program struct {
	program *vm.Program
	vm      vm.VM
	// fields are the names of the fields the caller's environment holds,
	// with a value of each one's type.
	fields map[string]any
	// refs are the identifiers the expression reads.
	refs identifiers
	// budget is what is left of the current run's budgets (builtBudget);
	// budgeted is set when the program reads it (calls a builder, may
	// join strings with +, matches, or loops).
	budget   builtBudget
	budgeted bool
	// runTime is the loops' time budget, maxRunTime but in tests.
	runTime time.Duration
}

// Compile compiles src over an environment whose fields are those of
// fields (each name with a value of its type); other bare names are
// compiled as undefined variables, resolved when the program runs. It
// fails with an *Error on a syntax or type error.
func Compile(src string, fields map[string]any) (*Program, error) {
	program, err := expr.Compile(src, options(fields)...)
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
		return nil, compileError(err)
	}
	p := &Program{program: program, fields: fields, runTime: maxRunTime}
	node := program.Node()
	ast.Walk(&node, &p.refs)
	p.budgeted = p.refs.names[builtName]
	return p, nil
}

// Parse checks src's syntax alone, as Compile parses it (the same
// functions and limits), whatever the fields: it fails with the *Error
// Compile fails with when src does not parse. An expression that parses
// may still not compile (a type error).
func Parse(src string) error {
	config := conf.CreateNew()
	for _, op := range options(map[string]any{}) {
		op(config)
	}
	// As expr.Compile prepares its config before it parses.
	for name := range config.Disabled {
		delete(config.Builtins, name)
	}
	config.Check()
	if _, err := parser.ParseWithConfig(src, config); err != nil {
		return compileError(err)
	}
	return nil
}

// compileError is the *Error of expr's error err.
func compileError(err error) *Error {
	ce := &Error{Line: 1, Column: 1, Msg: err.Error()}
	var fe *file.Error
	if errors.As(err, &fe) {
		ce.Line, ce.Column, ce.Msg = fe.Line, fe.Column+1, fe.Message
	}
	return ce
}

// options are expr's options for an environment of fields: the
// sandbox's functions, builtins and limits.
func options(fields map[string]any) []expr.Option {
	return []expr.Option{
		expr.Env(fields),
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
		expr.Function(jsonLenName, jsonLen, new(func(any) any)),
		expr.Patch(withBudget{}),
	}
}

// Clone returns a copy of p with its own machine and budgets, for use on
// another goroutine: the compiled program is immutable and shared.
func (p *Program) Clone() *Program {
	c := *p
	c.vm, c.budget = vm.VM{}, builtBudget{}
	return &c
}

// Reads reports whether the expression reads the value of name (not a
// function called name).
func (p *Program) Reads(name string) bool { return p.refs.names[name] }

// Names returns the identifiers the expression reads as values, sorted;
// $env among them when it reads the whole environment.
func (p *Program) Names() []string { return p.refs.fields() }

// MetadataKey returns the metadata key that the expression reads when it
// is nothing but that read (see metadataKey).
func (p *Program) MetadataKey() (string, bool) { return metadataKey(p.program.Node(), p.fields) }

// Run runs the program on env, the values of the names it reads. Its error
// is ErrBudget when it went over a budget, else a *RunError.
func (p *Program) Run(env map[string]any) (any, error) {
	if p.budgeted {
		p.budget = builtBudget{left: maxBuiltBytes, matchWork: maxMatchWork, deadline: time.Now().Add(p.runTime), patterns: p.budget.patterns}
		env[builtName] = &p.budget
	}
	out, err := p.vm.Run(p.program, env)
	if err != nil {
		// The reason, not err.Error(), which formats expr's snippet of
		// the source: rows that fail alike each pass here.
		reason := runReason(err)
		if errors.Is(err, ErrBudget) || strings.Contains(reason, "memory budget exceeded") {
			return nil, ErrBudget // expr's own budget panics with a string
		}
		return nil, &RunError{Reason: reason}
	}
	return out, nil
}

// metadataKey returns the metadata key that node reads when node is
// nothing but that read: metadata.KEY or metadata["KEY"] (not optional,
// not a method), or a bare identifier that is not a trajectory field nor
// expr's $env. The VM evaluates these to the metadata value itself (nil
// when absent), which is what Eval's direct path returns.
func metadataKey(node ast.Node, fields map[string]any) (string, bool) {
	switch n := node.(type) {
	case *ast.IdentifierNode:
		if _, field := fields[n.Value]; field || strings.HasPrefix(n.Value, "$") {
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

// FieldsRead returns the fields the expression reads by name, sorted: the metadata keys
// of metadata.KEY and metadata["KEY"], and the bare names (a field of the
// trajectory or a metadata key). Names reached through $env or computed
// keys are not known, and not listed.
func (p *Program) FieldsRead() []string {
	v := &fieldVisitor{names: map[string]bool{}, bound: map[string]bool{}}
	node := p.program.Node()
	ast.Walk(&node, v)
	for name := range v.bound {
		delete(v.names, name)
	}
	return slices.Sorted(maps.Keys(v.names))
}

// fieldVisitor collects the field names an expression reads, and the
// names its let declarations bind (which are no fields).
type fieldVisitor struct {
	names, bound map[string]bool
}

func (v *fieldVisitor) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.MemberNode:
		if id, ok := n.Node.(*ast.IdentifierNode); ok && id.Value == "metadata" && !n.Method {
			if key, ok := n.Property.(*ast.StringNode); ok {
				v.names[key.Value] = true
			}
		}
	case *ast.IdentifierNode:
		if n.Value != "metadata" && !strings.HasPrefix(n.Value, "$") {
			v.names[n.Value] = true
		}
	case *ast.VariableDeclaratorNode:
		v.bound[n.Name] = true
	case *ast.CallNode: // a function called (repeat) is no field
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			v.bound[id.Value] = true
		}
	}
}

// Type returns the type the expression's value is known to have when it
// compiles, nil when it is not known (a value read from the data).
func (p *Program) Type() reflect.Type { return p.program.Node().Type() }

// Comparison splits src, when its top is a comparison by one of ops (">=",
// "<=", ...), into the operator and the source of each side; ok is false
// for any other expression or one that does not parse.
func Comparison(src string, ops []string) (op, left, right string, ok bool) {
	tree, err := parser.Parse(src)
	if err != nil {
		return "", "", "", false
	}
	bin, isBinary := tree.Node.(*ast.BinaryNode)
	if !isBinary || !slices.Contains(ops, bin.Operator) {
		return "", "", "", false
	}
	return bin.Operator, bin.Left.String(), bin.Right.String(), true
}

// runReason is the message of expr's run error err, without the
// expression's text that it quotes under it.
func runReason(err error) string {
	var fe *file.Error
	if errors.As(err, &fe) {
		return fe.Message
	}
	reason, _, _ := strings.Cut(err.Error(), "\n")
	return reason
}
