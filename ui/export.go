package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// The root's export commands: each says in the status line what it wrote.

// exportedMsg is what an export command wrote (done), or why it wrote
// nothing; partial is said after done.
type exportedMsg struct {
	done, partial string
	err           error
}

// exportRewards starts writing the current batch's rewards (e) off the
// event loop (session.ExportJob), saying so until it lands; while one is
// under way, e says to wait for it.
func (m *Model) exportRewards() tea.Cmd {
	if m.exportNext != nil {
		return m.status.SetInfo("an export is under way: e again once it is written")
	}
	s := m.common.Session
	job := s.ExportJob()
	partial := ""
	if l := m.live; l != nil && l.partial && job.Step() == l.partialStep {
		// The step still being written: what the file holds is not the
		// step the trainer trains on.
		partial = fmt.Sprintf("; step %d is probably read in part: export it again once the rest comes", l.partialStep)
	}
	m.exportNext = func() tea.Msg {
		done, err := job.Run()
		return exportedMsg{done: done, partial: partial, err: err}
	}
	return tea.Batch(m.status.SetInfo(fmt.Sprintf("exporting step %d…", job.Step())), m.exportNext)
}

// exported says what an export command wrote, or why it failed.
func (m *Model) exported(msg exportedMsg) tea.Cmd {
	m.exportNext = nil
	if msg.err != nil {
		return m.status.SetNotice("", msg.err)
	}
	return m.status.SetNotice(msg.done+msg.partial, nil)
}

// saveSettings saves the current settings (ctrl+s).
func (m *Model) saveSettings() tea.Cmd { return m.status.SetNotice(m.settings.Save(m.common.Session)) }
