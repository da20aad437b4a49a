package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
)

// showGroup shows msg's batch and makes the GroupShower tab active, with
// its trajectory's group open and the trajectory selected.
func (m *Model) showGroup(msg common.ShowGroupMsg) tea.Cmd {
	cmd := m.moveBatch(msg.Batch - m.common.Session.Batch)
	for k, tab := range m.tabs {
		if shower, ok := tab.(common.GroupShower); ok {
			m.overlay.Open = false
			cmd = tea.Batch(cmd, m.selectTab(k))
			shower.ShowGroup(msg.Trajectory)
			return tea.Batch(cmd, m.takeJob(k))
		}
	}
	return cmd
}
