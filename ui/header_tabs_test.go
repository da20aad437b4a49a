package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
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
