package prompts

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestColumns: the prompt and the task metric by expression, read as the
// trajectories come; by the group and an objective, from the evaluation
// (a value nansum counted 0 is missing); a prompt that cannot be read is
// an error at its line.
func TestColumns(t *testing.T) {
	ts := []scoring.Trajectory{
		{Group: "g1", Metadata: map[string]any{"q": "what", "acc": true, "x": 1.0}, LoaderState: scoring.LoaderState{Source: "f.jsonl", Line: 1}},
		{Group: "g2", Metadata: map[string]any{"q": "what", "acc": false}, LoaderState: scoring.LoaderState{Source: "f.jsonl", Line: 2}},
	}
	objectives := []scoring.Objective{{Name: "x"}}
	c, err := NewColumns(setup.Config{PromptBy: "q", TaskMetric: "acc"}, objectives)
	if err != nil {
		t.Fatal(err)
	}
	if !c.ReadsRecords() || c.Add(ts) != nil || len(c.Keys.Names) != 1 || c.Keys.Of[1] != 0 || c.Task[0] != 1 || c.Task[1] != 0 {
		t.Errorf("by expression: keys %+v, task %v; want one prompt, acc 1 and 0", c.Keys, c.Task)
	}
	ts[1].Metadata["q"] = nil
	c, _ = NewColumns(setup.Config{PromptBy: "q"}, objectives)
	if err := c.Add(ts); err == nil || !strings.HasPrefix(err.Error(), `f.jsonl:2: prompt_by "q": missing`) {
		t.Errorf("a missing prompt: %v", err)
	}

	yes := true
	scorer, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "y", Expr: "1"}}, NanSum: &yes})
	if err != nil {
		t.Fatal(err)
	}
	ev := engine.Evaluate(scorer.Scorer, ts)
	c, _ = NewColumns(setup.Config{}, scorer.Scorer.Objectives())
	if c.ReadsRecords() || c.TaskName != "x" {
		t.Fatalf("defaults: reads records %v, task %q; want the group and x", c.ReadsRecords(), c.TaskName)
	}
	c.Finish(ev)
	if c.Keys.Names[1] != "g2" || c.Task[0] != 1 || !math.IsNaN(c.Task[1]) || !c.HasTask() {
		t.Errorf("from the evaluation: keys %v, task %v; want the groups, x 1 and missing (nansum's 0)", c.Keys.Names, c.Task)
	}
	c.Task[0] = math.Inf(1)
	if c.HasTask() {
		t.Error("HasTask with no finite value")
	}
	nan := math.NaN()
	if _, err := NewColumns(setup.Config{PassThreshold: &nan}, objectives); !errors.Is(err, ErrThreshold) {
		t.Errorf("a NaN threshold: %v", err)
	}
	var compile *scoring.CompileError
	if _, err := NewColumns(setup.Config{TaskMetric: "acc +"}, objectives); !errors.As(err, &compile) {
		t.Errorf("a task metric that does not compile: %v", err)
	}
}

// TestColumnsDeleteFunc: the rows deleted leave the columns read of the
// records, the others keep their order; a prompt whose rows all left has
// no name (it would count as one without a task metric), and a task
// slice taken before stays as it was.
func TestColumnsDeleteFunc(t *testing.T) {
	var ts []scoring.Trajectory
	for i, q := range []string{"p", "q", "p", "r"} {
		ts = append(ts, scoring.Trajectory{Metadata: map[string]any{"q": q, "acc": float64(i)}})
	}
	c, err := NewColumns(setup.Config{PromptBy: "q", TaskMetric: "acc"}, []scoring.Objective{{Name: "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Add(ts); err != nil {
		t.Fatal(err)
	}
	before := c.Task
	c.DeleteFunc(func(i int) bool { return i == 1 || i == 2 })
	if !slices.Equal(c.Task, []float64{0, 3}) || !slices.Equal(c.Keys.Names, []string{"p", "r"}) || !slices.Equal(c.Keys.Of, []int32{0, 1}) {
		t.Errorf("task %v, keys %v of %v; want [0 3], [0 1] of [p r]", c.Task, c.Keys.Of, c.Keys.Names)
	}
	if !slices.Equal(before, []float64{0, 1, 2, 3}) {
		t.Errorf("the task slice taken before is now %v", before)
	}
}

// TestColumnsWithSources: the task metric is no objective of a source
// that lacks it, whose trajectories the engine gives 0 there (left out,
// not failed); with no task metric named, the first objective is no
// default unless every source has it.
func TestColumnsWithSources(t *testing.T) {
	one := 1.0
	cfg := setup.Config{SourceBy: "task", Sources: map[string]setup.SourceConfig{
		"math": {Objectives: []setup.ObjectiveConfig{{Name: "accuracy", Expr: "accuracy", Weight: &one}}},
		"chat": {Objectives: []setup.ObjectiveConfig{{Name: "safety", Expr: "safety", Weight: &one}}},
	}}
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		{Group: "p", Metadata: map[string]any{"task": "math", "accuracy": 1.0}},
		{Group: "q", Metadata: map[string]any{"task": "chat", "safety": 1.0}},
	}
	ev := engine.Evaluate(c.Scorer, ts)
	objectives := c.Scorer.Objectives()
	if objectives[0].Name != "safety" {
		t.Fatalf("first objective %s, want safety (sorted source order)", objectives[0].Name)
	}

	named := cfg
	named.TaskMetric = "accuracy"
	columns, err := NewColumns(named, objectives)
	if err != nil {
		t.Fatal(err)
	}
	columns.Finish(ev)
	if columns.NoDefaultTask != "" || columns.Task[0] != 1 || !math.IsNaN(columns.Task[1]) {
		t.Errorf("named accuracy: %q, task %v; want 1 and NaN (chat has no accuracy)", columns.NoDefaultTask, columns.Task)
	}

	columns, err = NewColumns(cfg, objectives)
	if err != nil {
		t.Fatal(err)
	}
	columns.Finish(ev)
	if want := "no default task metric: the first objective safety is not one of source math's"; columns.NoDefaultTask != want || !math.IsNaN(columns.Task[0]) || !math.IsNaN(columns.Task[1]) {
		t.Errorf("by default: %q, task %v; want %q and no task metric", columns.NoDefaultTask, columns.Task, want)
	}

	cfg.Sources["chat"] = setup.SourceConfig{Objectives: append([]setup.ObjectiveConfig{{Name: "accuracy", Expr: "safety", Weight: &one}}, cfg.Sources["chat"].Objectives...)}
	if columns, err := NewColumns(cfg, []scoring.Objective{{Name: "accuracy"}, {Name: "safety"}}); err != nil || columns.NoDefaultTask != "" {
		t.Errorf("accuracy in every source: %v, %q; want it the default", err, columns.NoDefaultTask)
	}
}
