package session

import (
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/follow"
	"github.com/rewardlens/rewardlens/loaders"
)

// ApplyUpdate forgets the trajectories of the files read again, appends
// the new ones (lean once evaluated) to followed, the evaluation of the
// followed files, and computes the batches they touch,
// keeping the rest of the result, its statistics and its trends; with the
// group filter on, only those batches are filtered again (filterSince). A
// recompute in flight (new options) is for the evaluation replaced here:
// it is dropped when it lands, and started again on this one (see
// ui/recompute.go).
func (s *Session) ApplyUpdate(followed *live.Evaluation, u loaders.Update) {
	if leaving := followed.Leaving(u.Reloaded); leaving != nil && s.Prompts != nil {
		// The columns read of the records are in input order: those of
		// the files read again leave with their rows (the dead signal,
		// the Prompts tab).
		s.Prompts.DeleteFunc(leaving)
	}
	if len(u.Reloaded) > 0 {
		s.deleteReloaded(u.Reloaded)
		s.Reloads++
	}
	for _, path := range u.Reloaded {
		delete(s.lastStep, path)
	}
	loaders.NoteLastSteps(s.lastStep, u.Trajectories)
	from := s.Trajectories.Len()
	s.Trajectories.Append(u.Trajectories...)
	s.serials.noteRead(u.Trajectories, s.Trajectories.Len())
	s.Fields = addFirstFields(s.Fields, u.Trajectories)
	s.addPrompts(u.Trajectories)
	for i := from; i < s.Trajectories.Len(); i++ {
		s.Trajectories.At(i).DropBody()
	}
	prev := s.Result
	var trends []diagnose.Trend // kept only when the health checks are of prev
	if s.health.result == prev {
		trends = s.health.trends
	}
	if s.Filter.On {
		base := followed.Update(u.Reloaded, u.Trajectories)
		if s.filterSince(base) {
			s.Result, trends = follow.Recompute(s.Evaluation, prev, trends, s.HVRef)
		} else {
			// Files read again: the filter is applied to the
			// evaluation without it, whole, and the health computed
			// again.
			s.refilter(base)
			trends = nil
		}
	} else {
		s.Result, trends = follow.Step(followed, u, prev, trends, s.HVRef)
		s.Evaluation = s.Result.Evaluation
	}
	s.finishPrompts()
	s.warnMixedPrompts()
	if s.compare != nil {
		s.compare = s.Evaluation.Recompute(s.compare)
	}
	s.loggedDue = nil
	if s.readInPartOf != nil {
		s.SetReadInPart(s.readInPartOf(s.Result))
	}
	if trends != nil {
		dead := s.deadSignal()
		dead.add(s.Result, trends)
		cfg := s.healthConfig()
		s.health = cacheOf(s.Result, trends, dead.findings(s.Result, trends, cfg), cfg)
		// No health job runs for this result: the rows that differ from
		// the log are counted again by a job of their own, off the event
		// loop (LoggedJob), which replaces that of an update before.
		if l := loggedCheckOf(s.Result, &s.logged); l != nil {
			s.loggedDue = &LoggedJob{check: l, result: s.Result}
		}
	}
}
