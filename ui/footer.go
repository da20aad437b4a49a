package ui

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// footerKeys returns the keys the footer shows in width cells: keep (the
// help and quit keys) always, at the end, and before them each of keys,
// in order, that still fits with those chosen so far, so that the lesser
// hints, last in keys, are the ones dropped.
func footerKeys(h help.Model, keys, keep []key.Binding, width int) []key.Binding {
	h.SetWidth(0) // measure whole; the choice does the fitting
	var chosen []key.Binding
	for _, k := range keys {
		if !k.Enabled() || isKept(k, keep) {
			continue
		}
		candidate := append(append(append([]key.Binding(nil), chosen...), k), keep...)
		if lipgloss.Width(h.ShortHelpView(candidate)) <= width {
			chosen = append(chosen, k)
		}
	}
	return append(chosen, keep...)
}

// footerDrawn is a footer (helpView) and what it was drawn from: the keys
// offered (helpKeys' short and keep), the screen's width and the
// background (the help's styles). Choosing the keys that fit draws the
// help once per key offered, a large share of a frame; the footer is
// drawn again only when one of those changed (another tab, a tab's keys
// enabled, typing, follow paused, a resize).
type footerDrawn struct {
	short, keep []key.Binding
	width       int
	dark, drawn bool
	view        string
}

// sameBindings reports whether a and b are the same keys, each with the
// same help and enabled alike: what the footer shows of them.
func sameBindings(a, b []key.Binding) bool {
	return slices.EqualFunc(a, b, func(x, y key.Binding) bool {
		return x.Enabled() == y.Enabled() && x.Help() == y.Help() && slices.Equal(x.Keys(), y.Keys())
	})
}

// isKept reports whether k is one of keep (the same keys).
func isKept(k key.Binding, keep []key.Binding) bool {
	for _, c := range keep {
		if len(c.Keys()) > 0 && len(k.Keys()) > 0 && c.Keys()[0] == k.Keys()[0] {
			return true
		}
	}
	return false
}

// fixedKeyMap is a help.KeyMap of keys already chosen.
type fixedKeyMap struct {
	short []key.Binding
	full  help.KeyMap
}

func (f fixedKeyMap) ShortHelp() []key.Binding  { return f.short }
func (f fixedKeyMap) FullHelp() [][]key.Binding { return f.full.FullHelp() }
