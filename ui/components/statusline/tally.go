package statusline

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/invalid"
)

// invalidTally counts an evaluation's invalid trajectories per step and
// per cause, what the line says of them. An evaluation that extends the
// one counted (a followed update: engine.Evaluation.RowsSince) has the
// batches it adds rows to counted again whole, the others kept: an
// update costs the event loop the batches it touches, not a scan of the
// run. (The group filter's evaluation, engine.Evaluation.WithoutSince,
// may change the validity of a batch's old rows when new ones join their
// group, but only between valid and dropped, which neither counts.)
type invalidTally struct {
	of     *engine.Evaluation
	steps  map[int64]stepTally
	causes map[string]int
}

// stepTally counts a step's trajectories, the invalid ones among them
// (those the group filter dropped not counted: engine.Evaluation.
// InvalidAt) and their causes (the step's share of invalidTally.causes,
// taken out when the step is counted again).
type stepTally struct {
	trajectories, invalid int
	causes                map[string]int
}

// count brings the tally to res's evaluation: the batches to which it adds
// rows counted again when it extends the evaluation counted, else all of
// its batches.
func (t *invalidTally) count(res *engine.Result) {
	ev := res.Evaluation
	batches := res.Ranking.Batches
	if t.of != nil {
		if added, ok := ev.RowsSince(t.of); ok {
			for step := range added {
				b, found := res.Ranking.BatchIndex(step)
				if !found {
					continue // a step whose rows the ranking left out, as a whole count does
				}
				t.recount(ev, &batches[b])
			}
			t.of = ev
			return
		}
	}
	t.steps = make(map[int64]stepTally, len(batches))
	t.causes = map[string]int{}
	for b := range batches {
		t.recount(ev, &batches[b])
	}
	t.of = ev
}

// recount counts batch's members of ev, in place of what the tally had of
// its step.
func (t *invalidTally) recount(ev *engine.Evaluation, batch *engine.Batch) {
	for c, n := range t.steps[batch.Step].causes {
		if t.causes[c] -= n; t.causes[c] == 0 {
			delete(t.causes, c)
		}
	}
	s := stepTally{trajectories: len(batch.Members)}
	for _, i := range batch.Members {
		if !ev.InvalidAt(i) {
			continue
		}
		s.invalid++
		if c := ev.Causes[i]; c != "" {
			if s.causes == nil {
				s.causes = map[string]int{}
			}
			s.causes[c]++
			t.causes[c]++
		}
	}
	t.steps[batch.Step] = s
}

// mostlyInvalid returns, ascending, the steps more than invalid.Mostly of
// whose trajectories are invalid (invalid.MostlyBatches' steps).
func (t *invalidTally) mostlyInvalid() []int64 {
	var steps []int64
	for step, s := range t.steps {
		if invalid.IsMostly(s.invalid, s.trajectories) {
			steps = append(steps, step)
		}
	}
	slices.Sort(steps)
	return steps
}
