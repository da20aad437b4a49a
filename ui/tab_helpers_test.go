package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
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

// optionChange is a switch of the session's options, named for a failure
// message.
type optionChange struct {
	name string
	set  func(o *engine.Options)
}

// Switches the tests make: to a method, to the other scope, and of the
// first objective's weight, times 40.
func methodChange(m engine.Method) optionChange {
	return optionChange{"method " + string(m), func(o *engine.Options) { o.Method = m }}
}

func scopeChange(scope engine.Scope) optionChange {
	return optionChange{"scope " + string(scope), func(o *engine.Options) { o.Scope = scope }}
}

var weightChange = optionChange{"weights", func(o *engine.Options) {
	o.Weights = append([]float64{o.Weights[0] * 40}, o.Weights[1:]...)
}}

// everyMethod is a switch to each method in turn.
func everyMethod() []optionChange {
	var changes []optionChange
	for _, m := range engine.Methods {
		changes = append(changes, methodChange(m))
	}
	return changes
}

// switchOptions makes change on s (its weights made explicit first) and
// shows the recomputed result on tab, as the root model does; it returns
// the tab newTab builds on a session that open returns, opened on the
// options s now has: what tab must show.
func switchOptions(t *testing.T, tab common.Tab, s *session.Session, change optionChange,
	open func(testing.TB) *session.Session, newTab func(*common.Common) common.Tab) common.Tab {
	t.Helper()
	s.Options.Weights = s.Weights()
	change.set(&s.Options)
	s.Recompute()
	tab.Update(common.SessionChangedMsg{})
	opened := open(t)
	opened.Options = s.Options
	opened.Recompute()
	return newTabOn(opened, newTab)
}
