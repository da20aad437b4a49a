package trajectory

import "github.com/rewardlens/rewardlens/ui/session"

// A Selection is the trajectory a tab's cursor or point is on, kept on it
// when follow mode reads files again: the indices a tab shows are those
// of the run as it was when it listed them, so the tab notes the
// selection's place while they are the session's (Note) and, showing
// rows of the run read again, asks where it is now (Follow), never
// taking whatever trajectory is at its index. The zero Selection is none.
type Selection struct {
	at session.Place
}

// Note notes trajectory i (-1 for none) of the rows a tab shows, of the
// run as read of times again (Session.Reloads when they were listed): only
// while that is the run s holds, whose indices they are.
func (sel *Selection) Note(s *session.Session, i, of int) {
	if of == s.Reloads {
		sel.at = s.PlaceOf(i)
	}
}

// Follow returns the selection's index in rows of the run as read to
// times again, i being its index in the rows of the run as read from
// times: i while no file was read again between, else where s holds the
// trajectory noted now (Session.Find), -1 when it holds it no more.
func (sel *Selection) Follow(s *session.Session, i, from, to int) int {
	if from == to {
		return i
	}
	return s.Find(sel.at)
}
