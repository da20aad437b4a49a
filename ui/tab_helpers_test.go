package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// newSampleTab returns the tab newTab builds on the sample session, set up
// as the root model sets it up at 120x40, without colour.
func newSampleTab(tb testing.TB, newTab func(*common.Common) common.Tab) (common.Tab, *session.Session) {
	tb.Helper()
	s := newSampleSession(tb)
	return newTabOn(s, newTab), s
}

// newTabOn returns the tab newTab builds on s, set up as the root model
// sets it up at 120x40, without colour.
func newTabOn(s *session.Session, newTab func(*common.Common) common.Tab) common.Tab {
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	tab := newTab(c)
	tab.SetSize(120, 40)
	tab.Update(common.SessionChangedMsg{})
	return tab
}

// pressKeys sends the keys to tab and returns the commands it asked for.
func pressKeys(tab common.Tab, keys ...string) []tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range keys {
		if _, cmd := tab.Update(keyPress(k)); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	return cmds
}

// showBatch makes batch bi the session's current one, as [ and ] do.
func showBatch(tab common.Tab, s *session.Session, bi int) {
	s.Batch = bi
	tab.Update(common.SessionChangedMsg{})
}

// plain returns what tab shows, without the bold and reverse video of
// the no-colour styles.
func plain(tab common.Tab) string { return ansi.Strip(tab.View()) }
