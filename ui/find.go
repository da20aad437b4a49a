package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
)

// find handles /: the active tab's own search, or the Trajectories tab's
// filter, brought to the front and ready to type in.
func (m *Model) find() (tea.Cmd, bool) {
	if t, ok := m.tabs[m.active].(common.FindOwner); ok && t.OwnsFind() {
		return nil, false
	}
	for i, t := range m.tabs {
		if f, ok := t.(common.TrajectoryFinder); ok {
			cmd := m.selectTab(i)
			return tea.Batch(cmd, f.Find()), true
		}
	}
	return nil, false
}
