package ui

import (
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
)

// dataColumn is one column of a dataTable.
type dataColumn struct {
	title string
	// number columns are right-aligned and never cut: their width must
	// hold their widest cell (numberFormat.width gives it).
	number bool
	// width is the column's width in cells, from its content; a text
	// column's cells are cut to it with an ellipsis.
	width int
	// cell returns row j's text, safe to print (textsafe), on one line.
	cell func(j int) string
}

// columnGap is the space between two columns.
const columnGap = "  "

// wheelRows is how many rows a notch of the mouse wheel moves the table.
const wheelRows = 3

// dataTable draws rows that it asks its columns for, only those on screen:
// a table of a million rows costs what its visible ones cost. Numbers are
// right-aligned, text is cut with an ellipsis; when the columns are wider
// than the screen, left/right scroll those after the frozen ones sideways.
// A mouse click selects a row.
type dataTable struct {
	styles  *common.Styles
	keys    dataTableKeyMap
	columns []dataColumn
	// frozen is how many leading columns stay on screen when scrolling.
	frozen int
	rows   int
	// cursor is the selected row; top the first row on screen; left the
	// first scrolling column on screen.
	cursor, top, left int
	width, height     int // height counts the header row
	// noSelection draws no row selected: a summary's table.
	noSelection bool
}

type dataTableKeyMap struct {
	Up, Down, PageUp, PageDown, Home, End, Left, Right key.Binding
}

func newDataTableKeyMap() dataTableKeyMap {
	return dataTableKeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
		Home:     key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first row")),
		End:      key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last row")),
		Left:     key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "scroll columns")),
		Right:    key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "scroll columns right")),
	}
}

func newDataTable(st *common.Styles) dataTable {
	return dataTable{styles: st, keys: newDataTableKeyMap()}
}

// setColumns replaces the columns, frozen of them staying on screen.
func (t *dataTable) setColumns(cols []dataColumn, frozen int) {
	t.columns, t.frozen = cols, min(frozen, len(cols))
	t.left = min(t.left, t.maxLeft())
}

// setRows sets the number of rows, keeping the cursor within them.
func (t *dataTable) setRows(n int) {
	t.rows = n
	t.setCursor(t.cursor)
}

func (t *dataTable) setSize(width, height int) {
	t.width, t.height = width, height
	t.left = min(t.left, t.maxLeft())
	t.setCursor(t.cursor)
}

// pageRows is how many rows fit under the header.
func (t *dataTable) pageRows() int { return max(t.height-1, 1) }

// setCursor selects row j (clamped) and scrolls it into view.
func (t *dataTable) setCursor(j int) {
	t.cursor = max(min(j, t.rows-1), 0)
	page := t.pageRows()
	if t.cursor < t.top {
		t.top = t.cursor
	}
	if t.cursor >= t.top+page {
		t.top = t.cursor - page + 1
	}
	t.top = max(min(t.top, t.rows-page), 0)
}

// update moves the cursor or the columns for a key or a mouse message;
// it reports whether it used msg.
func (t *dataTable) update(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := t.keys
		switch {
		case key.Matches(msg, k.Up):
			t.setCursor(t.cursor - 1)
		case key.Matches(msg, k.Down):
			t.setCursor(t.cursor + 1)
		case key.Matches(msg, k.PageUp):
			t.setCursor(t.cursor - t.pageRows())
		case key.Matches(msg, k.PageDown):
			t.setCursor(t.cursor + t.pageRows())
		case key.Matches(msg, k.Home):
			t.setCursor(0)
		case key.Matches(msg, k.End):
			t.setCursor(t.rows - 1)
		case key.Matches(msg, k.Left):
			t.left = max(t.left-1, 0)
		case key.Matches(msg, k.Right):
			t.left = min(t.left+1, t.maxLeft())
		default:
			return false
		}
		return true
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			t.setCursor(t.cursor - wheelRows)
		case tea.MouseWheelDown:
			t.setCursor(t.cursor + wheelRows)
		case tea.MouseWheelLeft:
			t.left = max(t.left-1, 0)
		case tea.MouseWheelRight:
			t.left = min(t.left+1, t.maxLeft())
		default:
			return false
		}
		return true
	}
	return false
}

// click selects the row drawn at line y of the table (0 is the header);
// it reports whether there was one.
func (t *dataTable) click(y int) bool {
	j := t.top + y - 1
	if y < 1 || j >= t.rows || j-t.top >= t.pageRows() {
		return false
	}
	t.setCursor(j)
	return true
}

// visible returns the columns on screen, in order, and the width the
// last may take when it is text cut short (0: its own).
func (t *dataTable) visible() (cols []int, lastWidth int) {
	used := 0
	add := func(c int) bool {
		w := t.columns[c].width
		if len(cols) > 0 {
			w += len(columnGap)
		}
		if used+w > t.width {
			room := t.width - used - (w - t.columns[c].width)
			if !t.columns[c].number && room >= 4 {
				cols, lastWidth = append(cols, c), room
			}
			used = t.width
			return false
		}
		cols, used = append(cols, c), used+w
		return true
	}
	for c := range t.frozen {
		if !add(c) {
			return cols, lastWidth
		}
	}
	for c := t.frozen + t.left; c < len(t.columns); c++ {
		if !add(c) {
			break
		}
	}
	return cols, lastWidth
}

// maxLeft is the largest sideways scroll that still leaves the last
// column on screen.
func (t *dataTable) maxLeft() int {
	room := t.width
	for c := range t.frozen {
		room -= t.columns[c].width + len(columnGap)
	}
	left := len(t.columns) - t.frozen
	for c := len(t.columns) - 1; c >= t.frozen; c-- {
		room -= t.columns[c].width + len(columnGap)
		if room < 0 && c < len(t.columns)-1 {
			break
		}
		left = c - t.frozen
	}
	return max(left, 0)
}

// scrollHint says which columns are off screen, "" when none is.
func (t *dataTable) scrollHint() string {
	cols, _ := t.visible()
	shown := len(cols) // a text column cut short counts: its ellipsis says so
	hiddenRight := len(t.columns) - t.frozen - t.left - (shown - min(t.frozen, shown))
	switch {
	case t.left == 0 && hiddenRight <= 0:
		return ""
	case t.left == 0:
		return common.Count(hiddenRight, "column", "columns") + " →"
	case hiddenRight <= 0:
		return "← " + common.Count(t.left, "column", "columns")
	}
	return "← " + strconv.Itoa(t.left) + " · " + strconv.Itoa(hiddenRight) + " →"
}

// view draws the header and the rows on screen, the cursor's selected.
func (t *dataTable) view() string {
	if t.width <= 0 || t.height <= 0 {
		return ""
	}
	cols, lastWidth := t.visible()
	var sb strings.Builder
	line := func(text func(c int) string) string {
		sb.Reset()
		for n, c := range cols {
			if n > 0 {
				sb.WriteString(columnGap)
			}
			w := t.columns[c].width
			if n == len(cols)-1 && lastWidth > 0 {
				w = lastWidth
			}
			sb.WriteString(alignCell(text(c), w, t.columns[c].number))
		}
		return sb.String()
	}
	lines := make([]string, 0, t.height)
	lines = append(lines, t.styles.Title.Render(line(func(c int) string { return t.columns[c].title })))
	for j := t.top; j < t.rows && len(lines) < t.height; j++ {
		row := line(func(c int) string { return t.columns[c].cell(j) })
		if j == t.cursor && !t.noSelection {
			row = t.styles.Selected.Render(row)
		}
		lines = append(lines, row)
	}
	return strings.Join(lines, "\n")
}

// alignCell fits s in width cells: a number right-aligned, text on the
// left and cut with an ellipsis.
func alignCell(s string, width int, number bool) string {
	if number {
		return common.PadLeft(s, width)
	}
	if common.TextWidth(s) > width {
		s = ansi.Truncate(s, width, "…")
	}
	return common.PadRight(s, width)
}

// numberFormat formats a column's numbers with one precision: integers
// as integers, magnitudes from 1e-3 to 1e6 with four significant digits
// of the largest, others in exponent form.
type numberFormat struct {
	decimals int
	exponent bool
	// width is the widest cell of the values the format was made for.
	width int
}

// newNumberFormat returns the format of the n values v(0)..v(n-1): one
// precision for all, chosen from the largest magnitude, and the width of
// the widest (with fixed decimals it is the smallest or the largest one).
func newNumberFormat(n int, v func(j int) float64) numberFormat {
	maxAbs, integral := 0.0, true
	lo, hi := math.Inf(1), math.Inf(-1)
	special := 0
	for j := range n {
		x := v(j)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			special = max(special, len(common.FormatValue(x)))
			continue
		}
		lo, hi = min(lo, x), max(hi, x)
		maxAbs = max(maxAbs, math.Abs(x))
		if integral && x != math.Trunc(x) {
			integral = false
		}
	}
	f := numberFormat{}
	switch {
	case maxAbs >= 1e6 || (!integral && maxAbs < 1e-3):
		f.exponent, f.decimals = true, 3
	case !integral:
		f.decimals = min(max(3-int(math.Floor(math.Log10(maxAbs))), 1), 4)
	}
	f.width = special
	if lo <= hi {
		f.width = max(f.width, len(f.format(lo)), len(f.format(hi)))
	}
	if f.exponent { // exponents of three digits may be anywhere
		for j := range n {
			f.width = max(f.width, len(f.format(v(j))))
		}
	}
	return f
}

// format formats x: NaN and the infinities as common.FormatValue shows them.
func (f numberFormat) format(x float64) string {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return common.FormatValue(x)
	case f.exponent:
		return strconv.FormatFloat(x, 'e', f.decimals, 64)
	}
	s := strconv.FormatFloat(x, 'f', f.decimals, 64)
	if f.decimals > 0 && strings.TrimLeft(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-") // -0.0000 reads as 0.0000
	}
	return s
}

// numberColumn returns a right-aligned column of n values v(j) formatted
// with one precision, as wide as its widest cell or its title.
func numberColumn(title string, n int, v func(j int) float64) dataColumn {
	return numberColumnOf(title, newNumberFormat(n, v), v)
}

// numberColumnOf returns a right-aligned column of the values v(j) in
// format f, made for them (perhaps from the same values in another order).
func numberColumnOf(title string, f numberFormat, v func(j int) float64) dataColumn {
	return dataColumn{
		title: title, number: true, width: max(f.width, ansi.StringWidth(title)),
		cell: func(j int) string { return f.format(v(j)) },
	}
}

// intColumn returns a right-aligned column of n integers v(j).
func intColumn(title string, n int, v func(j int) int) dataColumn {
	lo, hi := 0, 0
	for j := range n {
		x := v(j)
		lo, hi = min(lo, x), max(hi, x)
	}
	w := max(ansi.StringWidth(title), len(strconv.Itoa(lo)), len(strconv.Itoa(hi)))
	return dataColumn{title: title, number: true, width: w, cell: func(j int) string { return strconv.Itoa(v(j)) }}
}

// textColumn returns a left-aligned column of n texts text(j), as wide as
// its widest cell or its title, at most maxWidth.
func textColumn(title string, n, maxWidth int, text func(j int) string) dataColumn {
	w := ansi.StringWidth(title)
	for j := 0; j < n && w < maxWidth; j++ {
		w = max(w, common.TextWidth(text(j)))
	}
	return dataColumn{title: title, width: min(w, max(maxWidth, ansi.StringWidth(title))), cell: text}
}
