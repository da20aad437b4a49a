package common

import (
	"strconv"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestScrollLine: the parts shown are as many as fit the room in cells,
// separators and markers counted, from the first or from the first that
// keeps the selected one; "N→" alone when none fits; a selected one wider
// than the room alone is shown whole, or cut by what it passes the room
// by when the caller cuts it.
func TestScrollLine(t *testing.T) {
	st := NewStyles(true, true)
	parts := []string{"aa", "bbb", "c", "dddd"}
	cutSelected := func(over int) string { return "<" + strconv.Itoa(over) + ">" }
	for _, c := range []struct {
		name           string
		parts          []string
		selected, room int
		cuts           bool
		want           string
		leftOut        int
		cut            bool
	}{
		{"all fit", parts, 0, 100, false, "aa · bbb · c · dddd", 0, false},
		{"from the first", parts, 0, 10, false, "aa 3→", 3, false},
		{"to the selected", parts, 2, 14, false, "←1 bbb · c 1→", 2, false},
		{"exactly", parts, 3, 7, false, "←3 dddd", 3, false},
		{"none selected, none fits", parts, -1, 2, false, "4→", 4, false},
		{"selected too wide, whole", parts, 3, 3, false, "←3 dddd", 3, false},
		{"selected too wide, cut", parts, 3, 3, true, "←3 <4>", 3, true},
		{"selected fits, not cut", parts, 3, 7, true, "←3 dddd", 3, false},
		{"no parts", nil, 0, 10, true, "", 0, false},
	} {
		var cutter func(int) string
		if c.cuts {
			cutter = cutSelected
		}
		line, leftOut, cut := ScrollLine(st, c.parts, " · ", c.selected, c.room, cutter)
		if got := ansi.Strip(line); got != c.want || leftOut != c.leftOut || cut != c.cut {
			t.Errorf("%s: %q, %d left out, cut %v; want %q, %d, %v", c.name, got, leftOut, cut, c.want, c.leftOut, c.cut)
		}
		if !c.cut && c.name != "selected too wide, whole" && ansi.StringWidth(line) > c.room {
			t.Errorf("%s: %q is wider than %d", c.name, ansi.Strip(line), c.room)
		}
	}
}
