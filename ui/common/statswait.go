package common

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/session"
)

// StatsWait is what a tab that shows the batch's statistics (StatsShower)
// keeps while they are computed off the event loop: the session's,
// visited after a recompute on another tab, which computed only the
// counts, before the health job computed them (Wait:
// session.Session.StatsJob), or statistics of the tab's own that no
// cache keeps (WaitFor: the Objectives tab's of a source). Its zero value
// waits for nothing.
type StatsWait struct {
	gen     int
	pending bool
	what    string
	job     func() tea.Msg
}

// StatsReadyMsg says that the statistics a StatsWait waited for are
// computed: after Wait, the tab's refresh finds them at once; after
// WaitFor, Value is what its job returned.
type StatsReadyMsg struct {
	gen   int
	Value any
}

// Wait reports whether the shown batch's statistics of s are still to be
// computed, making their job (Job) when they are; it drops any job of
// an earlier call.
func (w *StatsWait) Wait(s *session.Session) bool {
	job := s.StatsJob()
	if job == nil {
		w.Stop()
		return false
	}
	w.WaitFor("the statistics", func() any {
		job()
		return nil
	})
	return true
}

// WaitFor waits for job, statistics that what names while they are
// computed, whose value the message of Ready carries; it drops any job of
// an earlier call.
func (w *StatsWait) WaitFor(what string, job func() any) {
	w.Stop()
	gen := w.gen
	w.pending, w.what = true, what
	w.job = func() tea.Msg { return StatsReadyMsg{gen, job()} }
}

// Stop ends the wait: the message of a job made before says nothing.
func (w *StatsWait) Stop() {
	w.gen++
	w.pending, w.job = false, nil
}

// View returns what the tab shows while it waits, width x height, and
// true; "" and false when it waits for nothing or has no size yet.
func (w *StatsWait) View(st *Styles, width, height int) (string, bool) {
	if !w.pending || width <= 0 {
		return "", false
	}
	return FitBox(Computing(st, w.what, width), width, height), true
}

// Job returns the computation of the statistics waited for, once (the
// tab's Worker.Job).
func (w *StatsWait) Job() func() tea.Msg {
	job := w.job
	w.job = nil
	return job
}

// Ready reports whether msg ends the wait: the statistics of the last
// Wait or WaitFor are computed.
func (w *StatsWait) Ready(msg StatsReadyMsg) bool {
	ready := w.pending && msg.gen == w.gen
	if ready {
		w.pending = false
	}
	return ready
}
