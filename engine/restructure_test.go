package engine

import (
	"context"
	"errors"
	"fmt"
	"github.com/rewardlens/rewardlens/engine/setup"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// restructureConfig is objectives a (max), b (min), c (max), or with
// sources, math's a and c and code's b and c.
func restructureConfig(sources bool) setup.Config {
	w7, w3, w5 := 0.7, 0.3, 0.5
	a := setup.ObjectiveConfig{Name: "a", Expr: "metadata.a", Weight: &w7}
	b := setup.ObjectiveConfig{Name: "b", Expr: "metadata.b", Goal: "min", Weight: &w3}
	c := setup.ObjectiveConfig{Name: "c", Expr: "metadata.c", Weight: &w5}
	if !sources {
		return setup.Config{Objectives: []setup.ObjectiveConfig{a, b, c}}
	}
	return setup.Config{SourceBy: "src", Sources: map[string]setup.SourceConfig{
		"math": {Objectives: []setup.ObjectiveConfig{a, c}},
		"code": {Objectives: []setup.ObjectiveConfig{b, c}},
	}}
}

// The constraints and gates the test draws from: over objectives and
// lean fields only (lean), or over metadata too.
var (
	leanConstraints = []string{"a >= 2", "b < 2", "a + b > 3", "step_count <= 2", "done", "c == 1"}
	bodyConstraints = []string{"flag", "x >= 1", "metadata.b + a < 4"}
	leanGates       = []string{"a: b < 2", "c: step_count > 0", "b: a >= 1"}
	bodyGates       = []string{"c: flag", "a: x > 0"}
)

// pick returns a random subset of from, in random order.
func pick(rng *rand.Rand, from []string) []string {
	var out []string
	for _, i := range rng.Perm(len(from)) {
		if rng.IntN(3) == 0 {
			out = append(out, from[i])
		}
	}
	return out
}

// TestRestructureEqualsFromTheStart checks, on random data with ties,
// that changing an evaluation's constraints and gates gives what
// evaluating with the new ones from the start gives: validity and causes,
// violations, gates, and every method's ranks, scores and rewards, at both
// scopes, from lean trajectories when the expressions allow it.
func TestRestructureEqualsFromTheStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	for trial := range 40 {
		sources := trial%4 == 3
		ts := enginetest.RestructureData(uint64(trial), 50+rng.IntN(150))
		cfg0 := restructureConfig(sources)
		cfg0.Constraints = pick(rng, slices.Concat(leanConstraints, bodyConstraints))
		cfg0.Gates = pick(rng, slices.Concat(leanGates, bodyGates))
		cfg1 := restructureConfig(sources)
		body := trial%2 == 0
		if body {
			cfg1.Constraints = pick(rng, slices.Concat(leanConstraints, bodyConstraints))
			cfg1.Gates = pick(rng, slices.Concat(leanGates, bodyGates))
		} else {
			cfg1.Constraints, cfg1.Gates = pick(rng, leanConstraints), pick(rng, leanGates)
		}
		name := fmt.Sprintf("trial %d: %q %q -> %q %q", trial, cfg0.Constraints, cfg0.Gates, cfg1.Constraints, cfg1.Gates)
		c0, err := New(cfg0)
		if err != nil {
			t.Fatal(name, err)
		}
		c1, err := New(cfg1)
		if err != nil {
			t.Fatal(name, err)
		}
		want := Evaluate(c1.Scorer, ts)
		ev0 := Evaluate(c0.Scorer, ts)
		r, err := NewRestructure(c0.Scorer, cfg1.Constraints, cfg1.Gates)
		if err != nil {
			t.Fatal(name, err)
		}
		lean := slices.Clone(ts)
		if !r.ReadsBody() {
			for i := range lean {
				lean[i].DropBody()
			}
		} else if hasBody := slices.ContainsFunc(slices.Concat(cfg1.Constraints, cfg1.Gates), func(s string) bool {
			return slices.Contains(bodyConstraints, s) || slices.Contains(bodyGates, s)
		}); !hasBody {
			t.Fatalf("%s: ReadsBody without a metadata field", name)
		}
		got, err := r.Apply(context.Background(), ev0, func(i int) (*scoring.Trajectory, error) { return &lean[i], nil })
		if err != nil {
			t.Fatal(name, err)
		}
		if !slices.Equal(got.Valid, want.Valid) || !slices.Equal(got.Causes, want.Causes) {
			t.Fatalf("%s: validity differs:\n got %v %q\nwant %v %q", name, got.Valid, got.Causes, want.Valid, want.Causes)
		}
		if !sameFloats(got.Violation, want.Violation) || !slices.Equal(got.feasible, want.feasible) ||
			!slices.Equal(got.ConstraintHolds, want.ConstraintHolds) || !slices.Equal(got.GateShut, want.GateShut) {
			t.Fatalf("%s: constraints or gates differ", name)
		}
		// Only valid trajectories' violations and gates mean anything; the
		// arrays match whole all the same, as both are 0 elsewhere.
		for _, m := range []Method{Pareto, GRPO, Relative, GDPO, ParetoCrowding} {
			for _, scope := range Scopes {
				opts := DefaultOptions()
				opts.Method, opts.Scope, opts.Penalty = m, scope, 0.5+float64(trial%3)
				g, w := got.Compute(opts), want.Compute(opts)
				g.Finish()
				w.Finish()
				if !slices.Equal(g.Ranking.Ranks, w.Ranking.Ranks) || !sameFloats(g.Scores, w.Scores) || !sameFloats(g.Rewards, w.Rewards) {
					t.Fatalf("%s, %s %s: ranks, scores or rewards differ", name, m, scope)
				}
			}
		}
	}
}

// TestRestructureErrors checks that NewRestructure refuses what New
// refuses, with the same errors: a constraint that is not a boolean, a
// gate of no objective (with "did you mean").
func TestRestructureErrors(t *testing.T) {
	c, err := New(restructureConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		constraints, gates []string
		want               string
	}{
		{[]string{"a + 1"}, nil, `constraint "a + 1" is not a boolean`},
		{nil, []string{"aa: b < 2"}, `did you mean a?`},
		{nil, []string{"a b < 2"}, `want 'NAME: EXPR'`},
	} {
		_, err := NewRestructure(c.Scorer, tc.constraints, tc.gates)
		cfg := restructureConfig(false)
		cfg.Constraints, cfg.Gates = tc.constraints, tc.gates
		_, errNew := New(cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errNew == nil || err.Error() != errNew.Error() {
			t.Errorf("%q %q: got %v, New's %v, want %q", tc.constraints, tc.gates, err, errNew, tc.want)
		}
	}
}

// TestRestructureStops checks that an error of the trajectories stops
// Apply with it.
func TestRestructureStops(t *testing.T) {
	ts := enginetest.RestructureData(1, 30)
	c, err := New(restructureConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRestructure(c.Scorer, []string{"flag"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gone := errors.New("file changed")
	if _, err := r.Apply(context.Background(), Evaluate(c.Scorer, ts), func(int) (*scoring.Trajectory, error) { return nil, gone }); !errors.Is(err, gone) {
		t.Fatalf("got %v, want %v", err, gone)
	}
}

// TestRestructureEvalReasons: the constraints and gates Apply evaluates
// give their causes the reason of their first failing trajectory, as
// evaluating with them from the start does, over the goroutines and on
// one (an expression reading metadata); the old constraint's reason goes,
// and ev keeps its own.
func TestRestructureEvalReasons(t *testing.T) {
	ts := enginetest.RestructureData(3, 3*evalChunk)
	for i := range ts {
		ts[i].Metadata["s"] = []any{1.0, "text", true}[i%3]
	}
	// The lean expression below fails on every row valid by its
	// objectives: on a string group for the first, a bool done for the
	// first of the other chunks.
	for _, i := range []int{0, evalChunk, 2 * evalChunk} {
		ts[i].Metadata["a"], ts[i].Metadata["c"] = 3.0, 1.0
	}
	ts[0].Metadata["a"] = 0.0
	const firstLean = `invalid operation: string * int (done = true, group = "g2")`
	oldCfg := restructureConfig(false)
	oldCfg.Constraints = []string{"metadata.s * 2 > 0"}
	old, err := New(oldCfg)
	if err != nil {
		t.Fatal(err)
	}
	ev := Evaluate(old.Scorer, ts)
	const oldCause = "constraint metadata.s * 2 > 0: evaluation error"
	if got := ev.EvalReason(oldCause); got != "invalid operation: string * int (s = \"text\")" {
		t.Fatalf("the old constraint's reason %q", got)
	}
	for _, tc := range []struct {
		name               string
		constraints, gates []string
		want               map[string]string
	}{
		// Over objectives and lean fields: on several goroutines.
		{"lean", []string{"(a > 1 ? done : group) * 2 > 0"}, nil,
			map[string]string{"constraint (a > 1 ? done : group) * 2 > 0: evaluation error": firstLean}},
		{"reading metadata", nil, []string{"a: metadata.s * 3 > 0"},
			map[string]string{"gate a: metadata.s * 3 > 0: evaluation error": "invalid operation: string * int (s = \"text\")"}},
	} {
		r, err := NewRestructure(old.Scorer, tc.constraints, tc.gates)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Apply(context.Background(), ev, func(i int) (*scoring.Trajectory, error) { return &ts[i], nil })
		if err != nil {
			t.Fatal(err)
		}
		cfg := restructureConfig(false)
		cfg.Constraints, cfg.Gates = tc.constraints, tc.gates
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := Evaluate(c.Scorer, ts)
		for cause, reason := range tc.want {
			if got.InvalidCounts()[cause] == 0 {
				t.Errorf("%s: no trajectory of cause %q: %v", tc.name, cause, got.InvalidCounts())
			}
			if g := got.EvalReason(cause); g != reason || g != want.EvalReason(cause) {
				t.Errorf("%s: %q: reason %q, want %q (from the start %q)", tc.name, cause, g, reason, want.EvalReason(cause))
			}
		}
		if g := got.EvalReason(oldCause); g != "" {
			t.Errorf("%s: the old constraint's reason stays: %q", tc.name, g)
		}
	}
	if got := ev.EvalReason(oldCause); got != "invalid operation: string * int (s = \"text\")" {
		t.Errorf("ev's own reason changed: %q", got)
	}
}

// TestRestructureCausesOnce: the rows a new constraint makes invalid alike
// share one cause, one string built once, as evaluating with it from the
// start gives them; a value that is not a number gives its cause the
// reason it gives from the start (what the first was).
func TestRestructureCausesOnce(t *testing.T) {
	ts := enginetest.RestructureData(5, 300)
	for i := range ts {
		ts[i].Metadata["s"] = []any{1.0, "text"}[i%2]
	}
	old, err := New(restructureConfig(false))
	if err != nil {
		t.Fatal(err)
	}
	const cause = "constraint metadata.s > 0: not a number"
	r, err := NewRestructure(old.Scorer, []string{"metadata.s > 0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Apply(context.Background(), Evaluate(old.Scorer, ts), func(i int) (*scoring.Trajectory, error) { return &ts[i], nil })
	if err != nil {
		t.Fatal(err)
	}
	var rows []int
	for i, c := range got.Causes {
		if c == cause {
			rows = append(rows, i)
		}
	}
	if len(rows) < 2 {
		t.Fatalf("%d rows of cause %q: %v", len(rows), cause, got.InvalidCounts())
	}
	for _, i := range rows[1:] {
		if unsafe.StringData(got.Causes[i]) != unsafe.StringData(got.Causes[rows[0]]) {
			t.Fatalf("rows %d and %d of cause %q each hold a string of their own", rows[0], i, cause)
		}
	}
	cfg := restructureConfig(false)
	cfg.Constraints = []string{"metadata.s > 0"}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := Evaluate(c.Scorer, ts).EvalReason(cause)
	if g := got.EvalReason(cause); g != want || g != `the string "text"` {
		t.Errorf("reason %q, want %q (from the start %q)", g, `the string "text"`, want)
	}
}
