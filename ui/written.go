package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// What compute --filter-groups writes as a dropped trajectory's score,
// rank and crowding (session.Written) comes from the run without the
// filter computed with the options of the result shown: a pass over the
// whole run, so a command of its own computes it off the event loop,
// started once a tab shown shows a dropped trajectory's (a
// common.WrittenShower: the Trajectories tab of a batch with one, a
// dropped group open) and the session has a result with the filter on
// that it is not computed for (a toggle, a recompute, a followed update):
// Update asks after every message, so a followed update with none on
// screen starts nothing. Until it lands the Groups and Trajectories tabs
// mark those cells pending; when it lands it is kept unless the result
// shown changed meanwhile, and then one more starts, for that result.

// writtenMsg is what a written command computed.
type writtenMsg struct{ written *session.Written }

// writtenScores starts the command that computes what compute writes for
// the result shown, unless the session has it or needs none, the tab
// shown shows none of it (showsWritten), or one is under way (writtenDone
// then starts the next).
func (m *Model) writtenScores() tea.Cmd {
	if m.writtenNext != nil || !m.common.Session.WrittenPending() || !m.showsWritten() {
		return nil
	}
	job := m.common.Session.WrittenJob() // not nil: pending
	m.writtenNext = func() tea.Msg { return writtenMsg{job.Run()} }
	return m.writtenNext
}

// showsWritten reports whether the tab shown shows a dropped trajectory's
// written value (common.WrittenShower).
func (m *Model) showsWritten() bool {
	t, ok := m.tabs[m.active].(common.WrittenShower)
	return ok && t.ShowsWritten()
}

// writtenDone keeps what a command computed when it is of the result
// shown, telling the tabs, and starts the command for the result shown
// when it is not.
func (m *Model) writtenDone(msg writtenMsg) tea.Cmd {
	m.writtenNext = nil
	var cmd tea.Cmd
	if m.common.Session.SetWritten(msg.written) {
		cmd = m.sessionChangedTabs()
	}
	return tea.Batch(cmd, m.writtenScores())
}
