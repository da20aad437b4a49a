package engine

import (
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestAppendCarriesTheLoggedAdvantage: following a run, the evaluation
// Append makes keeps the logged advantages of the trajectories before it
// and reads those of the ones it adds (NaN where a record has none); the
// one appended to keeps its own; Filter (a file read again) keeps those of
// the trajectories it keeps. They were dropped, and the dashboard showed
// the rewards in the logged column.
func TestAppendCarriesTheLoggedAdvantage(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	traj := func(b int64, x, adv float64) scoring.Trajectory {
		if math.IsNaN(adv) {
			return enginetest.Traj(b, "g", "x", x)
		}
		return enginetest.Traj(b, "g", "x", x, "adv", adv)
	}
	e := c.NewEvaluator()
	e.Add([]scoring.Trajectory{traj(0, 1, -0.5), traj(0, 2, 0.5)})
	ev := e.Evaluation()
	next := ev.Append(c.Scorer, []scoring.Trajectory{traj(1, 3, -1), traj(1, 4, math.NaN())})
	same := func(got, want []float64) bool {
		return slices.EqualFunc(got, want, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) })
	}
	if want := []float64{-0.5, 0.5, -1, math.NaN()}; !same(next.Logged, want) {
		t.Errorf("after Append: logged %v, want %v", next.Logged, want)
	}
	if want := []float64{-0.5, 0.5}; !same(ev.Logged, want) {
		t.Errorf("the evaluation appended to: logged %v, want %v", ev.Logged, want)
	}
	again := next.Append(c.Scorer, []scoring.Trajectory{traj(2, 5, 2)})
	if want := []float64{-0.5, 0.5, -1, math.NaN(), 2}; !same(again.Logged, want) {
		t.Errorf("after a second Append: logged %v, want %v", again.Logged, want)
	}
	kept := again.Filter(func(i int) bool { return i != 1 })
	if want := []float64{-0.5, -1, math.NaN(), 2}; !same(kept.Logged, want) {
		t.Errorf("after Filter: logged %v, want %v", kept.Logged, want)
	}
	if more := kept.Append(c.Scorer, []scoring.Trajectory{traj(3, 6, 3)}); !same(more.Logged, []float64{-0.5, -1, math.NaN(), 2, 3}) {
		t.Errorf("after Filter then Append: logged %v", more.Logged)
	}
}

// TestAppendCarriesTheLoggedAdvantageOfAnOverflow: a result whose
// evaluation Compute copied to mark a score that overflows invalid keeps
// the logged advantage's expression too: appended to, its evaluation
// reads the new trajectories' values (it left Logged short, and Filter
// then indexed past its end).
func TestAppendCarriesTheLoggedAdvantageOfAnOverflow(t *testing.T) {
	one := 1.0
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}, {Name: "y", Expr: "y", Weight: &one}}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	e := c.NewEvaluator()
	e.Add([]scoring.Trajectory{enginetest.Traj(0, "g", "x", 1e308, "y", 1e308, "adv", 0.5), enginetest.Traj(0, "g", "x", 1, "y", 1, "adv", -0.5)})
	res := e.Evaluation().Compute(c.Options)
	if res.Evaluation.Valid[0] {
		t.Fatal("the score 2e308 overflows: the trajectory should be invalid, the evaluation copied")
	}
	next := res.Evaluation.Append(c.Scorer, []scoring.Trajectory{enginetest.Traj(1, "g", "x", 2, "y", 2, "adv", 1)})
	if len(next.Logged) != 3 || next.Logged[2] != 1 {
		t.Fatalf("after Append: logged %v, want the third 1", next.Logged)
	}
	if kept := next.Filter(func(i int) bool { return i != 0 }); len(kept.Logged) != 2 || kept.Logged[1] != 1 {
		t.Errorf("after Filter: logged %v", kept.Logged)
	}
}

// TestLoggedNotNumbers: the logged advantages there but not numbers (a
// string, a number in a string, a bool) are NaN in Logged and counted, the
// first in input order kept, whichever goroutine read it and across
// Append; null and NaN are absent, not counted.
func TestLoggedNotNumbers(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3*evalChunk + 7 // several goroutines' chunks
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = enginetest.Traj(0, "g", "x", 1.0, "adv", 0.5)
		ts[i].ID = strconv.Itoa(i)
	}
	ts[5].Metadata["adv"] = nil
	ts[6].Metadata["adv"] = math.NaN()
	ts[evalChunk+1].Metadata["adv"] = "x" // not the first chunk's
	ts[2*evalChunk+3].Metadata["adv"] = true
	ts[n-1].Metadata["adv"] = "0.7"
	e := c.NewEvaluator()
	e.Add(ts)
	ev := e.Evaluation()
	if ev.LoggedNotNumbers != 3 || ev.FirstLoggedNotNumber != (LoggedValue{Where: ts[evalChunk+1].Where(), Value: "x", row: evalChunk + 1}) {
		t.Errorf("%d not numbers, the first %+v; want 3, %s's \"x\"", ev.LoggedNotNumbers, ev.FirstLoggedNotNumber, ts[evalChunk+1].Where())
	}
	for _, i := range []int{evalChunk + 1, 2*evalChunk + 3, n - 1} {
		if !math.IsNaN(ev.Logged[i]) {
			t.Errorf("row %d: logged %v, want NaN", i, ev.Logged[i])
		}
	}
	more := enginetest.Traj(1, "g", "x", 1.0, "adv", false)
	next := ev.Append(c.Scorer, []scoring.Trajectory{more})
	if next.LoggedNotNumbers != 4 || next.FirstLoggedNotNumber != ev.FirstLoggedNotNumber {
		t.Errorf("after Append: %d not numbers, the first %+v", next.LoggedNotNumbers, next.FirstLoggedNotNumber)
	}
}

// TestLoggedNotNumbersCarried: the evaluations made from another keep the
// count of the logged advantages that are not numbers, and the first. The
// copy made when a score overflows dropped them, and the warning with
// them; Filter counts the rows it keeps, and keeps the first only when it
// keeps its row.
func TestLoggedNotNumbersCarried(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "y", Expr: "y"}}, Weights: map[string]float64{"x": 1, "y": 1}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "x", 1e308, "y", 1e308, "adv", "x"), // its score overflows
		enginetest.Traj(0, "g", "x", 1.0, "y", 2.0, "adv", 0.5),
		enginetest.Traj(1, "g", "x", 1.0, "y", 2.0, "adv", true),
		enginetest.Traj(1, "g", "x", 2.0, "y", 1.0, "adv", 0.5),
	}
	for i := range ts {
		ts[i].ID = strconv.Itoa(i)
	}
	e := c.NewEvaluator()
	e.Add(ts)
	ev := e.Evaluation()
	first := LoggedValue{Where: ts[0].Where(), Value: "x"}
	res := ev.Compute(c.Options)
	if res.Evaluation == ev {
		t.Fatal("the overflowing score did not make a copy: the case is not tested")
	}
	if got := res.Evaluation; got.LoggedNotNumbers != 2 || got.FirstLoggedNotNumber != first {
		t.Errorf("after an overflow: %d not numbers, the first %+v; want 2, %+v", got.LoggedNotNumbers, got.FirstLoggedNotNumber, first)
	}
	// Row 2, the first kept, is not row 0, ev's first: its value was not
	// kept, and the first row 0's would quote a row no longer there.
	if got := ev.Filter(func(i int) bool { return i >= 1 }); got.LoggedNotNumbers != 1 || got.FirstLoggedNotNumber.Known() || got.FirstLoggedNotNumber.Where == first.Where {
		t.Errorf("Filter of rows 1..3: %d not numbers, the first %+v; want 1, not known", got.LoggedNotNumbers, got.FirstLoggedNotNumber)
	}
	if got := ev.Filter(func(i int) bool { return i != 2 }); got.LoggedNotNumbers != 1 || got.FirstLoggedNotNumber != first {
		t.Errorf("Filter of rows 0, 1, 3: %d not numbers, the first %+v; want 1, %+v", got.LoggedNotNumbers, got.FirstLoggedNotNumber, first)
	}
	if got := ev.Filter(func(i int) bool { return i == 1 || i == 3 }); got.LoggedNotNumbers != 0 || got.FirstLoggedNotNumber != (LoggedValue{}) {
		t.Errorf("Filter of rows 1, 3: %d not numbers, the first %+v; want none", got.LoggedNotNumbers, got.FirstLoggedNotNumber)
	}
}

// TestLoggedNonFinite: the logged advantages that are NaN or infinite
// are counted, apart from the absent ones (null: NaN in Logged too), the
// first kept; Filter counts the rows it keeps, the first known only when
// it keeps its row.
func TestLoggedNonFinite(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "x", 1.0, "adv", math.NaN()),
		enginetest.Traj(0, "g", "x", 1.0, "adv", math.Inf(1)),
		enginetest.Traj(0, "g", "x", 1.0, "adv", nil),
		enginetest.Traj(0, "g", "x", 1.0, "adv", 0.5),
		enginetest.Traj(0, "g", "x", 1.0, "adv", math.Inf(-1)),
	}
	for i := range ts {
		ts[i].ID = strconv.Itoa(i)
	}
	e := c.NewEvaluator()
	e.Add(ts)
	ev := e.Evaluation()
	if x, ok := ev.FirstLoggedNonFinite.Value.(float64); ev.LoggedNonFinite != 3 || ev.LoggedNotNumbers != 0 || !ok || !math.IsNaN(x) || ev.FirstLoggedNonFinite.Where != ts[0].Where() {
		t.Errorf("%d NaN or infinite (%d not numbers), the first %+v; want 3 (0), %s's NaN", ev.LoggedNonFinite, ev.LoggedNotNumbers, ev.FirstLoggedNonFinite, ts[0].Where())
	}
	if !math.IsNaN(ev.Logged[0]) || !math.IsNaN(ev.Logged[2]) || isLoggedNonFinite(ev.Logged[2]) {
		t.Errorf("logged %v: want NaN at 0 and 2, 2 (null) not counted", ev.Logged)
	}
	if got := ev.Filter(func(i int) bool { return i != 1 }); got.LoggedNonFinite != 2 || got.FirstLoggedNonFinite.Where != ts[0].Where() || !got.FirstLoggedNonFinite.Known() {
		t.Errorf("Filter of all but row 1: %d, the first %+v; want 2, row 0's", got.LoggedNonFinite, got.FirstLoggedNonFinite)
	}
	got := ev.Filter(func(i int) bool { return i != 0 })
	if got.LoggedNonFinite != 2 || got.FirstLoggedNonFinite.Known() {
		t.Errorf("Filter of all but row 0: %d, the first %+v; want 2, not known", got.LoggedNonFinite, got.FirstLoggedNonFinite)
	}
	// Rows appended come after the kept ones: the first stays not known.
	if next := got.Append(c.Scorer, []scoring.Trajectory{enginetest.Traj(1, "g", "x", 1.0, "adv", math.NaN())}); next.LoggedNonFinite != 3 || next.FirstLoggedNonFinite.Known() {
		t.Errorf("after Append: %d, the first %+v; want 3, not known", next.LoggedNonFinite, next.FirstLoggedNonFinite)
	}
}

// TestFilterEvalReason: after Filter, the first reason of an evaluation
// error is the first kept row's: ev's when Filter keeps its row, else not
// known (""), the kept rows' reasons not being kept; it was ev's first
// still, which may be a row no longer there. Rows appended after leave a
// first not known as it is, and give a cause no kept row has its first.
func TestFilterEvalReason(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "o", Expr: "len(x)"}}})
	if err != nil {
		t.Fatal(err)
	}
	ev := Evaluate(c.Scorer, []scoring.Trajectory{
		enginetest.Traj(0, "g", "x", 1.0),  // len of a number
		enginetest.Traj(0, "g", "x", true), // len of a bool
		enginetest.Traj(0, "g", "x", "ab"),
	})
	const cause = "o: evaluation error"
	number := ev.EvalReason(cause)
	if ev.Causes[1] != cause || number == "" {
		t.Fatalf("causes %q, the first reason %q", ev.Causes, number)
	}
	if got := ev.Filter(func(i int) bool { return i != 1 }).EvalReason(cause); got != number {
		t.Errorf("row 0 kept: reason %q, want %q", got, number)
	}
	dropped := ev.Filter(func(i int) bool { return i != 0 })
	if got := dropped.EvalReason(cause); got != "" {
		t.Errorf("row 0 left out: reason %q, want none (row 1's is not known)", got)
	}
	if got := dropped.Append(c.Scorer, []scoring.Trajectory{enginetest.Traj(1, "g", "x", 2.0)}).EvalReason(cause); got != "" {
		t.Errorf("row 0 left out, a row appended: reason %q, want none", got)
	}
	none := ev.Filter(func(i int) bool { return i == 2 })
	if got := none.Append(c.Scorer, []scoring.Trajectory{enginetest.Traj(1, "g", "x", 2.0)}).EvalReason(cause); got != number {
		t.Errorf("rows 0 and 1 left out, a row appended: reason %q, want %q", got, number)
	}
}
