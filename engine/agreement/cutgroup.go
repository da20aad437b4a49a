package agreement

import "github.com/rewardlens/rewardlens/engine"

// CutGroup is the comparison group that a cap on the rows read (--max-rows)
// cut short: its rewards are computed without its members not read, which
// no trainer setting reproduces.
type CutGroup struct {
	// Batch is the index of its batch in res.Ranking.Batches, Step that
	// batch's step.
	Batch int
	Step  int64
	Group *engine.Group
}

// CutGroupOf returns the group of res that the cap cut, when capped says
// the reading stopped at a number of rows: under scope group (a batch of
// scope batch is no trainer's group), the group of the last trajectory
// read, when it has fewer members than another group of its batch. ok is
// false when there is none: not capped, or the last group read is as
// large as the others (the cap fell on its end).
func CutGroupOf(res *engine.Result, capped bool) (c CutGroup, ok bool) {
	if !capped || res.Options.Scope != engine.ScopeGroup || len(res.Rewards) == 0 {
		return c, false
	}
	last := len(res.Rewards) - 1
	for b := range res.Ranking.Batches {
		groups := res.Ranking.Batches[b].Groups
		for k := range groups {
			// Members are in input order: the last read is the last member.
			if m := groups[k].Members; len(m) == 0 || m[len(m)-1] != last {
				continue
			}
			for j := range groups {
				if len(groups[j].Members) > len(groups[k].Members) {
					return CutGroup{Batch: b, Step: res.Ranking.Batches[b].Step, Group: &groups[k]}, true
				}
			}
			return c, false
		}
	}
	return c, false
}
