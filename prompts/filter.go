package prompts

import (
	"github.com/rewardlens/rewardlens/engine"
)

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
	f := &Filtered{Kept: make([]bool, ev.N())}
	for _, b := range ev.Ranking(engine.ScopeGroup).Batches {
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
			if n >= 2 && !spread {
				st.Dropped++
				continue
			}
			st.Kept++
			st.EffectiveBatch += len(g.Members)
			for _, i := range g.Members {
				f.Kept[i] = true
			}
		}
		f.Steps = append(f.Steps, st)
	}
	return f
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
