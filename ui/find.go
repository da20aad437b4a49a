package ui

import tea "charm.land/bubbletea/v2"

// findOwner is a tab whose own search / starts (a filter of its list);
// on the other tabs / finds a trajectory by id on the Trajectories tab.
type findOwner interface {
	OwnsFind() bool
}

// trajectoryFinder is the tab that finds a trajectory by id.
type trajectoryFinder interface {
	find() tea.Cmd
}

// find handles /: the active tab's own search, or the Trajectories tab's
// filter, brought to the front and ready to type in.
func (m *Model) find() (tea.Cmd, bool) {
	if t, ok := m.tabs[m.active].(findOwner); ok && t.OwnsFind() {
		return nil, false
	}
	for i, t := range m.tabs {
		if f, ok := t.(trajectoryFinder); ok {
			cmd := m.selectTab(i)
			return tea.Batch(cmd, f.find()), true
		}
	}
	return nil, false
}

// showBatchMsg asks the root to show batch: the Trajectories filter found
// nothing in the batch on screen, and a trajectory in that one.
type showBatchMsg struct{ batch int }
