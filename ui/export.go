package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// The root's export commands: each says in the status line what it wrote.

// exportRewards writes the current batch's rewards (e).
func (m *Model) exportRewards() tea.Cmd {
	done, err := m.common.Session.ExportBatch()
	if l := m.live; err == nil && l != nil && l.partial && m.common.Session.CurrentBatch().Step == l.partialStep {
		// The step still being written: what the file holds is not the
		// step the trainer trains on.
		done += fmt.Sprintf("; step %d is probably read in part: export it again once the rest comes", l.partialStep)
	}
	return m.status.SetNotice(done, err)
}

// saveSettings saves the current settings (ctrl+s).
func (m *Model) saveSettings() tea.Cmd { return m.status.SetNotice(m.settings.Save(m.common.Session)) }
