package trajectory

import (
	"charm.land/bubbles/v2/viewport"
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

// A Change is what a read landing or a change of the session did to the
// opened trajectory, for the tab to show.
type Change int

const (
	// Same: nothing to draw again.
	Same Change = iota
	// Changed: draw it again (read, found again, computed again).
	Changed
	// Closed: the tab goes back from it. The run holds it no more
	// (Gone), or it left what the tab shows (Keep).
	Closed
)

// Done takes a read that landed: the trajectory read (Changed), or, when
// the run was read again since (s.Reloads), the same one found again, or
// closed (Follow: gone is then the notice that says so). The read of one
// opened before or closed since changes nothing (Same).
func (r *Reading) Done(s *session.Session, msg ReadMsg) (c Change, gone tea.Cmd) {
	switch {
	case msg.opens != r.opens:
		return Same, nil
	case r.reloads != s.Reloads:
		return r.Follow(s)
	}
	r.Opened = msg.opened
	return Changed, nil
}

// Follow brings the opened trajectory along after s changed: it stays
// where it is (Same) unless it moved or the run was read again since it
// was started (s.Reloads), when it is started again where it is now
// (Find: Changed). When s holds it no more it is Closed (Gone), and gone
// is the status line's notice that says so, once. Never is another
// trajectory at its index opened.
func (r *Reading) Follow(s *session.Session) (c Change, gone tea.Cmd) {
	if r.Gone() {
		return Same, nil
	}
	switch i := s.Find(r.Opened.at); {
	case i < 0:
		r.Close()
		r.Opened.I = -1
		return Closed, r.goneNotice()
	case i != r.Opened.I || r.reloads != s.Reloads:
		r.Start(s, i)
		return Changed, nil
	}
	return Same, nil
}

// Keep follows the opened trajectory after s changed (Follow): Changed,
// to be drawn with what s computed now, while s holds it and shown, what
// the tab shows (its batch, its comparison), has it; else Closed, gone
// saying so when s holds it no more.
func (r *Reading) Keep(s *session.Session, shown func(i int) bool) (c Change, gone tea.Cmd) {
	if _, gone = r.Follow(s); r.Gone() || !shown(r.Opened.I) {
		return Closed, gone
	}
	return Changed, nil
}

// Show shows what change did to r's trajectory (Done, Follow, Keep), which
// a tab draws in detail at width: drawn again when Changed; when Closed,
// back takes the tab back from it. It returns gone, the notice that the
// run holds it no more.
func (r *Reading) Show(c *common.Common, detail *viewport.Model, width int, back func(), change Change, gone tea.Cmd) tea.Cmd {
	switch change {
	case Closed:
		back()
	case Changed:
		detail.SetContent(Detail(c, &r.Opened, width))
	}
	return gone
}

// Gone reports whether Follow closed the opened trajectory: s holds it no
// more (Opened.Full is what was read of it).
func (r *Reading) Gone() bool { return r.Opened.I < 0 }

// goneNotice asks for the status line's note that the opened trajectory
// was closed (Gone): the run read again holds it no more.
func (r *Reading) goneNotice() tea.Cmd {
	text := "trajectory " + textsafe.QuoteShort(r.Opened.Full.ID) + " closed: its file was read again without it"
	return func() tea.Msg { return common.NoticeMsg{Text: text} }
}
