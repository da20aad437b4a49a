package ui

import tea "charm.land/bubbletea/v2"

// The root's export commands: each says in the status line what it wrote.

// exportRewards writes the current batch's rewards (e).
func (m *Model) exportRewards() tea.Cmd {
	return m.status.SetNotice(m.common.Session.ExportBatch())
}

// saveSettings saves the current settings (ctrl+s).
func (m *Model) saveSettings() tea.Cmd { return m.status.SetNotice(m.settings.Save(m.common.Session)) }
