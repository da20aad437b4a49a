package scoring

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// mixedTrajectories returns n trajectories whose metadata values are of
// every kind an expression can meet: numbers, NaN, infinities, strings,
// bools, null and absent keys; the batches and groups come in runs and out
// of order.
func mixedTrajectories(rng *rand.Rand, n int) []Trajectory {
	values := []any{0.5, -2.0, 3.0, math.NaN(), math.Inf(1), math.Inf(-1), "x", true, nil, 7, int64(8)}
	ts := make([]Trajectory, n)
	for i := range ts {
		md := map[string]any{}
		for _, k := range []string{"a", "b", "len", "id"} {
			if rng.IntN(8) > 0 {
				md[k] = values[rng.IntN(len(values))]
				if rng.IntN(2) == 0 {
					md[k] = rng.Float64()
				}
			}
		}
		if rng.IntN(50) == 0 {
			md = nil
		}
		ts[i] = Trajectory{
			ID:        fmt.Sprint(i),
			Batch:     int64((i / 300) % 7),
			Group:     fmt.Sprintf("g%d", (i/8+rng.IntN(2))%40),
			StepCount: int64(rng.IntN(9)),
			Done:      rng.IntN(2) == 0,
			Response:  []byte(`"r"`),
			Metadata:  md,
		}
	}
	return ts
}

// TestInferredObjectivesAreLean: the objectives InferObjectives writes
// (metadata["KEY"], KEY quoted as Go does) need no program: a record of
// a million numeric fields is a million of them, which compiled took 7 GB
// and a minute. They read what the compiled expression reads, the fields
// they read named in the no-valid error; anything else still compiles.
func TestInferredObjectivesAreLean(t *testing.T) {
	tr := Trajectory{Done: true, Metadata: map[string]any{"a b": 2.0, "x\n\"y": 3.0, "id": 4.0}}
	for _, key := range []string{"a b", "x\n\"y", "id", "absent"} {
		src := fmt.Sprintf("metadata[%q]", key)
		e, err := CompileExpression("o", src)
		if err != nil || e.program != nil || !e.direct || e.key != key {
			t.Fatalf("%s: %v, program %v, key %q", src, err, e.program != nil, e.key)
		}
		compiled, err := CompileExpression("o", "("+src+")")
		if err != nil || compiled.program == nil {
			t.Fatalf("(%s): %v", src, err)
		}
		got, gerr := e.Eval(&tr)
		want, werr := compiled.Eval(&tr)
		if gerr != werr || got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%s = %v, %v; compiled %v, %v", src, got, gerr, want, werr)
		}
		if v, err := e.Clone().Value(&tr); v != tr.Metadata[key] || err != nil {
			t.Errorf("%s: clone's value %v, %v", src, v, err)
		}
		if read := e.FieldsRead(); !slices.Equal(read, []string{key}) {
			t.Errorf("%s reads %q", src, read)
		}
	}
	for _, src := range []string{`metadata['a']`, `metadata["a"] `, `metadata["\x61"]`, `metadata["a"]["b"]`, `metadata[1]`} {
		if e, err := CompileExpression("o", src); err == nil && e.program == nil {
			t.Errorf("%s was not compiled", src)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 10000 {
		if _, err := CompileExpression("o", fmt.Sprintf("metadata[%q]", fmt.Sprint("k", i))); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10000; per > 1024 {
		t.Errorf("an inferred objective allocates %d bytes", per)
	}
}

// TestDirectExpressionsMatchVM checks that the expressions Eval reads
// without the VM give what the VM gives, value and cause.
func TestDirectExpressionsMatchVM(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 5))
	ts := mixedTrajectories(rng, 3000)
	for _, src := range []string{`metadata.a`, `metadata["b"]`, `a`, `b`, `len`, `missing`, `metadata.missing`, `metadata["len"]`, `metadata.id`} {
		e, err := CompileExpression("x", src)
		if err != nil {
			t.Fatal(err)
		}
		if !e.direct {
			t.Fatalf("%s: not read directly", src)
		}
		// The program of the same expression in parentheses, run by the
		// VM (metadata["b"] as InferObjectives writes it has none).
		compiled, err := CompileExpression("x", "("+src+")")
		if err != nil || compiled.program == nil {
			t.Fatalf("(%s): %v", src, err)
		}
		vm := *compiled
		vm.direct = false
		for i := range ts {
			got, gerr := e.Eval(&ts[i])
			want, werr := vm.Eval(&ts[i])
			if !reflect.DeepEqual(gerr, werr) || math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("%s on %v: direct %v %v, VM %v %v", src, ts[i].Metadata, got, gerr, want, werr)
			}
		}
	}
	for _, src := range []string{`id`, `step_count`, `metadata?.a`, `$env`, `a + 0`, `metadata.a.b`, `-a`} {
		e, err := CompileExpression("x", src)
		if err != nil {
			continue
		}
		if e.direct {
			t.Errorf("%s: read directly, but it is not a plain metadata read", src)
		}
	}
}

// TestReducedEnvMatchesFullEnv checks that evaluating with an environment
// of the expression's identifiers only gives what the full environment
// (every metadata key and field) gives.
func TestReducedEnvMatchesFullEnv(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 8))
	ts := mixedTrajectories(rng, 2000)
	for _, src := range []string{
		`a + b`, `a * 2 - step_count / 4`, `done ? a : b`, `len(response)`, `id == "3" ? 1 : 0`, `group == "g1" ? a : 0`,
		`metadata.a + b`, `batch + step_count`, `len ?? 0`, `let x = a; x * 2`, `[a, b][0]`, `a > 0 and b > 0 ? 1 : 0`,
		`missing ?? 5`, `$env.a`, `$env["id"] == "1" ? 1 : 0`, `filter([a, b], # > 0.5) | len()`, `metadata?.a ?? 0`,
	} {
		e, err := CompileExpression("x", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		full := e.Clone()
		full.fullEnv, full.direct = true, false
		for i := range ts {
			got, gerr := e.Eval(&ts[i])
			want, werr := full.Eval(&ts[i])
			if !reflect.DeepEqual(gerr, werr) || math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("%s on %v: reduced %v %v, full %v %v", src, ts[i].Metadata, got, gerr, want, werr)
			}
		}
	}
}

// TestUnpickedKeyIsAbsent: a key the pick does not name is absent.
func TestUnpickedKeyIsAbsent(t *testing.T) {
	p := Trajectory{LoaderState: LoaderState{Pick: &Pick{Keys: []string{"b"}}, Picked: []PickedValue{{Number: 1, Kind: PickedNumber}}}}
	if x, err := p.pickedNumber("a"); err != ErrMissing || !math.IsNaN(x) {
		t.Errorf("an unpicked key reads as %v, %v; want NaN, %v", x, err, ErrMissing)
	}
}

// TestNotNumberValue: a value that is not a number is ErrNotNumber, and
// says what it was: a string quoted, escaped and cut; a bool (a logged
// advantage's); a list; a map; nothing for a value not kept.
func TestNotNumberValue(t *testing.T) {
	long := strings.Repeat("ab", 30) + "\n"
	for _, c := range []struct {
		value any
		want  string
	}{
		{"1.0", `the string "1.0"`},
		{"\x1b[2J", `the string "\x1b[2J"`},
		{long, `the string "` + long[:textsafe.ShortRunes] + `"…`},
		{true, "a bool true"},
		{[]any{1.0}, "a list"},
		{map[string]any{}, "a map"},
		{nil, ""},
	} {
		err := notNumber(c.value)
		if !errors.Is(err, ErrNotNumber) || err.Error() != ErrNotNumber.Error() || err.Value() != c.want {
			t.Errorf("%#v: %v, value %q; want ErrNotNumber, %q", c.value, err, err.Value(), c.want)
		}
	}
	// A bool is not a number for a logged advantage.
	e, err := CompileExpression("x", "metadata.x")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = e.EvalNumber(&Trajectory{Metadata: map[string]any{"x": true}})
	var notNumber *NotNumberError
	if !errors.As(err, &notNumber) || notNumber.Value() != "a bool true" {
		t.Errorf("a bool logged: %v", err)
	}
}

// TestEvalReasonQuotesTextShort: the reason of an evaluation error
// quotes a long text value it read as every message quotes a value from
// the data (textsafe.QuoteShort): its first 40 characters, "…" after.
func TestEvalReasonQuotesTextShort(t *testing.T) {
	e, err := CompileExpression("x", "metadata.x * 2")
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("é", 50)
	_, err = e.Eval(&Trajectory{Metadata: map[string]any{"x": long}})
	var evalErr *EvalError
	if !errors.As(err, &evalErr) {
		t.Fatalf("error %v, want an EvalError", err)
	}
	if got, want := evalErr.Reason(), `invalid operation: string * int (x = "`+strings.Repeat("é", 40)+`"…)`; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
}

// TestCauseErrorsHoldTheSettingsErrors: every error a constraint or gate
// shares among its rows is one CauseErrors lists, so that the table of
// causes built from it (engine's CauseOf) recognises theirs.
func TestCauseErrorsHoldTheSettingsErrors(t *testing.T) {
	for _, err := range append(slices.Clone(sharedErrors), ErrEval, ErrNotNumber, ErrBudget) {
		if !slices.Contains(CauseErrors(), err) {
			t.Errorf("%v is not among CauseErrors", err)
		}
	}
}
