// Package common is what every part of rewardlens' dashboard shares: the
// Common each component is built from, the Component and Tab interfaces,
// the message that the session changed, the styles, and the helpers that
// format numbers and fit text in cells.
package common

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/session"
)

// Common is what every component shares: the size it may draw in, the
// styles, and the session whose data it shows.
type Common struct {
	Width, Height int              // the cells of the whole screen
	Styles        *Styles          // the dashboard's styles, for the terminal's background
	Session       *session.Session // the data shown, owned by the root model
}

// Component is a part of the screen: a tab's body, the header, the footer.
// The root sends tea.WindowSizeMsg and SessionChangedMsg to every tab and
// every other message to the active tab only.
type Component interface {
	help.KeyMap
	Update(msg tea.Msg) (Component, tea.Cmd)
	View() string
	// SetSize gives the component the cells it may draw in.
	SetSize(width, height int)
}

// Tab is a Component shown under a title in the tab bar.
type Tab interface {
	Component
	Title() string
}

// SessionChangedMsg tells every tab that the session's result changed (a
// recompute, another batch, new data): rebuild what is derived from it.
type SessionChangedMsg struct{}
