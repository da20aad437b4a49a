package invalid

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// evaluate computes ts with the objectives name=expr under GRPO.
func evaluateExprs(t *testing.T, ts []scoring.Trajectory, exprs ...string) (*engine.Result, scoring.Scorer) {
	t.Helper()
	var objs []scoring.ObjectiveExpr
	for _, e := range exprs {
		name, src, _ := strings.Cut(e, "=")
		objs = append(objs, scoring.ObjectiveExpr{Name: name, Expr: src, Weight: math.NaN()})
	}
	s, err := scoring.NewParetoScorer(objs)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Evaluate(s, ts).Compute(engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Scale: engine.ScaleGroup, Normalize: true}), s
}

func TestNoValid(t *testing.T) {
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "accuracy", 1.0, "safety", 0.5),
		enginetest.Traj(0, "g", "accuracy", 0.0, "safety", 0.7),
		enginetest.Traj(1, "h", "accuracy", 1.0, "safety", "high"),
	}
	fields := scoring.FieldNames(&ts[0])
	if want := []string{"accuracy", "batch", "done", "group", "id", "response", "safety", "step_count"}; !slices.Equal(fields, want) {
		t.Fatalf("FieldNames = %q, want %q", fields, want)
	}
	cases := []struct {
		exprs []string
		want  string // "" for no error
	}{
		{[]string{"acc=metadata.accuracy"}, ""},
		{[]string{"acc=metadata.acuracy"},
			"all 3 trajectories are invalid: objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?"},
		{[]string{"acc=acuracy"},
			"all 3 trajectories are invalid: objective acc = acuracy: no trajectory has field acuracy; did you mean accuracy?"},
		// Nothing close: the fields the records have are listed instead.
		{[]string{"len=metadata.length"},
			"all 3 trajectories are invalid: objective len = metadata.length: no trajectory has field length; the first records have accuracy, safety"},
		// Not a direct read: the evaluation fails, and the unknown name is
		// pointed at.
		{[]string{"acc=acuracy > 0.5 ? 1 : 0"},
			"all 3 trajectories are invalid: objective acc = acuracy > 0.5 ? 1 : 0: evaluation error in every trajectory (the first: invalid operation: <nil> > float64); the first record of each input has no field acuracy; did you mean accuracy?"},
		// Two objectives: a trajectory counts its first invalid one only.
		{[]string{"safe=metadata.safety", "acc=metadata.acuracy"},
			"all 3 trajectories are invalid: objective acc = metadata.acuracy: absent or null in 2 trajectories; the first record of each input has no field acuracy; did you mean accuracy?; also objective safe = metadata.safety: not a number (a string, a list or a map) in 1 trajectory (the first: the string \"high\")"},
		// A value that is there, but not a number: no field is said to be
		// missing.
		{[]string{"s=metadata.safety * 0 + (metadata.safety > 0.6 ? 1/0 : 0/0)"},
			"all 3 trajectories are invalid: objective s = metadata.safety * 0 + (metadata.safety > 0.6 ? 1/0 : 0/0): NaN in 1 trajectory, evaluation error in 1 trajectory (the first: invalid operation: string * int (safety = \"high\")), infinite in 1 trajectory"},
	}
	for _, c := range cases {
		res, s := evaluateExprs(t, ts, c.exprs...)
		err := NoValid(res, s, fields)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v, want no error", c.exprs, err)
			}
			continue
		}
		var nv *NoValidError
		if !errors.As(err, &nv) || nv.Trajectories != 3 {
			t.Fatalf("%q: %v, want a NoValidError of 3", c.exprs, err)
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.exprs, err, c.want)
		}
	}

	// Without field names, nothing is said absent.
	res, s := evaluateExprs(t, ts, "acc=metadata.acuracy")
	if err := NoValid(res, s, nil); err == nil || err.Error() != "all 3 trajectories are invalid: objective acc = metadata.acuracy: acuracy is null or absent in every trajectory" {
		t.Errorf("no fields: %v", err)
	}
	// A field the first records have, but null everywhere.
	nulls := []scoring.Trajectory{enginetest.Traj(0, "g", "accuracy", nil), enginetest.Traj(0, "g", "accuracy", nil)}
	res, s = evaluateExprs(t, nulls, "acc=accuracy")
	if err := NoValid(res, s, scoring.FieldNames(&nulls[0])); err == nil || err.Error() != "all 2 trajectories are invalid: objective acc = accuracy: accuracy is null or absent in every trajectory" {
		t.Errorf("nulls: %v", err)
	}
	// No trajectory at all is not this error.
	res, s = evaluateExprs(t, nil, "acc=accuracy")
	if err := NoValid(res, s, nil); err != nil {
		t.Errorf("no trajectories: %v", err)
	}
	// SVRL's task is an expression too.
	c, err := engine.New(setup.Config{Computer: string(setup.ComputerSVRL), Task: "metadata.acuracy"})
	if err != nil {
		t.Fatal(err)
	}
	svrl := c.Scorer
	res = engine.Evaluate(svrl, ts).Compute(engine.DefaultOptions())
	if err := NoValid(res, svrl, fields); err == nil || !strings.Contains(err.Error(), "objective task = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?") {
		t.Errorf("svrl: %v", err)
	}
}

// TestNoValidWithStructure: constraints and gates wrap the scorer; a
// misspelt objective still gets its expression, field and suggestion.
func TestNoValidWithStructure(t *testing.T) {
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "accuracy", 1.0, "safety", 0.5),
		enginetest.Traj(0, "g", "accuracy", 0.0, "safety", 0.7),
	}
	inner, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "acc", Expr: "metadata.acuracy", Weight: math.NaN()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, structure := range [][2][]string{{{"safety >= 0.5"}, nil}, {nil, {"acc: safety > 0.5"}}} {
		s, err := scoring.WithStructure(inner, structure[0], structure[1])
		if err != nil {
			t.Fatal(err)
		}
		res := engine.Evaluate(s, ts).Compute(engine.DefaultOptions())
		err = NoValid(res, s, scoring.FieldNames(&ts[0]))
		if want := "all 2 trajectories are invalid: objective acc = metadata.acuracy: no trajectory has field acuracy; did you mean accuracy?"; err == nil || err.Error() != want {
			t.Errorf("constraints %q, gates %q: %v\nwant %s", structure[0], structure[1], err, want)
		}
	}
}

// TestNoValidScoreOverflow: every objective is finite, their weighted sum
// is not.
func TestNoValidScoreOverflow(t *testing.T) {
	ts := []scoring.Trajectory{enginetest.Traj(0, "g", "a", 1e308, "b", 1e308), enginetest.Traj(0, "g", "a", 1e308, "b", 1e308)}
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "a", Expr: "a", Weight: 1}, {Name: "b", Expr: "b", Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	res := engine.Evaluate(s, ts).Compute(engine.DefaultOptions())
	err = NoValid(res, s, scoring.FieldNames(&ts[0]))
	if err == nil || err.Error() != "all 2 trajectories are invalid: the weighted score (the objectives' weighted sum) is infinite (2)" {
		t.Errorf("%v", err)
	}
}

// batchOfValidity returns trajectories of batch step whose metadata x is
// 1 for each true of valid, missing for each false.
func batchOfValidity(step int64, valid ...bool) []scoring.Trajectory {
	var ts []scoring.Trajectory
	for i, v := range valid {
		g := string(rune('a' + i%3))
		if v {
			ts = append(ts, enginetest.Traj(step, g, "x", float64(i)))
		} else {
			ts = append(ts, enginetest.Traj(step, g))
		}
	}
	return ts
}

// validity returns n flags, the first invalid false.
func validity(n, invalid int) []bool {
	v := make([]bool, n)
	for i := invalid; i < n; i++ {
		v[i] = true
	}
	return v
}

func TestMostlyInvalidBatches(t *testing.T) {
	var ts []scoring.Trajectory
	ts = append(ts, batchOfValidity(3, validity(10, 6)...)...) // 60%
	ts = append(ts, batchOfValidity(4, validity(10, 5)...)...) // 50%: not more than half
	ts = append(ts, batchOfValidity(5, validity(10, 0)...)...)
	ts = append(ts, batchOfValidity(6, validity(4, 4)...)...) // all
	ts = append(ts, enginetest.Traj(6, "a", "x", "text"))     // 4 missing, 1 not a number
	res, _ := evaluateExprs(t, ts, "x=x")
	got := MostlyBatches(res)
	want := []Batch{
		{Step: 3, Trajectories: 10, Invalid: 6, MainCauses: []string{"x: missing"}, MainCount: 6},
		{Step: 6, Trajectories: 5, Invalid: 5, MainCauses: []string{"x: missing"}, MainCount: 4},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if s := got[0].String(); s != "step 3: 6 of 10 trajectories invalid (60%), mostly x: missing (6)" {
		t.Errorf("String: %q", s)
	}
	if f := got[1].Fraction(); f != 1 {
		t.Errorf("Fraction %v", f)
	}
}

// TestMostlyBatchesTiedCauses: causes of one count are none "mostly"
// the cause; all are named, in byte order.
func TestMostlyBatchesTiedCauses(t *testing.T) {
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "x", 1.0),
		enginetest.Traj(0, "g", "x", math.NaN()),
		enginetest.Traj(0, "g", "x", math.Inf(1)),
		enginetest.Traj(0, "g", "x", "text"),
		enginetest.Traj(0, "g"),
	}
	res, _ := evaluateExprs(t, ts, "x=x")
	got := MostlyBatches(res)
	if len(got) != 1 {
		t.Fatalf("got %+v", got)
	}
	want := "step 0: 4 of 5 trajectories invalid (80%), equally x: NaN, x: infinite, x: missing and x: not a number (1 each)"
	if s := got[0].String(); s != want {
		t.Errorf("String:\n%q\nwant\n%q", s, want)
	}
}

// TestNoValidScoreOverflow32: in float32 the sum of two values near
// float32's largest overflows, and the error says it is the float32 sum.
func TestNoValidScoreOverflow32(t *testing.T) {
	ts := []scoring.Trajectory{enginetest.Traj(0, "g", "a", 3e38, "b", 3e38)}
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "a", Expr: "a", Weight: 1}, {Name: "b", Expr: "b", Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	opts := engine.DefaultOptions()
	opts.ScorePrecision = engine.ScoreFloat32
	res := engine.Evaluate(s, ts).Compute(opts)
	err = NoValid(res, s, scoring.FieldNames(&ts[0]))
	if err == nil || err.Error() != "the one trajectory is invalid: the weighted score (the objectives' float32 weighted sum) is infinite (1)" {
		t.Errorf("%v", err)
	}
}

// TestDroppedNotInvalid: the rows the group filter leaves out
// (engine.Evaluation.Without) are counted apart, not invalid: a batch of
// 2 invalid and 6 dropped of 10 is not mostly invalid, its counts say
// them apart, and an evaluation whose rows are all dropped or invalid
// has valid data (NoValid: none).
func TestDroppedNotInvalid(t *testing.T) {
	ts := batchOfValidity(0, validity(10, 2)...) // the first 2 missing x
	res, s := evaluateExprs(t, ts, "x=x")
	ev := res.Evaluation.Without(func(i int) bool { return i < 8 })
	filtered := ev.Compute(res.Options)
	if got := MostlyBatches(filtered); got != nil {
		t.Errorf("2 invalid and 6 dropped of 10 said mostly invalid: %+v", got)
	}
	got, _ := Step(filtered, 0)
	want := Batch{Trajectories: 10, Invalid: 2, Dropped: 6, MainCauses: []string{"x: missing"}, MainCount: 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if s := got.String(); s != "step 0: 2 of 10 trajectories invalid (20%), mostly x: missing (2); 6 dropped by the group filter" {
		t.Errorf("String: %q", s)
	}
	all := res.Evaluation.Without(func(int) bool { return true }).Compute(res.Options)
	if err := NoValid(all, s, nil); err != nil {
		t.Errorf("every valid row dropped: %v", err)
	}
}

// TestNoValidScoreOverflowOfObjectiveScore: an objective named score
// whose weighted sum overflows is said as the overflow, and its own cause
// as its own: the cause is read as what it was made of, not as a text
// that starts with an objective's name.
func TestNoValidScoreOverflowOfObjectiveScore(t *testing.T) {
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "score", Expr: "a", Weight: 1}, {Name: "b", Expr: "b", Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	overflow := []scoring.Trajectory{enginetest.Traj(0, "g", "a", 1e308, "b", 1e308)}
	err = NoValid(engine.Evaluate(s, overflow).Compute(engine.DefaultOptions()), s, scoring.FieldNames(&overflow[0]))
	if want := "the one trajectory is invalid: the weighted score (the objectives' weighted sum) is infinite (1)"; err == nil || err.Error() != want {
		t.Errorf("overflow: %v\nwant %s", err, want)
	}
	absent := []scoring.Trajectory{enginetest.Traj(0, "g", "b", 1.0)}
	err = NoValid(engine.Evaluate(s, absent).Compute(engine.DefaultOptions()), s, scoring.FieldNames(&absent[0]))
	if want := "the one trajectory is invalid: objective score = a: no trajectory has field a; the first records have b"; err == nil || err.Error() != want {
		t.Errorf("absent: %v\nwant %s", err, want)
	}
}
