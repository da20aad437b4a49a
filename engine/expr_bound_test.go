package engine

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRepeatIsBounded: nested repeat, which expr's own builtin lets build
// 10 GB, makes the trajectory invalid at once; a small repeat still works.
func TestRepeatIsBounded(t *testing.T) {
	big, err := CompileExpression("o", `len(repeat(repeat("x", 100000), 100000))`)
	if err != nil {
		t.Fatal(err)
	}
	tr := Trajectory{Done: true}
	if v, err := big.Eval(&tr); err != ErrBudget {
		t.Errorf("nested repeat: %v, %v; want ErrBudget", v, err)
	}
	if _, err := boundedRepeat(&builtBudget{left: maxBuiltBytes}, strings.Repeat("x", 100000), 100000); err != errRepeatBudget {
		t.Errorf("boundedRepeat past the budget: %v", err)
	}
	if got, err := boundedRepeat(&builtBudget{left: maxBuiltBytes}, "x", maxRepeatBytes); err != nil || len(got.(string)) != maxRepeatBytes {
		t.Errorf("boundedRepeat at the budget: %v", err)
	}
	small, err := CompileExpression("o", `len(repeat("ab", 3))`)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := small.Eval(&tr); err != nil || v != 6 {
		t.Errorf("repeat(\"ab\", 3): %v, %v; want 6", v, err)
	}
	if _, err := CompileExpression("o", `repeat(1, 2)`); err == nil {
		t.Error("repeat(1, 2) compiled: the types are no longer checked")
	}
}

// TestBuiltStringsAreBounded: replace, join and repeat in a loop, which
// expr's own builtins let build terabytes from a few bytes, make the
// trajectory invalid once the evaluation's strings would pass
// maxBuiltBytes together, data-driven or not; the same functions on
// ordinary strings still work, run after run (the budget is per run).
func TestBuiltStringsAreBounded(t *testing.T) {
	tr := Trajectory{Done: true, Metadata: map[string]any{"s": strings.Repeat("x", 1000), "word": "ab"}}
	for _, src := range []string{
		`len(replace(repeat("x", 1000000), "x", repeat("y", 1000000)))`,
		`len(replace(s, "x", repeat("y", 100000)))`,
		`len(join(map(1..100000, repeat("x", 1000)), ""))`,
		`len(join(map(1..20000, s), ","))`,
		`sum(map(1..100000, len(repeat(word, 100))))`,
		`sum(map(1..100000, len(replace(s, "x", "yy"))))`,
	} {
		e, err := CompileExpression("o", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if v, err := e.Eval(&tr); err != ErrBudget {
			t.Errorf("%s = %v, %v; want ErrBudget", src, v, err)
		}
	}
	for src, want := range map[string]float64{
		`len(replace(s, "x", "yy"))`:                         2000,
		`len(replace("aXbXc", "X", "--", 1))`:                6,
		`len(join(["a", "bc", word], "-"))`:                  7,
		`len(join(map(1..3, "x")))`:                          3,
		`len(join(split("a b c", " "), ""))`:                 3,
		`sum(map(1..100, len(replace(s, "x", "yy"))))`:       200000,
		`len(repeat(word, 3)) + len(replace(word, "", "-"))`: 11,
	} {
		e, err := CompileExpression("o", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for run := range 3 {
			if v, err := e.Eval(&tr); err != nil || v != want {
				t.Errorf("%s, run %d = %v, %v; want %v", src, run, v, err, want)
			}
		}
	}
	if _, err := CompileExpression("o", `replace(1, "a", "b")`); err == nil {
		t.Error(`replace(1, "a", "b") compiled: the types are no longer checked`)
	}
}

// TestLoopsAreBounded: the loops of an evaluation stop at the same place
// on every machine and every run: a string grown with + (quadratic) at
// maxLoopBytes, nested loops at maxLoopRounds; loops over ordinary data
// run as before, predicates included, and a loop just within the budgets
// gives its value run after run.
func TestLoopsAreBounded(t *testing.T) {
	xs := make([]any, 3000)
	for i := range xs {
		xs[i] = float64(i)
	}
	tr := Trajectory{Done: true, Metadata: map[string]any{"xs": []any{1.0, 2.0, 3.0, 4.0}, "long": xs, "thousand": xs[:1000], "threehundred": xs[:300]}}
	for _, src := range []string{
		`len(reduce(1..999999, #acc + "xxxxxxxxxx", ""))`,       // 5e12 bytes built
		`reduce(long, #acc + reduce(thousand, #acc + 1, 0), 0)`, // 3M rounds
	} {
		e, err := CompileExpression("o", src)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := e.Eval(&tr); err != ErrBudget {
			t.Errorf("%s = %v, %v; want ErrBudget", src, v, err)
		}
	}
	for src, want := range map[string]float64{
		`sum(map(xs, # * 2))`:       20,
		`count(xs, # > 2)`:          2,
		`len(filter(xs, # > 1))`:    3,
		`all(xs, # > 0) ? 1 : 0`:    1,
		`reduce(xs, #acc + #, 0)`:   10,
		`sum(map(1..10000, # % 2))`: 5000,
		// 61 MB of strings given by the rounds, within maxLoopBytes.
		`len(reduce(1..3500, #acc + "xxxxxxxxxx", ""))`: 35000,
		// 3000 + 3000*300 rounds, within maxLoopRounds.
		`reduce(long, #acc + reduce(threehundred, #acc + 1, 0), 0)`: 9e5,
	} {
		e, err := CompileExpression("o", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for run := range 2 {
			if v, err := e.Eval(&tr); err != nil || v != want {
				t.Errorf("%s, run %d = %v, %v; want %v", src, run, v, err, want)
			}
		}
	}
}

// TestLoopBodiesAreTypeChecked: a loop's body goes through tick, yet is
// type checked as written: a predicate that is not a boolean is a compile
// error with its position, as in expr without budgets.
func TestLoopBodiesAreTypeChecked(t *testing.T) {
	for _, src := range []string{
		`count(1..3, "a")`,
		`len(filter(1..3, # + 1))`,
		`all(1..3, 1)`,
	} {
		_, err := CompileExpression("o", src)
		var ce *CompileError
		if !errors.As(err, &ce) {
			t.Errorf("%s compiled (%v); want a CompileError", src, err)
		}
	}
	e, err := CompileExpression("o", `sum(map(1..3, # * 2)) + len(filter(["a", "bb"], len(#) > 1))`)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := e.Eval(&Trajectory{}); err != nil || v != 13 {
		t.Errorf("= %v, %v; want 13", v, err)
	}
}

// TestSlowLoopsAreTimed: a loop whose rounds are each slow (a scan of a
// long string), within the counted budgets, stops at its time budget
// (maxRunTime, shortened here).
func TestSlowLoopsAreTimed(t *testing.T) {
	tr := Trajectory{Done: true, Metadata: map[string]any{"s": strings.Repeat("x", 1<<20)}}
	e, err := CompileExpression("o", `count(1..100000, indexOf(s, "y") < 0)`)
	if err != nil {
		t.Fatal(err)
	}
	if e.runTime != maxRunTime {
		t.Fatalf("the time budget is %v, want maxRunTime", e.runTime)
	}
	e.runTime = 200 * time.Millisecond
	start := time.Now()
	if v, err := e.Eval(&tr); err != ErrBudget {
		t.Errorf("= %v, %v; want ErrBudget", v, err)
	}
	if took := time.Since(start); took < e.runTime || took > 10*e.runTime {
		t.Errorf("the slow loop ran %v, its budget is %v", took, e.runTime)
	}
}
