package ui

import (
	"strings"
	"testing"
)

// TestReaderHomeEnd: reading a trajectory (Trajectories, Pareto and
// Compare tabs) or a completion (Groups tab), end goes to the bottom of the text and home
// back to its top, and ? says so; the Groups tab's help no longer lists
// the hidden table's home and end then.
func TestReaderHomeEnd(t *testing.T) {
	for _, open := range [][]string{{"5", "enter"}, {"2", "enter", "enter"}, {"4", "enter"}, {"7", "enter"}} {
		m := newTestModel(t, 80, 24)
		press(m, open...)
		top := screen(m)
		if !strings.Contains(top, "  0%") {
			t.Fatalf("%v: the reader is not at its top (or its text fits):\n%s", open, top)
		}
		press(m, "end")
		if v := screen(m); !strings.Contains(v, "100%") {
			t.Errorf("%v: end did not go to the bottom of the text:\n%s", open, v)
		}
		press(m, "home")
		if v := screen(m); v != top {
			t.Errorf("%v: home did not go back to the top of the text:\n%s", open, v)
		}
		press(m, "?")
		help := screen(m)
		if !strings.Contains(help, "top/bottom of the text") || strings.Contains(help, "first row") {
			t.Errorf("%v: ? does not say what home/end do in the reader:\n%s", open, help)
		}
	}
}
