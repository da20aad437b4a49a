package prompts

import (
	"errors"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestFilterGroups drops the groups whose objective has zero spread (a
// group of one is kept, as DAPO keeps it), and computes the others'
// rewards without them: with grpo scaled by the batch's std, the kept
// rewards are those of the batch that never had the dropped groups.
func TestFilterGroups(t *testing.T) {
	steps := []map[string][]float64{
		{"a": {1, 1}, "b": {0, 1}, "c": {0.3}, "d": {0, 0, 0}},
		{"a": {0, 1}, "b": {0.5, 0.5}},
	}
	res, _, _ := run(t, steps)
	f := FilterGroups(res.Evaluation, 0)
	wantKept := []bool{false, false, true, true, true, false, false, false, true, true, false, false}
	for i, k := range f.Kept {
		if k != wantKept[i] {
			t.Errorf("kept[%d] = %v, want %v", i, k, wantKept[i])
		}
	}
	wantSteps := []FilterStep{{Step: 0, Kept: 2, Dropped: 2, EffectiveBatch: 3, Trajectories: 8}, {Step: 1, Kept: 1, Dropped: 1, EffectiveBatch: 2, Trajectories: 4}}
	for s, st := range f.Steps {
		if st != wantSteps[s] {
			t.Errorf("step %d: %+v, want %+v", s, st, wantSteps[s])
		}
	}

	opts := res.Options
	opts.Scale = engine.ScaleBatch
	got := f.Rewards(res.Evaluation, opts)
	alone, _, _ := run(t, []map[string][]float64{{"b": {0, 1}, "c": {0.3}}, {"a": {0, 1}}})
	want := alone.Evaluation.Compute(opts).Rewards
	j := 0
	for i, k := range f.Kept {
		if !k {
			if got[i] != 0 {
				t.Errorf("dropped %d: reward %v, want 0", i, got[i])
			}
			continue
		}
		if !near(got[i], want[j]) {
			t.Errorf("kept %d: reward %v, want %v (the batch without the dropped groups)", i, got[i], want[j])
		}
		j++
	}
	unfiltered := res.Evaluation.Compute(opts).Rewards
	if near(unfiltered[2], got[2]) {
		t.Errorf("batch-scaled reward %v unchanged by the filter: the dropped groups must leave the batch's std", got[2])
	}
}

// TestFilterSince filters only the batches an append adds to: step 0's
// group a, {1, 1} (dropped), gets a 2 and is kept; its group b, {0}
// (kept, one completion), gets a 0 and is dropped; a new step 1 holds c,
// {3, 3} (dropped); step 2's d, {0, 1}, gets nothing and keeps its step.
// The filter before stays as it was.
func TestFilterSince(t *testing.T) {
	scorer, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: "metadata.x", Goal: scoring.Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	row := func(step int64, group string, x float64) scoring.Trajectory {
		return scoring.Trajectory{Batch: step, Group: group, Done: true, Metadata: map[string]any{"x": x}}
	}
	ev := engine.Evaluate(scorer, []scoring.Trajectory{row(0, "a", 1), row(0, "a", 1), row(0, "b", 0), row(2, "d", 0), row(2, "d", 1)})
	f := FilterGroups(ev, 0)
	before := []bool{false, false, true, true, true}
	if !slices.Equal(f.Kept, before) {
		t.Fatalf("kept %v, want %v", f.Kept, before)
	}
	next := ev.Append(scorer, []scoring.Trajectory{row(0, "a", 2), row(0, "b", 0), row(1, "c", 3), row(1, "c", 3)})
	got, changed, ok := f.Since(next)
	if !ok {
		t.Fatal("an evaluation appended to is not taken as extending it")
	}
	wantKept := []bool{true, true, false, true, true, true, false, false, false}
	wantSteps := []FilterStep{
		{Step: 0, Kept: 1, Dropped: 1, EffectiveBatch: 3, Trajectories: 5},
		{Step: 1, Kept: 0, Dropped: 1, EffectiveBatch: 0, Trajectories: 2},
		{Step: 2, Kept: 1, Dropped: 0, EffectiveBatch: 2, Trajectories: 2},
	}
	if !slices.Equal(got.Kept, wantKept) || !slices.Equal(got.Steps, wantSteps) {
		t.Errorf("kept %v, steps %+v; want %v, %+v", got.Kept, got.Steps, wantKept, wantSteps)
	}
	if whole := FilterGroups(next, 0); !slices.Equal(whole.Kept, got.Kept) || !slices.Equal(whole.Steps, got.Steps) {
		t.Errorf("Since differs from FilterGroups: %v, %+v", whole.Kept, whole.Steps)
	}
	if len(changed) != 2 || changed[0].Step != 0 || changed[1].Step != 1 || !slices.Equal(changed[0].Members, []int{0, 1, 2, 5, 6}) {
		t.Errorf("changed %+v, want steps 0 (5 members) and 1", changed)
	}
	if !slices.Equal(f.Kept, before) || len(f.Steps) != 2 {
		t.Errorf("the filter before changed: kept %v, steps %+v", f.Kept, f.Steps)
	}
	other := engine.Evaluate(scorer, []scoring.Trajectory{row(0, "a", 1)})
	if out, _, ok := f.Since(other); ok || out != nil {
		t.Error("an evaluation that extends none filtered is taken as extending it")
	}
}

// TestFilterObjective: the filter's objective is found by its name; a
// name of none is a NotAnObjectiveError with the objectives and the near
// ones, said by the flag or by the setting it is given.
func TestFilterObjective(t *testing.T) {
	objectives := []scoring.Objective{{Name: "accuracy"}, {Name: "safety"}}
	if k, err := FilterObjective(objectives, "safety"); k != 1 || err != nil {
		t.Fatalf("safety: %d, %v", k, err)
	}
	_, err := FilterObjective(objectives, "acuracy")
	var notObjective *NotAnObjectiveError
	if !errors.As(err, &notObjective) {
		t.Fatalf("acuracy: %v, want a NotAnObjectiveError", err)
	}
	if want := `--filter-groups "acuracy": not an objective; did you mean accuracy? (objectives: accuracy, safety)`; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	notObjective.Setting = "filter_groups"
	if want := `filter_groups "acuracy": not an objective; did you mean accuracy? (objectives: accuracy, safety)`; notObjective.Error() != want {
		t.Errorf("got  %s\nwant %s", notObjective, want)
	}
}
