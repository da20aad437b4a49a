package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
)

// refreshIdleTabs tells the tabs that refresh when idle
// (common.IdleRefresher) and missed the session's last change that it
// changed, once the health of the result shown is computed with no
// recompute under way, beside the Compare tab's prefetch (prefetch.go):
// their work, off the event loop, is done or under way before they are
// shown. Not while following, where every update would start it again
// for a tab perhaps never shown.
func (m *Model) refreshIdleTabs() tea.Cmd {
	if !m.common.Session.HealthReady() || m.rc.next != nil || m.live != nil {
		return nil
	}
	var cmds []tea.Cmd
	for i, tab := range m.tabs {
		if r, ok := tab.(common.IdleRefresher); ok && r.RefreshesWhenIdle() && m.stale[i] {
			m.stale[i] = false
			cmds = append(cmds, m.updateTab(i, common.SessionChangedMsg{}))
		}
	}
	return tea.Batch(cmds...)
}
