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

// TestHelpSaysWhatAClickDoes checks what every tab's help says of a
// click against what a click does: each saying has its check here (a new
// one without a check fails), and the plots of Pareto and Compare, where
// a click selects the nearest point, must say so. "select the nearest
// point": a click on a point's cell moves the selection (◎) there. (The
// help says nothing of the clicks that select a row in Groups and
// Trajectories: TestClickSelectsARow.)
func TestHelpSaysWhatAClickDoes(t *testing.T) {
	checks := map[string]func(t *testing.T, m *Model){
		"click select the nearest point": clickSelectsThePointThere,
	}
	for tab := 1; tab <= 8; tab++ {
		m := newTestModel(t, 120, 40)
		press(m, strconv.Itoa(tab))
		active := m.tabs[m.active]
		var says []string
		for _, group := range append(active.FullHelp(), active.ShortHelp()) {
			for _, b := range group {
				if h := b.Help(); strings.Contains(strings.ToLower(h.Key+" "+h.Desc), "click") && !slices.Contains(says, h.Key+" "+h.Desc) {
					says = append(says, h.Key+" "+h.Desc)
				}
			}
		}
		for _, saying := range says {
			check, ok := checks[saying]
			if !ok {
				t.Errorf("%s: the help says %q of a click, and no check here sees it done", active.Title(), saying)
				continue
			}
			t.Run(active.Title(), func(t *testing.T) { check(t, m) })
		}
		if plot := active.Title() == "Pareto" || active.Title() == "Compare"; plot && !slices.Contains(says, "click select the nearest point") {
			t.Errorf("%s: the help says of a click %q, not that it selects the nearest point", active.Title(), says)
		}
	}
}

// clickSelectsThePointThere clicks, on the screen, cells of the plot
// holding a point (a marker or a dot of another group): the selection (◎)
// moves to each.
func clickSelectsThePointThere(t *testing.T, m *Model) {
	// plot is the screen over the status line, left of the panel; the
	// points are looked for under the title, right of the y axis's labels.
	plot := func() [][]rune {
		var rows [][]rune
		for _, line := range strings.Split(screen(m), "\n")[:m.common.Height-6] {
			row := []rune(line)
			rows = append(rows, row[:min(len(row), 75)])
		}
		return rows
	}
	var points [][2]int
	rows := plot()
	for y := bodyTop + 2; y < len(rows)-1; y++ {
		for x := 6; x < len(rows[y])-1; x++ {
			if strings.ContainsRune("●◆▲▼×⠄", rows[y][x]) {
				points = append(points, [2]int{x, y})
			}
		}
	}
	if len(points) < 3 {
		t.Fatalf("%d points to click on:\n%s", len(points), screen(m))
	}
	// Forty of them at most, spread over the plot, to keep the test quick.
	step := max(len(points)/40, 1)
	for k := 0; k < len(points); k += step {
		at := points[k]
		m.Update(tea.MouseClickMsg{X: at[0], Y: at[1], Button: tea.MouseLeft})
		settle(m)
		if rows := plot(); rows[at[1]][at[0]] != '◎' {
			t.Errorf("a click on the point at %d,%d did not select it", at[0], at[1])
		}
	}
}
