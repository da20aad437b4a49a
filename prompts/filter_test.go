package prompts

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
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
