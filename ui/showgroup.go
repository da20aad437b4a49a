package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
)

// showGroup makes the GroupShower tab active, with trajectory i's group
// open and i selected.
func (m *Model) showGroup(i int) tea.Cmd {
	for k, tab := range m.tabs {
		if shower, ok := tab.(common.GroupShower); ok {
			m.overlay.open = false
			cmd := m.selectTab(k)
			shower.ShowGroup(i)
			return cmd
		}
	}
	return nil
}
