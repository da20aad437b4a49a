package scoring

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
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
// sandbox.maxBuiltBytes together, data-driven or not; the same functions on
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
	evalsRunAfterRun(t, &tr, 3, map[string]float64{
		`len(replace(s, "x", "yy"))`:                         2000,
		`len(replace("aXbXc", "X", "--", 1))`:                6,
		`len(join(["a", "bc", word], "-"))`:                  7,
		`len(join(map(1..3, "x")))`:                          3,
		`len(join(split("a b c", " "), ""))`:                 3,
		`sum(map(1..100, len(replace(s, "x", "yy"))))`:       200000,
		`len(repeat(word, 3)) + len(replace(word, "", "-"))`: 11,
	})
	if _, err := CompileExpression("o", `replace(1, "a", "b")`); err == nil {
		t.Error(`replace(1, "a", "b") compiled: the types are no longer checked`)
	}
}

// TestLoopsAreBounded: the loops of an evaluation stop at the same place
// on every machine and every run: a string grown with + (quadratic) at
// sandbox.maxBuiltBytes, nested loops at sandbox.maxLoopRounds; loops over ordinary data
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
	evalsRunAfterRun(t, &tr, 2, map[string]float64{
		`sum(map(xs, # * 2))`:       20,
		`count(xs, # > 2)`:          2,
		`len(filter(xs, # > 1))`:    3,
		`all(xs, # > 0) ? 1 : 0`:    1,
		`reduce(xs, #acc + #, 0)`:   10,
		`sum(map(1..10000, # % 2))`: 5000,
		// 11 MB of strings joined by + in the rounds, within sandbox.maxBuiltBytes.
		`len(reduce(1..1500, #acc + "xxxxxxxxxx", ""))`: 15000,
		// 1000 + 1000*300 rounds, within sandbox.maxLoopRounds, and well within
		// the clock of slow rounds under the race detector on a loaded
		// machine.
		`reduce(thousand, #acc + reduce(threehundred, #acc + 1, 0), 0)`: 3e5,
	})
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

// TestBuildersAreBounded: strings and arrays that a few nodes build to
// gigabytes without repeat, replace or join (a string doubled through
// let or a loop's accumulator, toJSON or toBase64 nested, arrays that
// hold one another written out or flattened, split into characters in a
// loop) make the trajectory invalid within the evaluation's budget,
// allocating tens of megabytes, not gigabytes; the same builtins on
// ordinary values give what expr's own give.
func TestBuildersAreBounded(t *testing.T) {
	nest := func(f string, n int, arg string) string {
		return strings.Repeat(f+"(", n) + arg + strings.Repeat(")", n)
	}
	var doubled strings.Builder
	doubled.WriteString(`let v0 = repeat("x", 1000000); `)
	for i := range 20 {
		fmt.Fprintf(&doubled, "let v%d = v%d + v%d; ", i+1, i, i)
	}
	doubled.WriteString("len(v20)")
	tr := Trajectory{Done: true, Metadata: map[string]any{"s": strings.Repeat("\\", 1000)}}
	for _, src := range []string{
		doubled.String(),
		`len(reduce(1..40, #acc + #acc, "x"))`,
		`len(reduce(1..40, toJSON(#acc) + toJSON(#acc), "x"))`,
		"len(" + nest("toJSON", 20, "s") + ")",
		"len(" + nest("toBase64", 45, `repeat("x", 1000000)`) + ")",
		"len(" + nest("upper", 45, `toBase64(repeat("x", 1000000))`) + ")",
		`len(flatten(reduce(1..40, [#acc, #acc], 1)))`,
		`len(string(reduce(1..40, [#acc, #acc], 1)))`,
		`len(toJSON(reduce(1..40, [#acc, #acc], 1)))`,
		`len(map(1..999999, split(repeat("ab", 1000000), "")))`,
		`len(map(1..999999, fromJSON(toJSON(1..100000))))`,
	} {
		overBudgetWithin(t, src, &tr, 1<<30)
	}
	evalsRunAfterRun(t, &tr, 3, map[string]float64{
		`let a = "ab"; len(a + a + "c")`:                      5,
		`len(reduce(1..3, #acc + "x", ""))`:                   3,
		`reduce(1..4, #acc + #, 0)`:                           10,
		`let x = 2; x + 3`:                                    5,
		`len(toJSON({a: 1, b: [1, 2]}))`:                      39,
		`len(string([1, 2]))`:                                 5,
		`len(upper("aé") + lower("AÉ"))`:                      4,
		`len(toBase64("abc"))`:                                4,
		`fromJSON("[1, 2, 3]")[2]`:                            3,
		`len(split("a,b,c", ",")) + len(split("abc", ""))`:    6,
		`len(split("a,b,c", ",", 2))`:                         2,
		`len(splitAfter("a,b,c", ",")[0])`:                    2,
		`len(flatten([[1, 2], [3, [4]], []]))`:                4,
		`sum(map(1..100, len(split(repeat("ab", 100), ""))))`: 20000,
	})
	for _, src := range []string{`"a" + 1`, `let a = "a"; a + 1`, `upper(1)`} {
		if _, err := CompileExpression("o", src); err == nil {
			t.Errorf("%s compiled: the types are no longer checked", src)
		}
	}
}

// TestMatchesIsBounded: a pattern whose matcher would take gigabytes
// ((a*)* many times: a thread per instruction, each with every group's
// slots) makes the trajectory invalid when it comes from the data or a
// builder, and is an error when the expression compiles when it is
// written in it, as a malformed pattern is; ordinary patterns match as
// expr's matches does, constant or not.
func TestMatchesIsBounded(t *testing.T) {
	tr := Trajectory{ID: "p01-c3", Group: "p01", Done: true, Metadata: map[string]any{"bomb": strings.Repeat("(a*)*", 50000)}}
	for _, src := range []string{`"x" matches repeat("(a*)*", 200000) ? 1 : 0`, `"x" matches bomb ? 1 : 0`} {
		overBudgetWithin(t, src, &tr, 1<<30)
	}
	for src, want := range map[string]string{
		`"x" matches "` + strings.Repeat("(a*)*", 50000) + `" ? 1 : 0`: "line 1, column 5: matches: the pattern compiles to 300002 instructions and 50000 groups: over the expression's budget",
		`group matches "(" ? 1 : 0`:                                    "line 1, column 7: error parsing regexp: missing closing ): `(`",
	} {
		_, err := CompileExpression("o", src)
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%.40s: %v, want ...%s", src, err, want)
		}
	}
	evalsRunAfterRun(t, &tr, 3, map[string]float64{
		`group matches "^p0[0-9]$" ? 1 : 0`:             1,
		`id matches group ? 1 : 0`:                      1,
		`id matches "^" + group + "-c[0-2]$" ? 1 : 0`:   0,
		`nothing matches "x" ? 1 : 0`:                   0,
		`b"p01" matches "1$" ? 1 : 0`:                   1,
		`count(["a1", "b2", "a3"], # matches "^a") + 0`: 2,
		`let p = "c" + "3"; id matches p ? 1 : 0`:       1,
	})
	if _, err := CompileExpression("o", `1 matches "x"`); err == nil {
		t.Error(`1 matches "x" compiled: the types are no longer checked`)
	}
}

// TestMatchesAreChargedTogether: the matches of one evaluation take their
// work (instructions times bytes) from one budget, charged before each
// match runs (a match cannot be stopped once started): 20 matches of
// (a|aa)*c over 10 MB, 10 s of matching, were each within the bound of
// one match and the row valid. ^b compiles to 4 instructions, so that 64
// matches over 1 MiB are 2^28, the budget, on every run of the
// expression; one more is over it.
func TestMatchesAreChargedTogether(t *testing.T) {
	const text, fit = 1 << 20, 64
	tr := Trajectory{Done: true, Metadata: map[string]any{"s": strings.Repeat("a", text)}}
	// ^b is 4 instructions: TestPatternInstructions (engine/sandbox).
	evalsRunAfterRun(t, &tr, 3, map[string]float64{
		fmt.Sprintf(`count(1..%d, s matches "^b")`, fit):      0,
		fmt.Sprintf(`count(1..%d, s matches "^a")`, fit):      float64(fit),
		`count(1..100000, "ab" matches "^a") + len(s) * 0`:    100000,
		`(s matches "^a" ? 1 : 0) + (s matches "b$" ? 1 : 0)`: 1,
	})
	for _, src := range []string{
		fmt.Sprintf(`count(1..%d, s matches "^b")`, fit+1),
		fmt.Sprintf(`count(1..%d, s matches "^a")`, fit+1),
		`count(1..1000, len(s) > 0 && s matches "^b")`,
	} {
		e, err := CompileExpression("o", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if v, err := e.Eval(&tr); err != ErrBudget {
			t.Errorf("%s = %v, %v; want ErrBudget", src, v, err)
		}
	}
}

// TestStringSumsAreBounded: strings joined by + without a let or a loop
// count against the 16 MiB of built strings too: a chain of + on a long
// string builds the square of its terms (240 terms of a 10 MB response
// went past 5 GB); the same sums on short strings, and sums of numbers,
// still work.
func TestStringSumsAreBounded(t *testing.T) {
	tr := Trajectory{Done: true, Response: []byte(`"` + strings.Repeat("x", 1<<20) + `"`), Metadata: map[string]any{"a": 1.0, "b": "ab"}}
	chain := "len(response" + strings.Repeat(" + response", 239) + ")"
	overBudgetWithin(t, chain, &tr, 64<<20)
	overBudgetWithin(t, `len(response + response + response + response + response + response + response + response + response + response + response + response + response + response + response + response)`, &tr, 64<<20)
	evalsRunAfterRun(t, &tr, 3, map[string]float64{
		`len(response + response)`:   2 << 20,
		`len(b + b + "c" + id)`:      5,
		`a + a + 1`:                  3,
		`metadata.a + metadata.a`:    2,
		`len(response + b) - len(b)`: 1 << 20,
	})
}

// TestSumsInLoopsAndLets: a + that may join strings goes through the
// budget's $add, under a let, in a loop or not, yet sums of values of unknown types stay numbers to
// compare, divide or round, as in expr without budgets.
func TestSumsInLoopsAndLets(t *testing.T) {
	tr := Trajectory{Done: true, Metadata: map[string]any{
		"accuracy": 0.5, "a": 1.0, "b": 2.0, "xs": []any{1.0, 2.0, 3.0}, "scores": []any{0.5, 1.5}}}
	evalsRunAfterRun(t, &tr, 1, map[string]float64{
		`reduce(scores, #acc + #) / len(scores)`:   1,
		`all(xs, # + a > 1) ? 1 : 0`:               1,
		`count(xs, # + a > 2)`:                     2,
		`len(filter(xs, # + a > 2))`:               2,
		`let y = accuracy + a; y > 1 ? 1 : 0`:      1,
		`let x = a; (x + b) * 2`:                   6,
		`let x = a; abs(x + b)`:                    3,
		`let x = a; round(x + b)`:                  3,
		`let x = a; x + b == 3 ? 1 : 0`:            1,
		`let m = metadata; m.a + m.b > 2 ? 1 : 0`:  1,
		`let s = "ab"; len(s + s)`:                 4,
		`reduce(["a", "b"], #acc + #, "") == "ab"`: 1,
		`sum(map(xs, let y = # + a; y * 2))`:       18,
	})
}

// overBudgetWithin checks that the expression src makes tr invalid with
// ErrBudget, having allocated at most limit bytes on the way.
func overBudgetWithin(t *testing.T, src string, tr *Trajectory, limit uint64) {
	t.Helper()
	e, err := CompileExpression("o", src)
	if err != nil {
		t.Fatalf("%.60s: %v", src, err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v, err := e.Eval(tr)
	runtime.ReadMemStats(&after)
	if err != ErrBudget {
		t.Errorf("%.60s = %v, %v; want ErrBudget", src, v, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > limit {
		t.Errorf("%.60s allocated %d MiB", src, alloc>>20)
	}
}

// evalsRunAfterRun checks that each expression compiles and gives its
// value on tr, runs times over (its budgets are the run's, not the
// expression's).
func evalsRunAfterRun(t *testing.T, tr *Trajectory, runs int, want map[string]float64) {
	t.Helper()
	for src, value := range want {
		e, err := CompileExpression("o", src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		for run := range runs {
			if v, err := e.Eval(tr); err != nil || v != value {
				t.Errorf("%s, run %d = %v, %v; want %v", src, run, v, err, value)
			}
		}
	}
}
