package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/session"
)

// The layout's warnings (session.LayoutNotes) scan the whole run, so they
// are computed off the event loop: by the command that makes the result
// they are of (a recompute, the group filter's toggle, the load), handed
// over with it, and only when the evaluation, the options they read or,
// following, the unfinished lines left out changed (a method switch of a layout whose warnings read no method
// costs nothing). A result made on the event loop (a followed update) has
// them from a command of their own, started when it is shown: until it
// lands the status line keeps those before, said to be of the rows they
// were scanned of, and when it lands they are shown, unless the result
// shown changed meanwhile to one that is not a later update of theirs
// (session.SetLayoutNotes): a run that grows faster than a scan has its
// warnings of an overtaken update shown, so marked, as they land; then
// one more starts, for the result shown.

// layoutNotesMsg is the layout's warnings a layoutNotes command computed.
type layoutNotesMsg struct{ notes *session.LayoutNotes }

// layoutNotes starts the command that computes the layout's warnings of
// the result shown, unless the session has them or one is under way
// (layoutNotesDone then starts the next).
func (m *Model) layoutNotes() tea.Cmd {
	s := m.common.Session
	if m.layoutNext != nil || s.LayoutNotesHold() {
		return nil
	}
	job, res := s.LayoutNotesJob(), s.Result
	m.layoutNext = func() tea.Msg { return layoutNotesMsg{job.Of(res)} }
	return m.layoutNext
}

// layoutNotesDone shows the warnings a command computed when they hold
// for the result shown or for an update it extends (SetLayoutNotes), and
// starts the command for that result when they do not hold for it.
func (m *Model) layoutNotesDone(msg layoutNotesMsg) tea.Cmd {
	m.layoutNext = nil
	s := m.common.Session
	if s.SetLayoutNotes(msg.notes) {
		m.status.Refresh(s)
	}
	return m.layoutNotes()
}
