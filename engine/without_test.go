package engine

import (
	"fmt"
	"github.com/rewardlens/rewardlens/engine/setup"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestWithout checks that the trajectories left out are not valid and
// marked dropped, of no cause (not invalid data: InvalidAt, InvalidCounts),
// in their places, and that the result computed on it is that of
// the evaluation filtered of them: grpo in groups of 2 and 3, the group
// {0, 1} left out; the kept group {2, 3, 4} of scores 1, 2, 6 has mean 3
// and sample std sqrt(7), rewards (x-3)/(sqrt(7)+eps). ev is unchanged.
func TestWithout(t *testing.T) {
	c, err := New(setup.Config{Method: string(GRPO), Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		{ID: "0", Group: "x", Done: true, Metadata: map[string]any{"a": 1.0}},
		{ID: "1", Group: "x", Done: true, Metadata: map[string]any{"a": 1.0}},
		{ID: "2", Group: "y", Done: true, Metadata: map[string]any{"a": 1.0}},
		{ID: "3", Group: "y", Done: true, Metadata: map[string]any{"a": 2.0}},
		{ID: "4", Group: "y", Done: true, Metadata: map[string]any{"a": 6.0}},
	}
	ev := Evaluate(c.Scorer, ts)
	w := ev.Without(func(i int) bool { return i < 2 })
	if !slices.Equal(w.Valid, []bool{false, false, true, true, true}) || !slices.Equal(w.Dropped, []bool{true, true, false, false, false}) {
		t.Fatalf("valid %v, dropped %v", w.Valid, w.Dropped)
	}
	if w.InvalidAt(0) || !w.DroppedAt(0) || w.DroppedAt(2) || w.DroppedIn([]int{0, 1, 2}) != 2 || len(w.InvalidCounts()) != 0 || w.InvalidCauses([]int{0, 1}) != nil {
		t.Errorf("the dropped counted invalid: causes %q, invalid counts %v", w.Causes, w.InvalidCounts())
	}
	if !slices.Equal(ev.Valid, []bool{true, true, true, true, true}) || ev.Dropped != nil || ev.DroppedAt(0) {
		t.Errorf("ev changed: valid %v, dropped %v", ev.Valid, ev.Dropped)
	}
	got := w.Compute(c.Options)
	want := ev.Filter(func(i int) bool { return i >= 2 }).Compute(c.Options)
	if got.Rewards[0] != 0 || got.Rewards[1] != 0 || !slices.Equal(got.Rewards[2:], want.Rewards) {
		t.Errorf("rewards %v, want 0, 0 then %v", got.Rewards, want.Rewards)
	}
	if r := want.Rewards[0]; r > -0.755 || r < -0.757 { // (1-3)/sqrt(7) = -0.7559
		t.Errorf("reward of 1 in {1, 2, 6}: %v, want -0.756", r)
	}
	// Under scope batch the dropped are in a group with valid members, the
	// batch, whose mean reward (absolute: 3) an invalid one would get:
	// dropped, theirs is 0 all the same.
	batch := Options{Method: Absolute, Scope: ScopeBatch, Weights: []float64{1}}
	got, want = w.Compute(batch), ev.Filter(func(i int) bool { return i >= 2 }).Compute(batch)
	if got.Rewards[0] != 0 || got.Rewards[1] != 0 || !slices.Equal(got.Rewards[2:], want.Rewards) {
		t.Errorf("scope batch: rewards %v, want 0, 0 then %v", got.Rewards, want.Rewards)
	}
}

// TestAppendToWithout: appending to an evaluation made by Without copies
// its arrays (the dropped marks extended, the new rows not dropped), which are the evaluation's it was made from: appending to
// that one afterwards, in place, leaves the first append's rows as they
// were.
func TestAppendToWithout(t *testing.T) {
	c, err := New(setup.Config{Method: string(GRPO), Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	row := func(id string, a float64) scoring.Trajectory {
		return scoring.Trajectory{ID: id, Group: "x", Done: true, Metadata: map[string]any{"a": a}}
	}
	e := NewEvaluator(c.Scorer)
	e.Reserve(8) // room to append in place
	e.Add([]scoring.Trajectory{row("0", 1), row("1", 2)})
	ev := e.Evaluation()
	w := ev.Without(func(i int) bool { return i == 0 }).Append(c.Scorer, []scoring.Trajectory{row("2", 5)})
	ev.Append(c.Scorer, []scoring.Trajectory{row("3", 7)})
	if !slices.Equal(w.Values, []float64{1, 2, 5}) || !slices.Equal(w.Valid, []bool{false, true, true}) || !slices.Equal(w.Dropped, []bool{true, false, false}) {
		t.Errorf("the Without's append: values %v, valid %v, dropped %v; want 1, 2, 5, false, true, true and true, false, false", w.Values, w.Valid, w.Dropped)
	}
}

// TestWithoutSinceDropped: WithoutSince extends the dropped marks as it
// extends validity: a new row dropped, an old dropped row whose group an
// update keeps valid again and no longer dropped (its marks copied, the
// evaluation before keeping its own), and none of them of a cause; the
// rows outside the batches changed keep theirs.
func TestWithoutSinceDropped(t *testing.T) {
	c, err := New(setup.Config{Method: string(GRPO), Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	row := func(step int64, g string, a float64) scoring.Trajectory {
		return scoring.Trajectory{Batch: step, Group: g, Done: true, Metadata: map[string]any{"a": a}}
	}
	e := NewEvaluator(c.Scorer)
	e.Reserve(16) // room to append in place
	e.Add([]scoring.Trajectory{row(0, "x", 1), row(0, "x", 1), row(1, "y", 1), row(1, "y", 1)})
	ev := e.Evaluation()
	dropped := map[string]bool{"0x": true, "1y": true} // by batch and group
	leave := func(ev *Evaluation) func(i int) bool {
		return func(i int) bool { return dropped[fmt.Sprint(ev.batches[i], ev.groupNames[ev.groupOf[i]])] }
	}
	w := ev.Without(leave(ev))
	next := ev.Append(c.Scorer, []scoring.Trajectory{row(0, "x", 2), row(2, "z", 1), row(2, "z", 1)})
	dropped = map[string]bool{"1y": true, "2z": true} // x now varies
	_, changed := next.ExtendBatches(ev.Partition(ScopeGroup), ScopeGroup, next.rowsByStep(ev.N()))
	got := next.WithoutSince(w, changed, leave(next))
	if !got.Extends(w) {
		t.Fatal("WithoutSince does not extend the evaluation before")
	}
	if want := []bool{false, false, true, true, false, true, true}; !slices.Equal(got.Dropped, want) {
		t.Errorf("dropped %v, want %v", got.Dropped, want)
	}
	if want := []bool{true, true, false, false, true, false, false}; !slices.Equal(got.Valid, want) {
		t.Errorf("valid %v, want %v", got.Valid, want)
	}
	if !slices.Equal(w.Dropped, []bool{true, true, true, true}) {
		t.Errorf("the evaluation before changed: dropped %v", w.Dropped)
	}
	if n := len(got.InvalidCounts()); n != 0 {
		t.Errorf("the dropped counted invalid: %v", got.InvalidCounts())
	}
}
