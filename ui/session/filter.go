package session

import (
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/invalid"
	"github.com/rewardlens/rewardlens/prompts"
)

// GroupFilter is DAPO's group filter (--filter-groups, prompts.FilterGroups)
// as the dashboard toggles it. On, the session's evaluation is the one
// without the filter with the dropped groups' trajectories left out
// (engine.Evaluation.Without: not valid, and Dropped, not invalid data),
// so that every tab shows the batch the trainer keeps, compute's kept
// marks, with the indices unchanged; off, it is the evaluation without
// the filter.
type GroupFilter struct {
	// Objective is the objective whose zero spread drops a group, ""
	// when none was given; k is its index.
	Objective string
	k         int
	// On says the filter is applied; Steps then says what it kept and
	// dropped per step, in the result's batch order, and Kept marks the
	// trajectories of the groups kept.
	On    bool
	Steps []prompts.FilterStep
	Kept  []bool
	// unfiltered is the evaluation without the filter, when On, and
	// filtered what the filter kept of it.
	unfiltered *engine.Evaluation
	filtered   *prompts.Filtered
	// written is what compute --filter-groups writes as each
	// trajectory's score, rank and crowding for a result shown (a
	// WrittenJob computes it off the event loop): WrittenScoreRank.
	written *Written
}

// SetFilterGroups names the group filter's objective (--filter-groups;
// "" for none) and turns the filter on: a name that is no objective is
// a *prompts.NotAnObjectiveError, with the nearest ones.
func (s *Session) SetFilterGroups(objective string) error {
	if objective == "" {
		return nil
	}
	k, err := prompts.FilterObjective(s.Evaluation.Objectives, objective)
	if err != nil {
		return err
	}
	s.Filter = GroupFilter{Objective: objective, k: k}
	ev, f := s.Filtered(true)
	res := ev.Prepare(s.Options, nil)
	s.SetFiltered(true, s.Evaluation, ev, f, res)
	return nil
}

// Unfiltered returns the evaluation without the group filter.
func (s *Session) Unfiltered() *engine.Evaluation {
	if s.Filter.On {
		return s.Filter.unfiltered
	}
	return s.Evaluation
}

// Filtered returns the evaluation the session shows with the filter on
// or off, and, on, what it kept per step. It only reads the evaluation
// without the filter: a command may call it off the event loop on the
// evaluation the session had (FilterOf).
func (s *Session) Filtered(on bool) (*engine.Evaluation, *prompts.Filtered) {
	return FilterOf(s.Unfiltered(), s.Filter.k, on)
}

// FilterOf returns base, or with on base without the groups the filter
// on objective k drops, and what it kept (nil off).
func FilterOf(base *engine.Evaluation, k int, on bool) (*engine.Evaluation, *prompts.Filtered) {
	if !on {
		return base, nil
	}
	f := prompts.FilterGroups(base, k)
	return base.Without(func(i int) bool { return !f.Kept[i] }), f
}

// FilterObjective returns the filter's objective and its index.
func (s *Session) FilterObjective() (string, int) { return s.Filter.Objective, s.Filter.k }

// SetFiltered shows ev, the evaluation base with the filter on or off
// and what it kept, f (FilterOf), and res, a result of it.
func (s *Session) SetFiltered(on bool, base, ev *engine.Evaluation, f *prompts.Filtered, res *engine.Result) {
	s.Filter.On = on
	if !on {
		f = nil
	}
	s.Filter.set(base, f)
	s.Evaluation = ev
	s.SetResult(res, nil)
}

// refilter applies the filter to base, the evaluation a live update made
// without it: every batch is computed again, the one shown at once.
func (s *Session) refilter(base *engine.Evaluation) {
	ev, f := FilterOf(base, s.Filter.k, true)
	s.SetFiltered(true, base, ev, f, ev.Prepare(s.Options, nil))
}

// filterSince filters base, the evaluation a live update made without the
// filter, from what the filter kept before it: when base extends the
// evaluation filtered (no file was read again), only the batches the
// update adds to are filtered again (prompts.Filtered.Since), the
// evaluation shown extends the one before (engine.Evaluation.
// WithoutSince), and it reports true; else it changes nothing and
// reports false.
func (s *Session) filterSince(base *engine.Evaluation) bool {
	f := &s.Filter
	if f.filtered == nil {
		return false
	}
	kept, changed, ok := f.filtered.Since(base)
	if !ok {
		return false
	}
	s.Evaluation = base.WithoutSince(s.Evaluation, changed, func(i int) bool { return !kept.Kept[i] })
	f.set(base, kept)
	return true
}

// Written is what compute --filter-groups writes as each trajectory's
// score, Pareto rank and crowding, for of, a result shown with the filter
// on: of's own where the filter kept the trajectory; where it dropped it
// (not valid in of: score NaN, rank -1), those of base, the run without the
// filter, computed with of's options.
type Written struct {
	base             *engine.Evaluation
	of               *engine.Result
	Scores, Crowding []float64
	Ranks            []int
}

// WrittenJob computes the Written of a result shown off the event loop.
type WrittenJob struct {
	base *engine.Evaluation
	of   *engine.Result
	kept []bool
}

// WrittenJob returns the job of the written scores, ranks and crowding of
// the result shown, nil when none is needed: the filter is off, drops
// nothing, or they are computed (WrittenPending).
func (s *Session) WrittenJob() *WrittenJob {
	if !s.WrittenPending() {
		return nil
	}
	return &WrittenJob{base: s.Filter.unfiltered, of: s.Result, kept: s.Filter.Kept}
}

// Run computes the run without the filter with the options of the result
// the job is of (Evaluation.Prepare: its ranking and scores are kept by
// that evaluation, so a change of method costs little) and gathers what
// compute writes, one pass over the run. It only reads the session's
// evaluations and result, which are safe for concurrent reads.
func (j *WrittenJob) Run() *Written {
	base := j.base.Prepare(j.of.Options, nil)
	n := j.of.Evaluation.N()
	w := &Written{base: j.base, of: j.of, Scores: make([]float64, n), Crowding: make([]float64, n), Ranks: make([]int, n)}
	from := func(i int) *engine.Result {
		if i < len(j.kept) && !j.kept[i] {
			return base
		}
		return j.of
	}
	for i := range n {
		r := from(i)
		w.Scores[i], w.Ranks[i], w.Crowding[i] = r.Scores[i], r.Ranking.Ranks[i], r.Ranking.Crowding[i]
	}
	return w
}

// SetWritten keeps w when it is of the result shown, the filter on
// (a recompute, a followed update or a toggle since made it stale), and
// reports whether it did.
func (s *Session) SetWritten(w *Written) bool {
	if !s.Filter.On || w.of != s.Result || w.base != s.Filter.unfiltered {
		return false
	}
	s.Filter.written = w
	return true
}

// WrittenPending reports whether the filter, on, dropped trajectories
// whose written score, rank and crowding are not computed for the result
// shown (WrittenJob).
func (s *Session) WrittenPending() bool {
	f := &s.Filter
	return f.On && (f.written == nil || f.written.of != s.Result) && f.dropsAny()
}

// DropsInBatch reports whether the filter, on, dropped a group of the
// batch shown.
func (s *Session) DropsInBatch() bool {
	f := &s.Filter
	return f.On && s.Batch < len(f.Steps) && f.Steps[s.Batch].Dropped > 0
}

// dropsAny reports whether the filter dropped a group.
func (g *GroupFilter) dropsAny() bool {
	return slices.ContainsFunc(g.Steps, func(st prompts.FilterStep) bool { return st.Dropped > 0 })
}

// WrittenScoreRank returns trajectory i's score and Pareto rank as
// compute writes them: the result's, but, with the filter on, for a
// trajectory of a dropped group (not valid in the result: score NaN, rank
// -1), those of the run without the filter; ok is false while those are
// not computed for the result shown (WrittenJob).
func (s *Session) WrittenScoreRank(i int) (score float64, rank int, ok bool) {
	scores, _, ranks := s.WrittenValues()
	return scores[i], ranks[i], !s.WrittenPendingAt(i)
}

// WrittenCrowding returns trajectory i's crowding distance as compute
// writes it, as WrittenScoreRank returns its score and rank.
func (s *Session) WrittenCrowding(i int) (crowding float64, ok bool) {
	_, crowdings, _ := s.WrittenValues()
	return crowdings[i], !s.WrittenPendingAt(i)
}

// WrittenValues returns the scores, crowding distances and Pareto ranks
// compute writes: with the group filter on, once computed, Written's (a
// dropped trajectory's those of the run without the filter), else the
// result's (a dropped trajectory's, not valid there, NaN and -1).
func (s *Session) WrittenValues() (scores, crowding []float64, ranks []int) {
	if w := s.Written(); w != nil {
		return w.Scores, w.Crowding, w.Ranks
	}
	return s.Result.Scores, s.Result.Ranking.Crowding, s.Result.Ranking.Ranks
}

// WrittenPendingAt reports whether trajectory i's written values are
// being computed (WrittenJob): one the group filter dropped, until they
// land.
func (s *Session) WrittenPendingAt(i int) bool { return s.Dropped(i) && s.Written() == nil }

// Written returns what compute writes for the result shown with the
// filter on, nil with the filter off (the result's own values are), or
// while it is computed (WrittenPending).
func (s *Session) Written() *Written {
	if w := s.Filter.written; s.Filter.On && w != nil && w.of == s.Result {
		return w
	}
	return nil
}

// Dropped reports whether the filter, on, dropped trajectory i's group.
func (s *Session) Dropped(i int) bool {
	f := &s.Filter
	return f.On && i < len(f.Kept) && !f.Kept[i]
}

// NotValidBecause says why trajectory i of the result shown is not valid:
// its cause, or, when the filter dropped it, "dropped by the group filter
// (zero spread of OBJECTIVE)"; "" when it is valid.
func (s *Session) NotValidBecause(i int) string {
	if ev := s.Result.Evaluation; !ev.DroppedAt(i) {
		return ev.Causes[i]
	}
	return fmt.Sprintf("%s (zero spread of %s)", invalid.FilterDropped, s.Filter.Objective)
}

// set makes f, what the filter kept of evaluation base, the filter's;
// a nil f clears it.
func (g *GroupFilter) set(base *engine.Evaluation, f *prompts.Filtered) {
	g.written = nil
	if f == nil {
		g.Steps, g.Kept, g.unfiltered, g.filtered = nil, nil, nil, nil
		return
	}
	g.Steps, g.Kept, g.unfiltered, g.filtered = f.Steps, f.Kept, base, f
}

// FilterSummary says what the filter does, for the status line: "" when
// there is none, else its objective and state and, on, the groups kept
// and dropped over the run and in the batch shown.
func (s *Session) FilterSummary() string {
	f := &s.Filter
	switch {
	case f.Objective == "":
		return ""
	case !f.On:
		return fmt.Sprintf("filter-groups %s off", f.Objective)
	}
	kept, dropped := 0, 0
	for _, st := range f.Steps {
		kept += st.Kept
		dropped += st.Dropped
	}
	text := fmt.Sprintf("filter-groups %s on: %d kept, %d dropped groups", f.Objective, kept, dropped)
	if s.Batch < len(f.Steps) {
		st := f.Steps[s.Batch]
		text += fmt.Sprintf("; this step %d kept, %d dropped, %d of %d trajectories", st.Kept, st.Dropped, st.EffectiveBatch, st.Trajectories)
	}
	return text
}
