package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestClickSelectsARow clicks rows of the Trajectories and Groups tabs
// through the root model, with the screen's coordinates.
func TestClickSelectsARow(t *testing.T) {
	m := newTestModel(t, 120, 40)
	// The header, the tab bar, the tab's status line and the table's
	// header come before the first row.
	firstRow := bodyTop + 2
	press(m, "5")
	m.Update(tea.MouseClickMsg{X: 5, Y: firstRow + 4, Button: tea.MouseLeft})
	if got := m.tabs[4].(*trajectoriesTab).table.Cursor(); got != 4 {
		t.Errorf("a click on the 5th row of Trajectories selected row %d", got)
	}
	press(m, "enter")
	tab := m.tabs[4].(*trajectoriesTab)
	if want := m.Session().Trajectories.At(tab.list.rows[4]).ID; !strings.Contains(screen(m), want) || tab.mode != reading {
		t.Errorf("enter after the click does not open %s", want)
	}
	// The weights line, while shown, pushes the body down a row.
	press(m, "esc", "w")
	m.Update(tea.MouseClickMsg{X: 5, Y: firstRow + 1 + 6, Button: tea.MouseLeft})
	if got := m.tabs[4].(*trajectoriesTab).table.Cursor(); got != 6 {
		t.Errorf("with the weights line shown, a click on the 7th row of Trajectories selected row %d", got)
	}
	press(m, "esc")
	press(m, "2")
	m.Update(tea.MouseClickMsg{X: 5, Y: firstRow + 2, Button: tea.MouseLeft})
	press(m, "enter")
	if v := screen(m); !strings.Contains(v, "prompt  p02") {
		t.Errorf("a click on the 3rd group and enter do not open p02:\n%s", v)
	}
}
