package common

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// PairHelp returns b (enabled as it is) under the help of a pair of keys,
// or under a shorter help.
func PairHelp(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// ReaderEndsKey is a reader's home and end (ScrollReader), for a tab's
// help while it reads: the viewport has no such keys of its own. opts
// add to it (key.WithDisabled for a reader closed at first).
func ReaderEndsKey(opts ...key.BindingOpt) key.Binding {
	return key.NewBinding(append([]key.BindingOpt{key.WithKeys("home", "end"), key.WithHelp("home/end", "top/bottom of the text")}, opts...)...)
}

// ScrollReader scrolls reader, the text of an opened trajectory, by msg:
// home and end go to the text's top and bottom, the other keys are the
// viewport's.
func ScrollReader(reader *viewport.Model, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "home":
		reader.GotoTop()
		return nil
	case "end":
		reader.GotoBottom()
		return nil
	}
	var cmd tea.Cmd
	*reader, cmd = reader.Update(msg)
	return cmd
}
