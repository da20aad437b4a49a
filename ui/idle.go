package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
)

// refreshIdleTabs tells the tabs that refresh when idle
// (common.IdleRefresher) and missed the session's last change that it
// changed, when the background work of a result starts (background.go),
// no recompute under way: their work runs off the event loop beside the
// health's, done or under way before they are shown, and before the
// Compare tab's prefetch, which waits for the health. Not while
// following, where every update would start it again for a tab perhaps
// never shown.
func (m *Model) refreshIdleTabs() tea.Cmd {
	if m.rc.next != nil || m.live != nil {
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
