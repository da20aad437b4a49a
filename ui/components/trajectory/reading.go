package trajectory

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// Reading is the trajectory a tab has open and its read again from the
// file off the event loop (Begin): the tab hands Job out as its
// common.Worker job and gives the ReadMsg that lands to Done. The
// openings are numbered, so that the read of one opened before, or
// closed since (Close), is dropped when it lands.
type Reading struct {
	Opened Opened
	opens  uint64
	// reloads is the session's Reloads when Opened was started: what was
	// read of it before the run was read again is read again (Follow).
	reloads int
	pending func() tea.Msg
}

// ReadMsg is an opened trajectory read again off the event loop (a
// Reading's job), for the tab to hand to Reading.Done.
type ReadMsg struct {
	opens  uint64
	opened Opened
}

// Start opens trajectory i of s (Begin), numbered anew; the read of a
// lean one is the job Job hands out next, and Opened says it is being
// read until Done takes it.
func (r *Reading) Start(s *session.Session, i int) {
	r.opens++
	r.reloads = s.Reloads
	var read func() Opened
	r.Opened, read = Begin(s, i)
	r.pending = nil
	if read != nil {
		msg := ReadMsg{opens: r.opens}
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
// same one found again, or closed (closed: Follow). The read of one
// opened before or closed since changes nothing.
func (r *Reading) Done(s *session.Session, msg ReadMsg) (changed, closed bool) {
	switch {
	case msg.opens != r.opens:
		return false, false
	case r.reloads != s.Reloads:
		return r.Follow(s)
	}
	r.Opened = msg.opened
	return true, false
}

// Follow brings the opened trajectory along after s changed: it stays
// where it is (changed false) unless it moved or the run was read again
// since it was started (s.Reloads), when it is started again where it is
// now (Find). When s holds it no more it is closed (Gone), and closed
// says so, once. Never is another trajectory at its index opened.
func (r *Reading) Follow(s *session.Session) (changed, closed bool) {
	if r.Gone() {
		return false, false
	}
	switch i := r.Opened.Find(s); {
	case i < 0:
		r.Close()
		r.Opened.I = -1
		return true, true
	case i != r.Opened.I || r.reloads != s.Reloads:
		r.Start(s, i)
		return true, false
	}
	return false, false
}

// Gone reports whether Follow closed the opened trajectory: s holds it no
// more (Opened.Full is what was read of it).
func (r *Reading) Gone() bool { return r.Opened.I < 0 }

// GoneNotice asks for the status line's note that the opened trajectory
// was closed (Gone): the run read again holds it no more.
func (r *Reading) GoneNotice() tea.Cmd {
	text := "trajectory " + textsafe.QuoteShort(r.Opened.Full.ID) + " closed: its file was read again without it"
	return func() tea.Msg { return common.NoticeMsg{Text: text} }
}
