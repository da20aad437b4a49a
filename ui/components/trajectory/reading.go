package trajectory

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/session"
)

// Reading is the trajectory a tab has open and its read again from the
// file off the event loop (Begin): the tab hands Job out as its
// common.Worker job and gives the ReadMsg that lands to Done. The
// openings are numbered, so that the read of one opened before, or
// closed since (Close), is dropped when it lands.
type Reading struct {
	Opened  Opened
	opens   uint64
	pending func() tea.Msg
}

// ReadMsg is an opened trajectory read again off the event loop (a
// Reading's job), for the tab to hand to Reading.Done.
type ReadMsg struct {
	opens   uint64
	reloads int
	opened  Opened
}

// Start opens trajectory i of s (Begin), numbered anew; the read of a
// lean one is the job Job hands out next, and Opened says it is being
// read until Done takes it.
func (r *Reading) Start(s *session.Session, i int) {
	r.opens++
	var read func() Opened
	r.Opened, read = Begin(s, i)
	r.pending = nil
	if read != nil {
		msg := ReadMsg{opens: r.opens, reloads: s.Reloads}
		r.pending = func() tea.Msg {
			msg.opened = read()
			return msg
		}
	}
}

// Job returns the read of the opened trajectory, once; nil when there is
// none.
func (r *Reading) Job() func() tea.Msg {
	job := r.pending
	r.pending = nil
	return job
}

// Close drops the read of the opened trajectory: not handed out, it never
// runs; under way, what it reads is dropped when it lands.
func (r *Reading) Close() {
	r.opens++
	r.pending = nil
}

// Done takes a read that landed and reports whether Opened changed: the
// trajectory read, or, when the run was read again since (s.Reloads), the
// same one started again (its new read the next Job). The read of one
// opened before or closed since changes nothing.
func (r *Reading) Done(s *session.Session, msg ReadMsg) bool {
	switch {
	case msg.opens != r.opens:
		return false
	case msg.reloads != s.Reloads:
		r.Start(s, r.Opened.I)
	default:
		r.Opened = msg.opened
	}
	return true
}
