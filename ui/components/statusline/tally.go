package statusline

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/invalid"
)

// invalidTally counts an evaluation's invalid trajectories per step and
// per cause, what the line says of them. An evaluation that extends the
// one counted (a followed update: engine.Evaluation.RowsSince) has the
// rows it adds counted alone: an update costs the event loop those rows,
// not a scan of the run.
type invalidTally struct {
	of     *engine.Evaluation
	steps  map[int64]stepTally
	causes map[string]int
}

// stepTally counts a step's trajectories and the invalid ones among them,
// those the group filter dropped not counted (invalid.Counts).
type stepTally struct{ trajectories, invalid int }

// count brings the tally to res's evaluation: the rows it adds to the
// evaluation counted when it extends it, else all of its rows, batch by
// batch.
func (t *invalidTally) count(res *engine.Result) {
	ev := res.Evaluation
	if t.of != nil {
		if added, ok := ev.RowsSince(t.of); ok {
			for step, rows := range added {
				s := t.steps[step]
				s.trajectories += len(rows)
				for _, i := range rows {
					if !ev.Valid[i] && invalid.Counts(ev.Causes[i]) {
						s.invalid++
					}
					if c := ev.Causes[i]; c != "" {
						t.causes[c]++
					}
				}
				t.steps[step] = s
			}
			t.of = ev
			return
		}
	}
	t.steps = make(map[int64]stepTally, len(res.Ranking.Batches))
	for b := range res.Ranking.Batches {
		batch := &res.Ranking.Batches[b]
		s := stepTally{trajectories: len(batch.Members)}
		for _, i := range batch.Members {
			if !ev.Valid[i] && invalid.Counts(ev.Causes[i]) {
				s.invalid++
			}
		}
		t.steps[batch.Step] = s
	}
	t.causes = ev.InvalidCounts() // a new map, the tally's to add to
	t.of = ev
}

// mostlyInvalid returns, ascending, the steps more than invalid.Mostly of
// whose trajectories are invalid (invalid.MostlyBatches' steps).
func (t *invalidTally) mostlyInvalid() []int64 {
	var steps []int64
	for step, s := range t.steps {
		if float64(s.invalid) > invalid.Mostly*float64(s.trajectories) {
			steps = append(steps, step)
		}
	}
	slices.Sort(steps)
	return steps
}
