package common

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ScrollLine joins the parts of a line of items (rendered) that fit in
// room cells, separator between two, the selected one (none when out of
// range) always among them: from the first, or, when the selected one
// would not fit, from the first that lets it. "←N " and " N→" (without
// its space when no part is shown) say how many are left out on either
// side, leftOut their number. A selected one wider than room on its own
// is shown whole, or, with cutSelected, as cutSelected(over), the part
// cut by the over cells it passes room by; cut says it was.
func ScrollLine(st *Styles, parts []string, separator string, selected, room int, cutSelected func(over int) string) (line string, leftOut int, cut bool) {
	widths := make([]int, len(parts))
	for k, p := range parts {
		widths[k] = ansi.StringWidth(p)
	}
	separatorWidth := ansi.StringWidth(separator)
	// span is the cells of parts first..last (first ≤ last) with the
	// markers of those left out.
	span := func(first, last int) int {
		w := (last - first) * separatorWidth
		for k := first; k <= last; k++ {
			w += widths[k]
		}
		if first > 0 {
			w += len(strconv.Itoa(first)) + ansi.StringWidth("← ")
		}
		if left := len(parts) - 1 - last; left > 0 {
			w += len(strconv.Itoa(left)) + ansi.StringWidth(" →")
		}
		return w
	}
	first, last := 0, -1
	if selected >= 0 && selected < len(parts) {
		last = selected
		for first < last && span(first, last) > room {
			first++
		}
	}
	for last+1 < len(parts) && span(first, last+1) <= room {
		last++
	}
	shown := parts[first : last+1]
	if selected >= first && selected <= last && cutSelected != nil {
		if over := span(first, last) - room; over > 0 {
			shown = append([]string(nil), shown...)
			shown[selected-first] = cutSelected(over)
			cut = true
		}
	}
	pieces := make([]string, 0, 3)
	if first > 0 {
		pieces = append(pieces, st.Muted.Render("←"+strconv.Itoa(first)))
	}
	if len(shown) > 0 {
		pieces = append(pieces, strings.Join(shown, separator))
	}
	if left := len(parts) - 1 - last; left > 0 {
		pieces = append(pieces, st.Muted.Render(strconv.Itoa(left)+"→"))
	}
	return strings.Join(pieces, " "), first + len(parts) - 1 - last, cut
}
