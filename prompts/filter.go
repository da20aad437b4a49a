package prompts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/suggest"
)

// FilterObjective returns the index among objectives of the group
// filter's objective, name, or a *NotAnObjectiveError when none has it.
func FilterObjective(objectives []scoring.Objective, name string) (int, error) {
	names := make([]string, len(objectives))
	for k, o := range objectives {
		names[k] = o.Name
	}
	if k := slices.Index(names, name); k >= 0 {
		return k, nil
	}
	return -1, &NotAnObjectiveError{Setting: "--filter-groups", Name: name, Objectives: names, Near: suggest.Near(name, names)}
}

// NotAnObjectiveError is the error of a group filter whose objective is
// none of the run's: bad settings. It says
// `SETTING "NAME": not an objective; did you mean NEAR? (objectives: ...)`,
// SETTING being the flag or, set by whoever knows, the config file's key.
type NotAnObjectiveError struct {
	Setting    string
	Name       string
	Objectives []string
	// Near are the objectives close to Name (suggest.Near).
	Near []string
}

func (e *NotAnObjectiveError) Error() string {
	return fmt.Sprintf("%s %q: not an objective%s (objectives: %s)", e.Setting, e.Name, suggest.DidYouMean(e.Near), strings.Join(e.Objectives, ", "))
}

// FilterStep is what the group filter kept and dropped of one step.
type FilterStep struct {
	Step          int64
	Kept, Dropped int // groups
	// EffectiveBatch counts the trajectories of the kept groups: what
	// the trainer's update would see of the step.
	EffectiveBatch int
	Trajectories   int
}

// Filtered is an evaluation put through DAPO's group filter.
type Filtered struct {
	// Kept marks the trajectories of the groups kept.
	Kept  []bool
	Steps []FilterStep
	// of is the evaluation filtered, k its objective filtered on, and
	// batches its batches split into groups (engine.ScopeGroup), as Since
	// extends them.
	of      *engine.Evaluation
	k       int
	batches []engine.Batch
}

// FilterGroups is DAPO's dynamic-sampling filter (verl's
// algorithm.filter_groups, RayDAPOTrainer.fit in recipe/dapo/
// dapo_ray_trainer.py, read in HollowMan6/verl at
// ec7166b90c5eb9f3c52734521ed47cf21d4c61b6: a prompt's group is kept when
// np.std of its metric values is > 0 or it has one completion; verl then
// generates more batches until train_batch_size prompts are kept, which a
// what-if on logged rollouts cannot) on objective k of ev: a
// group (one group value in one step) is dropped when the raw values of
// objective k over its valid trajectories all equal and there are two or
// more (a value that nansum counted 0 is none). A group without a valid trajectory is kept: there is nothing to
// filter it by.
func FilterGroups(ev *engine.Evaluation, k int) *Filtered {
	f := &Filtered{Kept: make([]bool, ev.N()), of: ev, k: k, batches: ev.Ranking(engine.ScopeGroup).Batches}
	f.Steps = make([]FilterStep, len(f.batches))
	for bi := range f.batches {
		f.Steps[bi] = filterBatch(ev, &f.batches[bi], k, f.Kept)
	}
	return f
}

// Since returns FilterGroups(next, k), f being FilterGroups(ev, k) (or
// what Since returned) and next an evaluation that extends ev (Append;
// see engine.Evaluation.RowsSince), and changed, the batches next adds
// rows to, split into groups: only they are filtered, the others keep f's
// steps and marks, as a group lies within a batch. ok is false, and
// nothing computed, when next extends no evaluation f filtered: the
// caller filters next whole (FilterGroups). f is not changed.
func (f *Filtered) Since(next *engine.Evaluation) (out *Filtered, changed []engine.Batch, ok bool) {
	added, ok := next.RowsSince(f.of)
	if !ok || f.batches == nil {
		return nil, nil, false
	}
	k := f.k
	out = &Filtered{Kept: make([]bool, next.N()), of: next, k: k}
	copy(out.Kept, f.Kept)
	out.batches, changed = next.ExtendBatches(f.batches, engine.ScopeGroup, added)
	out.Steps = make([]FilterStep, len(out.batches))
	old := 0 // f.Steps[old] is of the first step not before the batch's
	for bi := range out.batches {
		b := &out.batches[bi]
		for old < len(f.Steps) && f.Steps[old].Step < b.Step {
			old++
		}
		if _, ok := added[b.Step]; ok {
			out.Steps[bi] = filterBatch(next, b, k, out.Kept)
		} else {
			out.Steps[bi] = f.Steps[old]
		}
	}
	return out, changed, true
}

// filterBatch filters the groups of batch b of ev on objective k, marks
// its members in kept, and returns what it kept and dropped.
func filterBatch(ev *engine.Evaluation, b *engine.Batch, k int, kept []bool) FilterStep {
	st := FilterStep{Step: b.Step, Trajectories: len(b.Members)}
	for _, g := range b.Groups {
		n, first, spread := 0, 0.0, false
		for _, i := range g.Members {
			if !ev.Valid[i] || ev.Absent != nil && ev.Absent[i*ev.M+k] {
				continue // no value (under nansum, a missing one counts 0)
			}
			x := ev.Values[i*ev.M+k]
			if n == 0 {
				first = x
			} else if x != first {
				spread = true
			}
			n++
		}
		keep := n < 2 || spread
		if keep {
			st.Kept++
			st.EffectiveBatch += len(g.Members)
		} else {
			st.Dropped++
		}
		for _, i := range g.Members {
			kept[i] = keep
		}
	}
	return st
}

// Rewards returns the rewards of ev under opts with the dropped groups
// left out before the rewards are computed, and 0 for the trajectories
// dropped: what the trainer trains on after the filter.
func (f *Filtered) Rewards(ev *engine.Evaluation, opts engine.Options) []float64 {
	out := make([]float64, ev.N())
	kept := 0
	for _, k := range f.Kept {
		if k {
			kept++
		}
	}
	if kept == 0 {
		return out
	}
	res := ev.Filter(func(i int) bool { return f.Kept[i] }).Compute(opts)
	j := 0
	for i, k := range f.Kept {
		if k {
			out[i] = res.Rewards[j]
			j++
		}
	}
	return out
}
