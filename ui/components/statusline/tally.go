package statusline

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/invalid"
)

// invalidTally counts an evaluation's invalid trajectories per step and
// per cause, what the line says of them. An evaluation that extends the
// one counted (a followed update: engine.Evaluation.RowsSince) has only
// the rows it adds counted, into the counts of their steps: an update
// costs the event loop its own rows, not its batches nor a scan of the
// run. The old rows' counts stand: an evaluation that extends another
// keeps the validity and cause of its rows, but for the group filter's
// (engine.Evaluation.WithoutSince), whose old rows may change when new
// ones join their group, but only between valid and dropped, which
// neither counts.
type invalidTally struct {
	of     *engine.Evaluation
	steps  map[int64]stepTally
	causes map[string]int
}

// stepTally counts a step's trajectories and the invalid ones among them
// (those the group filter dropped not counted: engine.Evaluation.
// InvalidAt).
type stepTally struct {
	trajectories, invalid int
}

// count brings the tally to res's evaluation: the rows it adds counted
// when it extends the evaluation counted, else all of its batches'.
func (t *invalidTally) count(res *engine.Result) {
	ev := res.Evaluation
	batches := res.Ranking.Batches
	if t.of != nil {
		if added, ok := ev.RowsSince(t.of); ok {
			for step, rows := range added {
				b, found := res.Ranking.BatchIndex(step)
				if !found {
					continue // a step whose rows the ranking left out, as a whole count does
				}
				t.add(ev, &batches[b], rows)
			}
			t.of = ev
			return
		}
	}
	t.steps = make(map[int64]stepTally, len(batches))
	t.causes = map[string]int{}
	for b := range batches {
		t.add(ev, &batches[b], batches[b].Members)
	}
	t.of = ev
}

// add counts rows, members of batch of ev not counted yet, into the
// tally of batch's step, which then holds batch's trajectories.
func (t *invalidTally) add(ev *engine.Evaluation, batch *engine.Batch, rows []int) {
	s := t.steps[batch.Step]
	s.trajectories = len(batch.Members)
	for _, i := range rows {
		if !ev.InvalidAt(i) {
			continue
		}
		s.invalid++
		if c := ev.Causes[i]; c != "" {
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
