package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// The screen first: a recompute computes the batch on screen, its counts,
// and its statistics when the tab shown shows them (recompute.go); once
// that result is shown, the other batches, the trends, every batch's
// statistics and the health checks are computed off the event loop, while
// the header's badge says the health is updating (a tab that shows the
// statistics, visited before, computes them off the event loop itself:
// common.StatsWait). A tab that needs them at once (the Steps tab) waits for the
// same computation rather than doing it again.

// healthDoneMsg says that a health job finished.
type healthDoneMsg struct{ job *session.HealthJob }

// background returns the command that computes what the current result
// still lacks (the other batches, the trends and the health), or nil when
// nothing is missing or it is under way.
func (m *Model) background() tea.Cmd {
	s := m.common.Session
	if s.HealthReady() {
		return nil
	}
	j := s.HealthJob()
	if !j.Claim() {
		return nil
	}
	delay := m.delayBackground()
	if delay == 0 {
		return func() tea.Msg { return backgroundDueMsg{j} }
	}
	return tea.Tick(delay, func(time.Time) tea.Msg { return backgroundDueMsg{j} })
}

// delayBackground returns how long a new result's background work waits:
// backgroundDelay, or nothing when the tab shown waits for it (its frame
// is the health's).
func (m *Model) delayBackground() time.Duration {
	if w, ok := m.tabs[m.active].(common.HealthWaiter); ok && w.WaitsForHealth() {
		return 0
	}
	return backgroundDelay
}

// backgroundDelay is how long the background work waits after a result is
// shown: long enough for its frame to be drawn, on cores the work would
// otherwise take, and for a burst of keys to replace the result first;
// none when the tab shown waits for it (common.HealthWaiter).
const backgroundDelay = 3 * recomputeInterval

// backgroundDueMsg says that job may start.
type backgroundDueMsg struct{ job *session.HealthJob }

// startBackground runs job in a command, unless it is no longer wanted
// (session.HealthJobCurrent: its result replaced, or the steps it grades
// provisionally changed since), and beside the session's first one the hidden tabs'
// prefetch (prefetch_tabs.go); while the screen waits for work, it
// defers them until that work ends, and once started they wait at the
// Background gate while the screen waits for work (foreground.go).
func (m *Model) startBackground(j *session.HealthJob) tea.Cmd {
	m.rc.deferred = nil
	if !m.common.Session.HealthJobCurrent(j) {
		j.Drop()
		return nil
	}
	if m.foregroundBusy() {
		m.rc.deferred = j
		return nil
	}
	j.Start()
	gate := m.common.Background
	return tea.Batch(m.prefetchTabsOnce(), func() tea.Msg {
		j.RunPausing(gate)
		return healthDoneMsg{j}
	})
}

// healthDone takes a finished job's trends and findings when its result is
// still the one shown (else they are dropped), and updates the badge and
// the status line (the logged-advantage warning the job counted again);
// when the steps graded provisionally changed while it ran, it starts the
// job that grades its trends again.
func (m *Model) healthDone(msg healthDoneMsg) tea.Cmd {
	s := m.common.Session
	if !s.HealthDone(msg.job) {
		return nil
	}
	m.status.Refresh(s)
	if !s.HealthReady() {
		return m.background()
	}
	m.header.Refresh(m.common.Styles, s)
	return tea.Batch(m.broadcast(common.HealthReadyMsg{}), m.idle())
}

// idle returns the command that ends the burst of work (gcpace.Idle):
// it collects the garbage the work left and hands the memory back to the
// operating system, once the health of the result shown is computed and
// nothing else is under way: no recompute, no tab's job, no toggle of
// the group filter or change of constraints, the once-a-session prefetch
// done. It is asked when the health lands, when the prefetch finds
// nothing to do (prefetchOnce), and when a recompute, a tab's job, method
// B's prefetched result, the group filter's toggle or a change of
// constraints lands (resumeBackground), whichever is last, once a burst;
// work the screen waits for, started before the command runs
// (gcpace.Busy), calls it off. Not while following, where updates keep
// coming and gcpace.Following paces the collector.
func (m *Model) idle() tea.Cmd {
	if m.live != nil || m.foregroundBusy() || len(m.jobs) > 0 || m.rc.prefetching || !m.rc.prefetchAsked || !m.common.Session.HealthReady() {
		return nil
	}
	bursts := gcpace.Bursts()
	if m.rc.idleAsked == bursts+1 {
		return nil
	}
	m.rc.idleAsked = bursts + 1
	return func() tea.Msg {
		gcpace.Idle(bursts)
		return nil
	}
}

// retire offers a result no longer shown for its arrays to be reused by
// the next recompute: only one the session no longer uses, outside follow
// mode (whose results extend one another's arrays).
func (m *Model) retire(old *engine.Result) {
	if m.live != nil || !m.common.Session.Unused(old) {
		return
	}
	m.rc.spare = old
}
