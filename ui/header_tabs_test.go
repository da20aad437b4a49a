package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// goalsAtEnd is the objectives' goals that end the tab bar, when it
// shows them ("accuracy ↑ safety ↑ length ↓", "acc… ↑ …").
var goalsAtEnd = regexp.MustCompile(`(\S+ [↑↓] ?)+$`)

// TestHeaderSameOnEveryTab: at every width the header and the goals the
// tab bar ends with are the same whichever tab is shown: the tab shown
// keeps its whole title, the bar is longer on some tabs, and nothing
// should come or go as one changes tabs.
func TestHeaderSameOnEveryTab(t *testing.T) {
	for width := 60; width <= 130; width += 2 {
		m := newTestModel(t, width, 30)
		var first string
		for tab := 1; tab <= len(m.tabs); tab++ {
			press(m, fmt.Sprint(tab))
			lines := strings.SplitN(screen(m), "\n", 3)
			top := strings.TrimRight(lines[0], " ") + "\n" + goalsAtEnd.FindString(strings.TrimRight(lines[1], " "))
			if tab == 1 {
				first = top
			} else if top != first {
				t.Errorf("%d columns: tab %d's header and goals differ from tab 1's:\n%s\nwant\n%s", width, tab, top, first)
			}
		}
	}
}

// TestWidestTabBarMeasuredPerWidth: the widest tab bar, whose room the
// goals get, is measured once per screen width, not for every frame: a
// frame at the same width keeps it; at another width it is measured
// again, as a dashboard opened at that width measures it, and the screen
// is that dashboard's.
func TestWidestTabBarMeasuredPerWidth(t *testing.T) {
	m := newTestModel(t, 120, 40)
	_ = screen(m)
	m.tabBarWidest.cells = -1 // no measure gives it
	m.frameValid = false
	_ = screen(m)
	if got := m.widestTabBar(); got != -1 {
		t.Errorf("a frame at the same width measured the widest tab bar again (%d)", got)
	}
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		settle(m)
		fresh := newTestModel(t, size[0], size[1])
		if got, want := m.widestTabBar(), fresh.widestTabBar(); got != want {
			t.Errorf("%dx%d: widest tab bar %d, want %d", size[0], size[1], got, want)
		}
		if got, want := screen(m), screen(fresh); got != want {
			t.Errorf("%dx%d: the screen resized differs from one opened at that size:\n%s\nwant:\n%s", size[0], size[1], got, want)
		}
	}
}
