package prompts

import (
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// run builds a result whose batch s holds, for each prompt, the task
// metrics given (the objective x is the metric), and returns it with its
// task column and the keys by group.
func run(t *testing.T, steps []map[string][]float64) (*engine.Result, []float64, *Keys) {
	t.Helper()
	var ts []scoring.Trajectory
	var task []float64
	for s, step := range steps {
		for _, p := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
			for _, x := range step[p] {
				ts = append(ts, scoring.Trajectory{Batch: int64(s), Group: p, Done: true, Metadata: map[string]any{"x": x}})
				task = append(task, x)
			}
		}
	}
	scorer, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: "metadata.x", Goal: scoring.Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	opts := engine.DefaultOptions()
	opts.Method = engine.GRPO
	res := engine.Evaluate(scorer, ts).Compute(opts)
	return res, task, GroupKeys(res.Evaluation)
}

// TestClassifyHandBuilt gives each status a hand-built history (pass
// rates per step, 4 completions a step) and checks first_solved.
func TestClassifyHandBuilt(t *testing.T) {
	pass := func(k int) []float64 { // k of 4 pass
		x := []float64{0, 0, 0, 0}
		for i := range k {
			x[i] = 1
		}
		return x
	}
	steps := []map[string][]float64{
		{"a": pass(0), "b": pass(4), "c": pass(1), "d": pass(3), "e": pass(2), "f": pass(1), "g": pass(3), "h": pass(2)},
		{"a": pass(0), "b": pass(4), "c": pass(2), "d": pass(1), "e": pass(4), "f": pass(0), "g": pass(1)},
		{"a": pass(0), "b": pass(4), "c": pass(3), "d": pass(1), "e": pass(3), "f": pass(1), "g": pass(3)},
	}
	res, task, keys := run(t, steps)
	a := Analyze(res, task, keys, 1)
	want := map[string]struct {
		status      Status
		firstSolved int64
		solved      bool
	}{
		"a": {Never, 0, false},
		"b": {Always, 0, true},
		"c": {Learned, 1, true},   // 0.25, 0.5, 0.75
		"d": {Forgotten, 0, true}, // 0.75, 0.25, 0.25
		"e": {Solved, 0, true},    // 0.5, 1, 0.75
		"f": {Unsolved, 0, false}, // 0.25, 0, 0.25
		"g": {Unstable, 0, true},  // 0.75, 0.25, 0.75
		"h": {Solved, 0, true},    // one step, 0.5: that step decides
	}
	if len(a.Prompts) != len(want) {
		t.Fatalf("%d prompts, want %d", len(a.Prompts), len(want))
	}
	for _, p := range a.Prompts {
		w := want[p.Key]
		if p.Status != w.status || p.HasSolved != w.solved || p.FirstSolved != w.firstSolved {
			t.Errorf("prompt %s: status %s, first solved %d (%v), want %s, %d (%v)", p.Key, p.Status, p.FirstSolved, p.HasSolved, w.status, w.firstSolved, w.solved)
		}
	}
	c := a.Prompts[2] // c
	if c.Key != "c" || len(c.History) != 3 || c.FirstStep() != 0 || c.LastStep() != 2 || c.History[1].PassRate() != 0.5 || c.History[2].N != 4 || c.History[2].ScoreMean() != 0.75 {
		t.Errorf("c's history %+v, want 3 points, pass rate 0.5 at step 1, score mean 0.75 at step 2", c.History)
	}
	counts := a.Counts()
	wantCounts := []int{1, 1, 1, 1, 2, 1, 1}
	for s, sc := range counts {
		if sc.Status != Statuses[s] || sc.Count != wantCounts[s] {
			t.Errorf("count %d: %s %d, want %s %d", s, sc.Status, sc.Count, Statuses[s], wantCounts[s])
		}
	}
}

// TestClassifyOneStep: a prompt seen once is never, always, solved or
// unsolved by that step.
func TestClassifyOneStep(t *testing.T) {
	for _, c := range []struct {
		p    Point
		want Status
	}{
		{Point{N: 4}, Never},
		{Point{N: 4, Passed: 4}, Always},
		{Point{N: 4, Passed: 2}, Solved},
		{Point{N: 4, Passed: 1}, Unsolved},
	} {
		if got := Classify([]Point{c.p}); got != c.want {
			t.Errorf("%+v: %s, want %s", c.p, got, c.want)
		}
	}
}

// TestAnalyzeThresholdAndMissing: a completion passes at >= the
// threshold; a missing metric leaves the completion out, and a prompt
// without any is counted apart.
func TestAnalyzeThresholdAndMissing(t *testing.T) {
	res, task, keys := run(t, []map[string][]float64{{"a": {0.5, 0.7, 0.2}, "b": {1, 1}}})
	task[2] = math.NaN()
	task[3], task[4] = math.NaN(), math.NaN()
	a := Analyze(res, task, keys, 0.6)
	if len(a.Prompts) != 1 || a.WithoutMetric != 1 {
		t.Fatalf("%d prompts, %d without a metric, want 1 and 1", len(a.Prompts), a.WithoutMetric)
	}
	if p := a.Prompts[0].History[0]; p.N != 2 || p.Passed != 1 || !near(p.ScoreMean(), 0.6) || a.Prompts[0].Status != Solved {
		t.Errorf("a at step 0: %+v, status %s; want 2 completions with a metric, 1 passing 0.6, score mean 0.6, solved", p, a.Prompts[0].Status)
	}
}

// TestAnalyzeHistoriesApart: the histories share one array, yet a point
// appended to one does not overwrite the next prompt's first.
func TestAnalyzeHistoriesApart(t *testing.T) {
	res, task, keys := run(t, []map[string][]float64{{"a": {1}, "b": {0}}, {"a": {1}, "b": {1}}})
	a := Analyze(res, task, keys, 1)
	if len(a.Prompts) != 2 || len(a.Prompts[0].History) != 2 {
		t.Fatalf("%d prompts, a's history %+v: want 2 prompts of 2 points", len(a.Prompts), a.Prompts[0].History)
	}
	_ = append(a.Prompts[0].History, Point{Step: 9, N: 9})
	if b := a.Prompts[1].History[0]; b.Step != 0 || b.N != 1 || b.Passed != 0 {
		t.Errorf("b's first point %+v after a point was appended to a's history, want step 0, 1 completion, 0 passed", b)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
