package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
)

// Once the first result is shown, the Compare tab's comparison (method
// B's result, then the comparison itself and its ranking, the tab's jobs)
// is computed beside its health, for the tab not shown yet, so that its
// first visit finds it ready. Started as the first frame is drawn, it
// made a visit pressed then slower: that visit's own recompute ranks A's
// side beside B's result (JobPreparer), which the prefetch does not, and
// waited for it instead. It holds what a visit would hold: one result of
// B and one comparison. A change of the session before the visit marks
// the tab stale, and the visit computes its comparison again. It is done
// once a session: after every switch it would take the cores from the
// next switch, and hold B's result for a tab perhaps never shown.

// prefetchDueMsg says that the health of a result started, or was
// computed: the prefetch may start. It comes from a command, which
// Settle drops with the others: a model driven without a program
// computes B's result when Compare is shown, as before.
type prefetchDueMsg struct{}

func prefetchDue() tea.Msg { return prefetchDueMsg{} }

// prefetchOnce starts the prefetch the first time it is due with no
// recompute under way; with nothing to prefetch, the dashboard may be
// idle.
func (m *Model) prefetchOnce() tea.Cmd {
	if m.rc.prefetchAsked || m.rc.next != nil || m.live != nil || m.rc.deferred != nil {
		return nil
	}
	m.rc.prefetchAsked = true
	return tea.Batch(m.prefetchCompare(), m.idle())
}

// prefetchedMsg is method B's result, computed on evaluation ev.
type prefetchedMsg struct {
	ev     *engine.Evaluation
	result *engine.Result
}

// prefetchCompare returns the command that computes, for the first tab
// that shows B and compares off the event loop (a Comparer whose job
// starts with a recompute, a JobPreparer: the Compare tab) while stale
// and not shown, method B's result if the session lacks it, or else that
// tab's comparison, at the body's size once it is known.
func (m *Model) prefetchCompare() tea.Cmd {
	s := m.common.Session
	if s.Result == nil || m.live != nil || m.rc.next != nil {
		return nil
	}
	for i, tab := range m.tabs {
		c, ok := tab.(common.Comparer)
		if _, comparing := tab.(common.JobPreparer); !ok || !comparing || !c.ShowsCompare() || i == m.active || !m.stale[i] {
			continue
		}
		if b, ok := s.CompareNeeded(s.Result.Options); ok {
			ev := s.Evaluation
			m.rc.prefetching = true
			return func() tea.Msg { return prefetchedMsg{ev, ev.Compute(b)} }
		}
		m.stale[i] = false
		if m.body != (tabSize{}) {
			// Sized first, as its visit will: the comparison counts its
			// points on the grid the visit draws, not again then.
			m.sizeTab(i)
		}
		return m.updateTab(i, common.SessionChangedMsg{})
	}
	return nil
}

// prefetched takes method B's result unless the session changed since it
// was asked, then asks for the comparison; a Compare tab shown meanwhile
// (which waited for it, computeCompare) compares it, or computes B's
// result itself when it was dropped.
func (m *Model) prefetched(msg prefetchedMsg) tea.Cmd {
	m.rc.prefetching = false
	s := m.common.Session
	if msg.ev != s.Evaluation || !s.SetCompare(msg.result) {
		return m.computeCompare()
	}
	if c, ok := m.tabs[m.active].(common.Comparer); ok && c.ShowsCompare() {
		m.stale[m.active] = false
		return m.updateActive(common.SessionChangedMsg{})
	}
	return m.prefetchCompare()
}
