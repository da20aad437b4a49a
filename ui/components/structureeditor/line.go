package structureeditor

import (
	"fmt"
	"strconv"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
)

// itemSeparator joins the constraints, and the gates, on the line.
const itemSeparator = " · "

// structureLine is the line of constraints, gates and lambda, then what
// the keys do or what is being done, fitted to width: the labels (their
// keys c, a and p) and lambda are always shown, and the constraints and
// gates scroll (listWindow) to keep the selected one on screen, "←N" and
// "N→" counting those left out; where the keys' hint leaves the
// selected one no room, it shortens to "? for keys" (the help lists
// them), as the saying that trajectories are read again does to
// "rereading…". A selected one wider than the line on its own is cut, in
// its brackets.
func (e *Editor) structureLine(c *common.Common, width int, following bool) string {
	st := c.Styles
	s := c.Session
	constraints, gates := e.lists(s)
	items := len(constraints) + len(gates)
	// tails are what ends the line, the first whose room keeps the
	// selected item whole taken.
	var tails []string
	switch {
	case e.job != nil && e.job.Rereads > 0:
		tails = []string{fmt.Sprintf("reading %d trajectories again from their files for the fields they need…", e.job.Rereads), "rereading…"}
	case e.job != nil:
		tails = []string{"evaluating…"}
	case following && items > 0:
		tails = []string{"fixed while following"}
	case e.Selects(s):
		tails = []string{"←/→ select · enter edit · x remove", "? for keys"}
	case items > 0: // enter and x work on a selected one only (the help says the same)
		tails = []string{"←/→ select", "? for keys"}
	default:
		tails = []string{""}
	}
	tailStyle := st.Muted
	if e.job != nil {
		tailStyle = st.Warning
	}
	constraintsLabel, gatesLabel := "constraints (c)", "gates (a)"
	if following {
		constraintsLabel, gatesLabel = "constraints", "gates"
	}
	penalty := st.Label.Render("λ (p)") + " " + st.Value.Render(strconv.FormatFloat(s.Options.Penalty, 'g', 4, 64))
	// fixed is the cells of the labels and lambda with the spaces
	// around the lists: all of the line but the lists and the tail.
	fixed := ansi.StringWidth(constraintsLabel+" ") + ansi.StringWidth("  "+gatesLabel+" ") + ansi.StringWidth("  "+penalty)

	// The list holding the selected item (the constraints when none is)
	// is fitted first, leaving the other the least it shows ("none",
	// "N→").
	first, second := constraints, gates
	firstSelected := e.selected
	swapped := e.selected >= len(constraints) && e.selected < items
	if swapped {
		first, second = gates, constraints
		firstSelected = e.selected - len(constraints)
	} else if e.selected < 0 || e.selected >= items {
		firstSelected = -1
	}
	_, leastOfSecond, _ := listWindow(st, second, -1, 0)
	var tail, firstLine, secondLine string
	for _, tail = range tails {
		room := width - fixed
		if tail != "" {
			room -= 2 + ansi.StringWidth(tail)
		}
		var firstWidth int
		var cut bool
		firstLine, firstWidth, cut = listWindow(st, first, firstSelected, room-leastOfSecond)
		secondLine, _, _ = listWindow(st, second, -1, room-firstWidth)
		if !cut {
			break
		}
	}
	constraintsLine, gatesLine := firstLine, secondLine
	if swapped {
		constraintsLine, gatesLine = secondLine, firstLine
	}
	line := st.Label.Render(constraintsLabel) + " " + constraintsLine + "  " +
		st.Label.Render(gatesLabel) + " " + gatesLine + "  " + penalty
	if tail != "" {
		line += "  " + tailStyle.Render(tail)
	}
	return line
}

// listWindow renders the items (constraints or gates, text from data)
// that fit in room cells, joined by itemSeparator, the selected one
// (none when out of range) in brackets and always among them, scrolled
// as common.ScrollLine scrolls them; "none" when there are none. cut says
// the selected one, alone, was wider than room and is cut to it
// ("[safety + cor…]"); width is the window's cells.
func listWindow(st *common.Styles, items []string, selected, room int) (line string, width int, cut bool) {
	if len(items) == 0 {
		return st.Muted.Render("none"), ansi.StringWidth("none"), false
	}
	parts := make([]string, len(items))
	for k, item := range items {
		if k == selected {
			parts[k] = st.Selected.Render("[" + textsafe.Line(item) + "]")
		} else {
			parts[k] = st.Value.Render(textsafe.Line(item))
		}
	}
	cutSelected := func(over int) string {
		text := textsafe.Line(items[selected])
		return st.Selected.Render("[" + ansi.Truncate(text, max(ansi.StringWidth(text)-over, 1), "…") + "]")
	}
	line, _, cut = common.ScrollLine(st, parts, st.Muted.Render(itemSeparator), selected, room, cutSelected)
	return line, ansi.StringWidth(line), cut
}
