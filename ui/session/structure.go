package session

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/prompts"
)

// StructureJob changes the session's constraints and gates (the weights
// editor): the objectives' values are kept and the constraints and gates
// evaluated again on the loaded trajectories (engine.Restructure). Lean
// trajectories keep only their id, batch, group, step_count and done:
// when an expression reads more, those are read again from their files,
// one by one, each checked to be what was evaluated (a record edited
// since the load is an error naming it). With the group filter on, they are evaluated on the
// evaluation without it, which is then filtered again. Run does the work
// off the event loop; ApplyStructure shows it.
type StructureJob struct {
	// Constraints and Gates are the new ones, as the config writes them.
	Constraints, Gates []string
	// Rereads is how many trajectories Run reads again from their files.
	Rereads int

	from *engine.Evaluation
	r    *engine.Restructure
	// ts are the session's trajectories as they were (Snapshot: a follow
	// update appends to them while Run reads).
	ts Trajectories
	// reread reads lean trajectory i again, checked against the
	// evaluation (Session.RereadChecked: a record edited since the load is
	// an error, not evaluated), with reader, which Run closes; nil when the
	// expressions read no body.
	reread func(i int, t *scoring.Trajectory) (scoring.Trajectory, error)
	reader *loaders.Rereader

	// filter is the group filter as the job started: on, Run filters ev
	// into filtered, what it kept in kept.
	filter   GroupFilter
	ev       *engine.Evaluation
	filtered *engine.Evaluation
	kept     *prompts.Filtered
	err      error
}

// ErrStructureStale is ApplyStructure's error for a job run on an
// evaluation the session no longer shows.
var ErrStructureStale = errors.New("the trajectories changed while the constraints were evaluated")

// NewStructureJob compiles constraints and gates over the session's
// objectives; its errors are those of the CLI's --constraint and --gate
// (a constraint that is not a boolean, a gate of no objective with "did
// you mean"). A lean trajectory that must be read again and cannot be is
// an error naming it.
func (s *Session) NewStructureJob(constraints, gates []string) (*StructureJob, error) {
	r, err := engine.NewRestructure(s.Computer.Scorer, constraints, gates)
	if err != nil {
		return nil, err
	}
	j := &StructureJob{Constraints: slices.Clone(constraints), Gates: slices.Clone(gates), from: s.Unfiltered(), r: r, ts: s.Trajectories.Snapshot(), filter: s.Filter}
	if r.ReadsBody() {
		j.reader = s.Rereader()
		j.reread = s.RereadChecked(j.reader)
		for _, t := range s.Trajectories.All() {
			if t.Lean {
				j.Rereads++
			}
		}
	}
	return j, nil
}

// Run evaluates the constraints and gates, reading lean trajectories
// again when they must be; once ctx is done it stops.
func (j *StructureJob) Run(ctx context.Context) {
	at := func(i int) (*scoring.Trajectory, error) { return j.ts.At(i), nil }
	if j.reader != nil {
		defer j.reader.Close()
	}
	if j.Rereads > 0 {
		var whole scoring.Trajectory
		at = func(i int) (*scoring.Trajectory, error) {
			t := j.ts.At(i)
			if !t.Lean {
				return t, nil
			}
			var err error
			if whole, err = j.reread(i, t); err != nil {
				return nil, fmt.Errorf("reading the trajectories again for the new constraints and gates: %w", err)
			}
			return &whole, nil
		}
	}
	j.ev, j.err = j.r.Apply(ctx, j.from, at)
	if j.err == nil && j.filter.On {
		j.filtered, j.kept = FilterOf(j.ev, j.filter.k, true)
	}
}

// ApplyStructure shows the evaluation of a job that ran: the session's
// evaluation, scorer and config take its constraints and gates, and the
// caller recomputes the result. A job that failed, ran on an evaluation
// the session no longer shows, or would leave no trajectory valid (as
// the CLI exits then), changes nothing and returns why.
func (s *Session) ApplyStructure(j *StructureJob) error {
	if j.err != nil {
		return j.err
	}
	if j.from != s.Unfiltered() {
		return ErrStructureStale
	}
	// As the CLI exits when no trajectory is valid, a change that would
	// leave none is refused, with the causes.
	if !slices.Contains(j.ev.Valid, true) && slices.Contains(j.from.Valid, true) {
		if err := invalid.NoValid(&engine.Result{Evaluation: j.ev}, j.r.Scorer(), s.Fields); err != nil {
			return fmt.Errorf("refused: %w", err)
		}
	}
	c := *s.Computer
	c.Scorer = j.r.Scorer()
	s.Computer, s.Evaluation = &c, j.ev
	if s.Filter.On {
		if !j.filter.On { // f turned the filter on meanwhile
			j.filtered, j.kept = FilterOf(j.ev, s.Filter.k, true)
		}
		s.Evaluation = j.filtered
		s.Filter.set(j.ev, j.kept)
	}
	s.Config.Constraints, s.Config.Gates = j.Constraints, j.Gates
	return nil
}
