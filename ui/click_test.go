package ui

import (
	"regexp"
	"slices"
	"strconv"
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
	want := idAt(m, firstRow+4)
	m.Update(tea.MouseClickMsg{X: 5, Y: firstRow + 4, Button: tea.MouseLeft})
	press(m, "enter")
	if !opened(screen(m), want) {
		t.Errorf("a click on the 5th row of Trajectories and enter do not open %s:\n%s", want, screen(m))
	}
	// The weights line, while shown, pushes the body down a row.
	press(m, "esc", "w")
	want = idAt(m, firstRow+1+6)
	m.Update(tea.MouseClickMsg{X: 5, Y: firstRow + 1 + 6, Button: tea.MouseLeft})
	press(m, "esc", "enter")
	if !opened(screen(m), want) {
		t.Errorf("with the weights line shown, a click on the 7th row of Trajectories and enter do not open %s:\n%s", want, screen(m))
	}
	press(m, "esc")
	press(m, "2")
	m.Update(tea.MouseClickMsg{X: 5, Y: firstRow + 2, Button: tea.MouseLeft})
	press(m, "enter")
	if v := screen(m); !strings.Contains(v, "prompt  p02") {
		t.Errorf("a click on the 3rd group and enter do not open p02:\n%s", v)
	}
}

// idAt returns the first cell of screen row y: the id of the Trajectories
// table's row there.
func idAt(m *Model, y int) string {
	return strings.Fields(strings.Split(screen(m), "\n")[y])[0]
}

// opened reports whether the screen v shows trajectory id opened: its id
// line, then what the engine computed for it.
func opened(v, id string) bool {
	return regexp.MustCompile(`(?m)^\s*id\s+`+regexp.QuoteMeta(id)+`\s*$`).MatchString(v) && strings.Contains(v, "computed (")
}

// TestHelpSaysWhatAClickDoes clicks in the middle of every tab's body and
// checks the tab's help against what the click did: a help that says a
// click opens the trajectory must see it opened, and the plots of Pareto
// and Compare, where a click selects the nearest point, must say so.
func TestHelpSaysWhatAClickDoes(t *testing.T) {
	for tab := 1; tab <= 8; tab++ {
		m := newTestModel(t, 120, 40)
		press(m, strconv.Itoa(tab))
		before := screen(m)
		m.Update(tea.MouseClickMsg{X: 30, Y: 20, Button: tea.MouseLeft})
		settle(m)
		after := screen(m)
		opens := strings.Contains(after, "computed (")
		active := m.tabs[m.active]
		var says []string
		for _, group := range append(active.FullHelp(), active.ShortHelp()) {
			for _, b := range group {
				if h := b.Help(); strings.Contains(h.Key, "click") {
					says = append(says, h.Key+" "+h.Desc)
					if strings.Contains(h.Desc, "open") && !opens {
						t.Errorf("%s: the help says %q, but a click does not open:\n%s", active.Title(), h.Key+" "+h.Desc, after)
					}
				}
			}
		}
		if plot := active.Title() == "Pareto" || active.Title() == "Compare"; plot {
			if after == before || opens {
				t.Errorf("%s: a click on the plot did not select another point (opened %v):\n%s", active.Title(), opens, after)
			}
			if !slices.Contains(says, "click select the nearest point") {
				t.Errorf("%s: the help says of a click %q, not that it selects the nearest point", active.Title(), says)
			}
		}
	}
}
