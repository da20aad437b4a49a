package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/ui/common"
)

// The work on screen first: the background work (the health of a result
// shown, with the tabs' prefetches beside it) takes both cores for as
// long as it runs, so started while the screen still waits for work (a
// method switch's comparison on the Compare tab, a first visit's), it
// halved that work's cores. Its start is deferred until that work ends:
// the health is computed after the screen is drawn rather than beside it.
// Following a run, where recomputes come one after another, it is not
// deferred: the health would never be computed.
//
// From the start of that work until the dashboard is idle (the health and
// prefetches that follow it done too), the collector lets the heap grow
// (gcpace.Busy): a collection in the middle would mark the whole heap on
// a core the work needs, and make the goroutine that allocates next (often
// the event loop) help it. Once idle, what the work left is collected at
// once (background.go's idle).
//
// Background work already running when the screen starts waiting (the
// first health, the hidden tabs' prefetches, started once the first frame
// is drawn: a visit soon after) cannot be deferred; it steps aside
// instead: it waits at the Background gate between its steps
// (internal/pause), which the root holds for as long as the screen waits
// for work, unless that work may wait for what the gate holds.

// foregroundBusy reports whether the screen waits for work: a recompute
// under way or due, the group filter's toggle or a change of constraints
// being evaluated, a job of the tab shown out, or method B's result being
// computed for the Compare tab shown.
func (m *Model) foregroundBusy() bool {
	if m.live != nil {
		return false
	}
	if m.rc.next != nil || m.filter.next != nil || m.weights.structure.Next() != nil {
		return true
	}
	for _, j := range m.jobs {
		if j.tab == m.active {
			return true
		}
	}
	c, ok := m.tabs[m.active].(common.Comparer)
	return m.rc.prefetching && ok && c.ShowsCompare()
}

// paceForeground lets the heap grow while the screen waits for work
// (gcpace.Busy), which the message just handled may have started, and
// holds the background work for it (holdsBackground), or lets it go on.
func (m *Model) paceForeground() {
	busy := m.foregroundBusy()
	if busy {
		gcpace.Busy()
	}
	if busy && m.holdsBackground() {
		m.common.Background.Hold()
	} else {
		m.common.Background.Release()
	}
}

// holdsBackground reports whether the work the screen waits for may hold
// the background work: not when the tab shown may wait for what the gate
// holds, its own job (a Prefetcher's, which waits at the gate) or the
// health (a HealthWaiter's).
func (m *Model) holdsBackground() bool {
	tab := m.tabs[m.active]
	if _, ok := tab.(common.Prefetcher); ok {
		return false
	}
	w, ok := tab.(common.HealthWaiter)
	return !ok || !w.WaitsForHealth()
}

// resumeBackground, once the screen no longer waits for work, starts the
// background work deferred, with the prefetches due after it; or else the
// session's prefetch, when it was due while that work was under way (and
// so dropped) and nothing else will make it due; or else asks whether the
// dashboard is idle. It is asked whenever such work lands.
func (m *Model) resumeBackground() tea.Cmd {
	switch {
	case m.foregroundBusy():
		return nil
	case m.rc.deferred != nil:
		return tea.Batch(m.startBackground(m.rc.deferred), prefetchDue)
	case !m.rc.prefetchAsked && m.common.Session.HealthReady():
		return m.prefetchOnce()
	}
	return m.idle()
}
