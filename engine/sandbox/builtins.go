package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm/runtime"
)

// builders are the builtins whose results count against the evaluation's
// budget (withBudget passes it to them first): each builds a string (or,
// split and flatten, an array) that can be many times the size of its
// arguments, so that a few of them nested, a string reused through let or
// a loop's accumulator would build gigabytes within a few nodes:
// toJSON(toJSON(...)) doubles the backslashes at each level, toBase64 adds
// a third, let b = a + a doubles.
var builders = map[string]bool{
	"repeat": true, "replace": true, "join": true,
	"upper": true, "lower": true, "toBase64": true, "string": true, "toJSON": true,
	"fromJSON": true, "split": true, "splitAfter": true, "flatten": true,
}

// addName is the function a + goes through when it may join strings.
const addName = "$add"

// pieceBytes is what an element of an array built by split or flatten
// counts against the budget: a string's or an interface's header.
const pieceBytes = 16

// fits fails as take would when n bytes would exceed what is left, taking
// nothing: for a result whose exact size is only known once built, n a
// lower bound of it, checked before it is built.
func (b *builtBudget) fits(fn string, n int) error {
	if n > b.left {
		return b.exceeded(fn)
	}
	return nil
}

func (b *builtBudget) exceeded(fn string) error {
	return budgetError("%s: the strings built would exceed %d bytes", fn, maxBuiltBytes)
}

// boundedAdd is a + b (runtime.Add, expr's +) with a string's result
// counted against the evaluation's budget before it is built.
func boundedAdd(params ...any) (any, error) {
	a, b := params[1], params[2]
	if x, ok := a.(float64); ok {
		if y, ok := b.(float64); ok {
			return x + y, nil
		}
	}
	if x, ok := a.(string); ok {
		if y, ok := b.(string); ok {
			budget, err := budgetOf("+", params[0])
			if err != nil {
				return nil, err
			}
			if err := budget.take("+", len(x)+len(y)); err != nil {
				return nil, err
			}
			return x + y, nil
		}
	}
	return runtime.Add(a, b), nil
}

// stringArg returns params[k] as a string.
func stringArg(fn string, params []any, k int) (string, error) {
	s, ok := params[k].(string)
	if !ok {
		return "", fmt.Errorf("%s: want a string, got %T", fn, params[k])
	}
	return s, nil
}

// budgetAndString returns the budget a builder is passed first and its
// first argument, a string.
func budgetAndString(fn string, params []any) (*builtBudget, string, error) {
	budget, err := budgetOf(fn, params[0])
	if err != nil {
		return nil, "", err
	}
	s, err := stringArg(fn, params, 1)
	if err != nil {
		return nil, "", err
	}
	return budget, s, nil
}

// boundedCase is upper or lower: at least the size of s, checked before,
// its size counted after (an invalid byte becomes U+FFFD's three).
func boundedCase(fn string, f func(string) string) func(params ...any) (any, error) {
	return func(params ...any) (any, error) {
		budget, s, err := budgetAndString(fn, params)
		if err != nil {
			return nil, err
		}
		if err := budget.fits(fn, len(s)); err != nil {
			return nil, err
		}
		out := f(s)
		return out, budget.take(fn, len(out))
	}
}

// boundedToBase64 is expr's toBase64 with its result counted before it is
// built.
func boundedToBase64(params ...any) (any, error) {
	budget, s, err := budgetAndString("toBase64", params)
	if err != nil {
		return nil, err
	}
	if err := budget.take("toBase64", base64.StdEncoding.EncodedLen(len(s))); err != nil {
		return nil, err
	}
	return base64.StdEncoding.EncodeToString([]byte(s)), nil
}

// boundedString is expr's string(v), fmt's %v, with a lower bound of its
// size checked before it is built (an array may hold one string many
// times) and its size counted after.
func boundedString(params ...any) (any, error) {
	budget, err := budgetOf("string", params[0])
	if err != nil {
		return nil, err
	}
	if err := budget.fits("string", writtenAtLeast(params[1], budget.left)); err != nil {
		return nil, err
	}
	out := fmt.Sprintf("%v", params[1])
	return out, budget.take("string", len(out))
}

// boundedToJSON is expr's toJSON (indented by two spaces), bounded as
// boundedString is.
func boundedToJSON(params ...any) (any, error) {
	budget, err := budgetOf("toJSON", params[0])
	if err != nil {
		return nil, err
	}
	if err := budget.fits("toJSON", writtenAtLeast(params[1], budget.left)); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(params[1], "", "  ")
	if err != nil {
		return nil, err
	}
	return string(b), budget.take("toJSON", len(b))
}

// boundedFromJSON is expr's fromJSON with the text it parses counted
// before: what it builds is of the text's size.
func boundedFromJSON(params ...any) (any, error) {
	budget, s, err := budgetAndString("fromJSON", params)
	if err != nil {
		return nil, err
	}
	if err := budget.take("fromJSON", len(s)); err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	return v, nil
}

// boundedSplit is expr's split or splitAfter (fn) with the pieces counted
// before the array is built: split(s, "") makes one per character.
func boundedSplit(fn string, after bool) func(params ...any) (any, error) {
	return func(params ...any) (any, error) {
		budget, s, err := budgetAndString(fn, params)
		if err != nil {
			return nil, err
		}
		sep, err := stringArg(fn, params, 2)
		if err != nil {
			return nil, err
		}
		n := -1
		if len(params) == 4 {
			n = runtime.ToInt(params[3])
		}
		pieces := strings.Count(s, sep) + 1 // for "", one per rune, and one
		if sep == "" {
			pieces = utf8.RuneCountInString(s)
		}
		if n >= 0 {
			pieces = min(pieces, n)
		}
		if err := budget.take(fn, pieceBytes*pieces); err != nil {
			return nil, err
		}
		if after {
			return strings.SplitAfterN(s, sep, n), nil
		}
		return strings.SplitN(s, sep, n), nil
	}
}

// boundedFlatten is expr's flatten with the elements counted before the
// array is built: arrays nested by a loop ([#acc, #acc]) hold one
// another many times.
func boundedFlatten(params ...any) (any, error) {
	budget, err := budgetOf("flatten", params[0])
	if err != nil {
		return nil, err
	}
	v := reflect.ValueOf(params[1])
	if k := v.Kind(); k != reflect.Array && k != reflect.Slice {
		return nil, fmt.Errorf("cannot flatten %s", k)
	}
	limit := budget.left / pieceBytes
	if err := budget.take("flatten", pieceBytes*leavesAtLeast(v, limit)); err != nil {
		return nil, err
	}
	var out []any
	flattenInto(&out, v)
	return out, nil
}

func flattenInto(out *[]any, v reflect.Value) {
	for i := range v.Len() {
		e := v.Index(i)
		for e.Kind() == reflect.Interface || e.Kind() == reflect.Pointer {
			if e.IsNil() {
				break
			}
			e = e.Elem()
		}
		if k := e.Kind(); k == reflect.Array || k == reflect.Slice {
			flattenInto(out, e)
		} else {
			*out = append(*out, e.Interface())
		}
	}
}

// leavesAtLeast counts the elements of v that are not arrays, nested
// arrays looked into, stopping once past limit.
func leavesAtLeast(v reflect.Value, limit int) int {
	n := 0
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		for i := 0; i < v.Len() && n <= limit; i++ {
			e := v.Index(i)
			for (e.Kind() == reflect.Interface || e.Kind() == reflect.Pointer) && !e.IsNil() {
				e = e.Elem()
			}
			if k := e.Kind(); k == reflect.Array || k == reflect.Slice {
				walk(e)
			} else {
				n++
			}
		}
	}
	walk(v)
	return n
}

// writtenAtLeast is a lower bound of the size of v written out by string
// or toJSON: its strings' bytes and at least one byte for every other
// value or element, the walk stopping once past limit (an array that
// holds itself twice at every level is 2^40 values from a few nodes).
func writtenAtLeast(v any, limit int) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch x := v.(type) {
		case string:
			n += len(x)
		case []any:
			n += len(x)
			for _, e := range x {
				if walk(e); n > limit {
					return
				}
			}
		case []string:
			for _, s := range x {
				n += len(s) + 1
			}
		case map[string]any:
			for k, e := range x {
				n += len(k) + 1
				if walk(e); n > limit {
					return
				}
			}
		default:
			r := reflect.ValueOf(v)
			switch r.Kind() {
			case reflect.Slice, reflect.Array:
				n += r.Len()
				for i := 0; i < r.Len() && n <= limit; i++ {
					walk(r.Index(i).Interface())
				}
			case reflect.Map:
				n += r.Len()
				for it := r.MapRange(); it.Next() && n <= limit; {
					walk(it.Key().Interface())
					walk(it.Value().Interface())
				}
			default:
				n++
			}
		}
	}
	walk(v)
	return n
}

// matchesName is the function a matches goes through.
const matchesName = "$matches"

// maxPatternCost bounds a matches pattern's program: its instructions
// times the capture slots each of the matcher's threads carries (one
// thread an instruction at most): (a*)* written 50,000 times, 300 KB,
// takes gigabytes to match "x" with expr's own matches.
const maxPatternCost = 1 << 22

// maxMatchWork bounds the work of the matches of one evaluation together:
// each match's pattern instructions times its text's bytes (at least one),
// what the matcher may do, charged before the match runs, since Go's
// matcher cannot be stopped once it has started: the count, not a clock,
// ends them (what a unit costs: BENCHMARKS.md).
const maxMatchWork = 1 << 28

// maxPatterns is how many compiled patterns an expression keeps: a pattern
// from the data may differ on every trajectory.
const maxPatterns = 64

// pattern is a compiled matches pattern and its instructions.
type pattern struct {
	re    *regexp.Regexp
	insts int
}

// boundedMatches is expr's s matches pattern (false when either is nil)
// with the pattern's program bounded (maxPatternCost) and the work of the
// match charged to the evaluation's (maxMatchWork), patterns compiled
// once per expression.
func boundedMatches(params ...any) (any, error) {
	budget, err := budgetOf("matches", params[0])
	if err != nil {
		return nil, err
	}
	if params[1] == nil || params[2] == nil {
		return false, nil
	}
	src, ok := params[2].(string)
	if !ok {
		return nil, fmt.Errorf("matches: want a string pattern, got %T", params[2])
	}
	p, err := budget.pattern(src)
	if err != nil {
		return nil, err
	}
	switch s := params[1].(type) {
	case string:
		if err := budget.chargeMatch(p, len(s)); err != nil {
			return nil, err
		}
		return p.re.MatchString(s), nil
	case []byte:
		if err := budget.chargeMatch(p, len(s)); err != nil {
			return nil, err
		}
		return p.re.Match(s), nil
	}
	return nil, fmt.Errorf("matches: want a string, got %T", params[1])
}

// chargeMatch takes the work of matching p over n bytes from what is left
// of maxMatchWork, or fails when it would exceed it.
func (b *builtBudget) chargeMatch(p pattern, n int) error {
	work := p.insts * max(n, 1)
	if work > b.matchWork {
		return budgetError("matches: %d instructions over %d bytes would exceed the matches' %d", p.insts, n, maxMatchWork)
	}
	b.matchWork -= work
	return nil
}

// pattern returns src compiled, from the expression's patterns or
// compiled now, or why it is not a pattern within maxPatternCost.
func (b *builtBudget) pattern(src string) (pattern, error) {
	if p, ok := b.patterns[src]; ok {
		return p, nil
	}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return pattern{}, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return pattern{}, err
	}
	if cost := len(prog.Inst) * (2*re.MaxCap() + 2); cost > maxPatternCost {
		return pattern{}, budgetError("matches: the pattern compiles to %d instructions and %d groups", len(prog.Inst), re.MaxCap())
	}
	compiled, err := regexp.Compile(src)
	if err != nil {
		return pattern{}, err
	}
	if len(b.patterns) >= maxPatterns || b.patterns == nil {
		b.patterns = make(map[string]pattern, maxPatterns)
	}
	p := pattern{re: compiled, insts: len(prog.Inst)}
	b.patterns[src] = p
	return p, nil
}

// constantPatterns finds the first pattern of matches written in the
// expression (a string) that is not one, or not within maxPatternCost.
type constantPatterns struct{ err *file.Error }

func (c *constantPatterns) Visit(node *ast.Node) {
	call, ok := (*node).(*ast.CallNode)
	if !ok || c.err != nil || len(call.Arguments) != 3 {
		return
	}
	if id, ok := call.Callee.(*ast.IdentifierNode); !ok || id.Value != matchesName {
		return
	}
	if str, ok := call.Arguments[2].(*ast.StringNode); ok {
		if _, err := new(builtBudget).pattern(str.Value); err != nil {
			c.err = &file.Error{Location: call.Location(), Message: err.Error()}
		}
	}
}
