package trajectory

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// A Selection is the trajectory a tab's cursor or point is on, kept on it
// when follow mode reads files again: the indices a tab shows are those
// of the run as it was when it listed them, so the tab notes the
// selection's place while they are the session's (Note) and, showing
// rows of the run read again, asks where it is now (Follow), never
// taking whatever trajectory is at its index. When the run holds it no
// more, the tab says so (GoneNotice). The zero Selection is none.
type Selection struct {
	at session.Place
	// held says that at is a trajectory's; gone is the place of the one
	// Follow found no more, until GoneNotice says so (nil for none).
	held bool
	gone *session.Place
}

// Note notes trajectory i (-1 for none) of the rows a tab shows, of the
// run as read of times again (Session.Reloads when they were listed): only
// while that is the run s holds, whose indices they are.
func (sel *Selection) Note(s *session.Session, i, of int) {
	if of == s.Reloads {
		sel.at, sel.held = s.PlaceOf(i), i >= 0 && i < s.Trajectories.Len()
	}
}

// Follow returns the selection's index in rows of the run as read to
// times again, i being its index in the rows of the run as read from
// times: i while no file was read again between, else where s holds the
// trajectory noted now (Session.Find), -1 when it holds it no more (then
// GoneNotice says so).
func (sel *Selection) Follow(s *session.Session, i, from, to int) int {
	if from == to {
		return i
	}
	j := s.Find(sel.at)
	if j < 0 && sel.held {
		gone := sel.at
		sel.held, sel.gone = false, &gone
	}
	return j
}

// GoneNotice returns, once, the status line's notice that the trajectory
// selected is gone, the run read again without it (Follow), for the tab
// to return from its Update; nil when it is not, or when opened, the
// tab's reading, had it open and said so itself as it closed it
// (Reading.Follow).
func (sel *Selection) GoneNotice(opened *Reading) tea.Cmd {
	gone := sel.gone
	if gone == nil {
		return nil
	}
	sel.gone = nil
	if opened.Gone() && opened.Opened.at == *gone {
		return nil
	}
	text := "selected trajectory " + textsafe.QuoteShort(gone.ID) + " gone: its file was read again without it"
	return func() tea.Msg { return common.NoticeMsg{Text: text} }
}
