package sandbox

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRepeatBudget: repeat fails past maxRepeatBytes, before building
// anything, and builds up to it.
func TestRepeatBudget(t *testing.T) {
	if _, err := boundedRepeat(&builtBudget{left: maxBuiltBytes}, strings.Repeat("x", 100000), 100000); err != errRepeatBudget {
		t.Errorf("boundedRepeat past the budget: %v", err)
	}
	if got, err := boundedRepeat(&builtBudget{left: maxBuiltBytes}, "x", maxRepeatBytes); err != nil || len(got.(string)) != maxRepeatBytes {
		t.Errorf("boundedRepeat at the budget: %v", err)
	}
}

// TestPatternInstructions: ^b compiles to 4 instructions, which
// engine's TestMatchesAreChargedTogether counts on.
func TestPatternInstructions(t *testing.T) {
	if p, err := new(builtBudget).pattern("^b"); err != nil || p.insts != 4 {
		t.Fatalf("^b: %d instructions, %v; want 4", p.insts, err)
	}
}

// TestSlowLoopsAreTimed: a loop whose rounds are each slow (a scan of a
// long string), within the counted budgets, stops at its time budget
// (maxRunTime, shortened here).
func TestSlowLoopsAreTimed(t *testing.T) {
	p, err := Compile(`count(1..100000, indexOf(s, "y") < 0)`, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if p.runTime != maxRunTime {
		t.Fatalf("the time budget is %v, want maxRunTime", p.runTime)
	}
	p.runTime = 200 * time.Millisecond
	start := time.Now()
	if v, err := p.Run(map[string]any{"s": strings.Repeat("x", 1<<20)}); err != ErrBudget {
		t.Errorf("= %v, %v; want ErrBudget", v, err)
	}
	if took := time.Since(start); took < p.runTime || took > 10*p.runTime {
		t.Errorf("the slow loop ran %v, its budget is %v", took, p.runTime)
	}
}

// TestCompileError: a syntax error gives its line and 1-based column.
func TestCompileError(t *testing.T) {
	_, err := Compile("1 +\n* 2", map[string]any{})
	e, ok := err.(*Error)
	if !ok || e.Line != 2 || e.Column != 1 {
		t.Fatalf("Compile of a syntax error on line 2: %#v", err)
	}
}

// TestParseAsCompile: Parse fails where Compile fails on the syntax, with
// the same error, and passes an expression that parses but does not
// compile (a type error) or reads names it does not know.
func TestParseAsCompile(t *testing.T) {
	for _, src := range []string{"x >", "(a", "a +* b", "all(x)", `"unclosed`} {
		_, compileErr := Compile(src, map[string]any{"x": 0.0})
		parseErr := Parse(src)
		if compileErr == nil || parseErr == nil || parseErr.Error() != compileErr.Error() {
			t.Errorf("%q: Parse %v, Compile %v", src, parseErr, compileErr)
		}
	}
	for _, src := range []string{`x + "s"`, "unknown > 1", `metadata["k"] >= 0.5`} {
		if err := Parse(src); err != nil {
			t.Errorf("%q: %v, want it parsed", src, err)
		}
	}
	if _, err := Compile(`x + "s"`, map[string]any{"x": 0.0}); err == nil {
		t.Error(`x + "s" compiled: not a type error to tell apart`)
	}
}

// TestRunErrorAllocates: a run that fails costs what expr's own failure
// does, the RunError and runReason's errors.As target, no more: rows that
// fail alike each pass here, so expr's error text (with its snippet of
// the source) is not formatted to be looked through.
func TestRunErrorAllocates(t *testing.T) {
	p, err := Compile("len(x) * 2", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if p.budgeted {
		t.Fatal("the probe must not set a budget in its environment")
	}
	env := map[string]any{"x": 0.5}
	if _, err := p.Run(env); !errors.As(err, new(*RunError)) {
		t.Fatalf("Run: %v, want a RunError", err)
	}
	exprs := testing.AllocsPerRun(100, func() { _, _ = p.vm.Run(p.program, env) })
	ours := testing.AllocsPerRun(100, func() { _, _ = p.Run(env) })
	if ours > exprs+2 {
		t.Errorf("a failing Run allocates %.0f times, expr's run %.0f: want at most two more", ours, exprs)
	}
}
