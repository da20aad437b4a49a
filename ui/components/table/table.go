// Package table is the dashboard's table of data: it asks its columns for
// the cells of the rows on screen only, aligns numbers to the right, cuts
// text with an ellipsis and scrolls the columns that do not fit sideways.
package table

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
)

// Column is one column of a Table.
type Column struct {
	// Title heads the column.
	Title string
	// Number columns are right-aligned and never cut: their width must
	// hold their widest cell (NumberFormat's width gives it).
	Number bool
	// Width is the column's width in cells, from its content; a text
	// column's cells are cut to it with an ellipsis.
	Width int
	// Want is the width a text column's widest cell needs when Width
	// caps it: the table gives such columns the width the columns leave
	// free, up to Want each.
	Want int
	// Fill grows into free width only after the other columns grew to
	// their Want: the last column of a long text (a response) takes what
	// they leave.
	Fill bool
	// CutMiddle cuts the text as a key (an id): the prefix and suffix
	// the keys share, Shared, first, else in its middle (common.FitKey),
	// so that keys differing anywhere stay distinct.
	CutMiddle bool
	Shared    common.Affixes
	// CutSharedStart, when not "", is the start all the column's texts
	// share (a completion's template): a text too wide is cut there
	// first, what follows it kept (common.FitText).
	CutSharedStart string
	// Cell returns row j's text, safe to print (textsafe), on one line.
	Cell func(j int) string
	// Whole text columns are never drawn cut short at the screen's edge,
	// as number columns are not: their cells hold numbers.
	Whole bool
	// Hidden columns are drawn nowhere, their index kept: a column that
	// would repeat another.
	Hidden bool
}

// columnGap is the space between two columns.
const columnGap = "  "

// wheelRows is how many rows a notch of the mouse wheel moves the table.
const wheelRows = 3

// Table draws rows that it asks its columns for, only those on screen:
// a table of a million rows costs what its visible ones cost. Numbers are
// right-aligned, text is cut with an ellipsis; when the columns are wider
// than the screen, left/right scroll those after the frozen ones sideways.
// A mouse click selects a row.
type Table struct {
	styles *common.Styles
	// Keys are the keys Update answers, for the tab's help.
	Keys    KeyMap
	columns []Column
	// widths are the columns' drawn widths: Width, grown towards Want
	// into the width the columns leave free.
	widths []int
	// frozen is how many leading columns stay on screen when scrolling.
	frozen int
	rows   int
	// cursor is the selected row; top the first row on screen; left the
	// first scrolling column on screen.
	cursor, top, left int
	width, height     int // height counts the header row
	// NoSelection draws no row selected: a summary's table.
	NoSelection bool
}

// KeyMap is the table's keys: the cursor's and the sideways scroll's.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding // the cursor
	Left, Right                           key.Binding // the columns, sideways
}

func newKeyMap() KeyMap {
	return KeyMap{
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

// New returns an empty table drawn in the styles st.
func New(st *common.Styles) Table {
	return Table{styles: st, Keys: newKeyMap()}
}

// SetColumns replaces the columns, frozen of them staying on screen.
func (t *Table) SetColumns(cols []Column, frozen int) {
	t.columns, t.frozen = cols, min(frozen, len(cols))
	t.fit()
	t.left = min(t.left, t.maxLeft())
}

// SetRows sets the number of rows, keeping the cursor within them.
func (t *Table) SetRows(n int) {
	t.rows = n
	t.SetCursor(t.cursor)
}

// SetSize gives the table the cells it may draw in, its header's row
// included.
func (t *Table) SetSize(width, height int) {
	t.width, t.height = width, height
	t.fit()
	t.left = min(t.left, t.maxLeft())
	t.SetCursor(t.cursor)
}

// fit sets the drawn widths: each column's Width and, when all of them fit
// with room to spare, the room shared a cell at a time among the columns
// whose cells need more (Want), so that one long column does not take it
// all, then what is left to the Fill columns.
func (t *Table) fit() {
	t.widths = t.widths[:0]
	free := t.width
	for c, col := range t.columns {
		if col.Hidden {
			t.widths = append(t.widths, 0)
			continue
		}
		t.widths = append(t.widths, col.Width)
		free -= col.Width
		if c > 0 {
			free -= len(columnGap)
		}
	}
	for _, fill := range []bool{false, true} {
		for grew := true; free > 0 && grew; {
			grew = false
			for c, col := range t.columns {
				if free > 0 && !col.Hidden && t.widths[c] < col.Want && (!col.Fill || fill) {
					t.widths[c]++
					free--
					grew = true
				}
			}
		}
	}
}

// Cursor returns the selected row.
func (t *Table) Cursor() int { return t.cursor }

// ShowFirstColumns scrolls the columns back to the first ones.
func (t *Table) ShowFirstColumns() { t.left = 0 }

// ShowColumn scrolls the columns sideways, as little as it takes, to
// bring column c on screen whole, or as whole as the width allows: a
// sort by a column off screen shows it.
func (t *Table) ShowColumn(c int) {
	if c < t.frozen || c >= len(t.columns) {
		return
	}
	if c < t.frozen+t.left {
		t.left = c - t.frozen
		return
	}
	for t.left < t.maxLeft() && !t.showsWhole(c) {
		t.left++
	}
}

// showsWhole reports whether column c is on screen, not cut short.
func (t *Table) showsWhole(c int) bool {
	cols, lastWidth := t.visible()
	for n, v := range cols {
		if v == c {
			return n < len(cols)-1 || lastWidth == 0
		}
	}
	return false
}

// Shown returns the rows on screen, from first up to end.
func (t *Table) Shown() (first, end int) { return t.top, min(t.top+t.pageRows(), t.rows) }

// pageRows is how many rows fit under the header.
func (t *Table) pageRows() int { return max(t.height-1, 1) }

// SetCursor selects row j (clamped) and scrolls it into view.
func (t *Table) SetCursor(j int) {
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

// Update moves the cursor or the columns for a key or a mouse message;
// it reports whether it used msg.
func (t *Table) Update(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := t.Keys
		switch {
		case key.Matches(msg, k.Up):
			t.SetCursor(t.cursor - 1)
		case key.Matches(msg, k.Down):
			t.SetCursor(t.cursor + 1)
		case key.Matches(msg, k.PageUp):
			t.SetCursor(t.cursor - t.pageRows())
		case key.Matches(msg, k.PageDown):
			t.SetCursor(t.cursor + t.pageRows())
		case key.Matches(msg, k.Home):
			t.SetCursor(0)
		case key.Matches(msg, k.End):
			t.SetCursor(t.rows - 1)
		case key.Matches(msg, k.Left):
			t.scroll(-1)
		case key.Matches(msg, k.Right):
			t.scroll(1)
		default:
			return false
		}
		return true
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			t.SetCursor(t.cursor - wheelRows)
		case tea.MouseWheelDown:
			t.SetCursor(t.cursor + wheelRows)
		case tea.MouseWheelLeft:
			t.scroll(-1)
		case tea.MouseWheelRight:
			t.scroll(1)
		default:
			return false
		}
		return true
	}
	return false
}

// Click selects the row drawn at line y of the table (0 is the header);
// it reports whether there was one.
func (t *Table) Click(y int) bool {
	j := t.top + y - 1
	if y < 1 || j >= t.rows || j-t.top >= t.pageRows() {
		return false
	}
	t.SetCursor(j)
	return true
}

// visible returns the columns on screen, in order, and the width the
// last may take when it is text cut short (0: its own).
func (t *Table) visible() (cols []int, lastWidth int) {
	used := 0
	add := func(c int) bool {
		if t.columns[c].Hidden {
			return true
		}
		w := t.widths[c]
		if len(cols) > 0 {
			w += len(columnGap)
		}
		if used+w > t.width {
			room := t.width - used - (w - t.widths[c])
			if !t.columns[c].Number && !t.columns[c].Whole && room >= 4 {
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

// scroll moves the scrolled columns by one shown column, step -1 (to the
// left) or 1, past Hidden ones: starting at a Hidden column shows what
// starting at the next does, so a press that only crossed one would
// change nothing on screen.
func (t *Table) scroll(step int) {
	most := t.maxLeft()
	hidden := func(left int) bool { return t.frozen+left < len(t.columns) && t.columns[t.frozen+left].Hidden }
	left := t.left
	for step > 0 && left < most && hidden(left) {
		left++
	}
	left += step
	for left > 0 && left < most && hidden(left) {
		left += step
	}
	t.left = min(max(left, 0), most)
}

// maxLeft is the largest sideways scroll that still leaves the last
// column on screen.
func (t *Table) maxLeft() int {
	room := t.width
	for c := range t.frozen {
		room -= t.widths[c] + len(columnGap)
	}
	left := len(t.columns) - t.frozen
	for c := len(t.columns) - 1; c >= t.frozen; c-- {
		if t.columns[c].Hidden {
			continue
		}
		room -= t.widths[c] + len(columnGap)
		if room < 0 && c < len(t.columns)-1 {
			break
		}
		left = c - t.frozen
	}
	return max(left, 0)
}

// OnlyWhenScrolls returns columns, the key that scrolls the columns,
// offered only when a column is off screen (ScrollHint): with every
// column shown it would do nothing.
func (t *Table) OnlyWhenScrolls(columns key.Binding) key.Binding {
	columns.SetEnabled(columns.Enabled() && t.ScrollHint() != "")
	return columns
}

// ScrollHint says which columns are off screen, "" when none is.
func (t *Table) ScrollHint() string {
	cols, _ := t.visible()
	// Off screen: the columns not drawn, but for Hidden ones; a text
	// column cut short counts as shown: its ellipsis says so.
	hiddenLeft, hiddenRight := 0, 0
	for c := t.frozen; c < len(t.columns); c++ {
		switch {
		case t.columns[c].Hidden || slices.Contains(cols, c):
		case c < t.frozen+t.left:
			hiddenLeft++
		default:
			hiddenRight++
		}
	}
	switch {
	case hiddenLeft == 0 && hiddenRight <= 0:
		return ""
	case hiddenLeft == 0:
		return common.Count(hiddenRight, "column", "columns") + " →"
	case hiddenRight <= 0:
		return "← " + common.Count(hiddenLeft, "column", "columns")
	}
	return "← " + strconv.Itoa(hiddenLeft) + " · " + strconv.Itoa(hiddenRight) + " →"
}

// View draws the header and the rows on screen, the cursor's selected.
func (t *Table) View() string {
	if t.width <= 0 || t.height <= 0 {
		return ""
	}
	cols, lastWidth := t.visible()
	if last := len(cols) - 1; last >= 0 && lastWidth == 0 && cols[last] == len(t.columns)-1 && t.columns[cols[last]].Fill {
		// Scrolled sideways, the last column takes the room the columns
		// scrolled off leave, up to what it wants.
		used := (len(cols) - 1) * len(columnGap)
		for _, c := range cols {
			used += t.widths[c]
		}
		if grown := min(t.widths[cols[last]]+t.width-used, t.columns[cols[last]].Want); grown > t.widths[cols[last]] {
			lastWidth = grown
		}
	}
	var sb strings.Builder
	line := func(text func(c int) string) string {
		sb.Reset()
		for n, c := range cols {
			if n > 0 {
				sb.WriteString(columnGap)
			}
			w := t.widths[c]
			if n == len(cols)-1 && lastWidth > 0 {
				w = lastWidth
			}
			sb.WriteString(alignCell(text(c), w, t.columns[c]))
		}
		return sb.String()
	}
	lines := make([]string, 0, t.height)
	lines = append(lines, t.styles.Title.Render(line(func(c int) string { return t.columns[c].Title })))
	for j := t.top; j < t.rows && len(lines) < t.height; j++ {
		row := line(func(c int) string { return t.columns[c].Cell(j) })
		if j == t.cursor && !t.NoSelection {
			row = t.styles.Selected.Render(row)
		}
		lines = append(lines, row)
	}
	return strings.Join(lines, "\n")
}

// alignCell fits s in width cells of col: a number right-aligned, text
// on the left and cut with an ellipsis, at its end or (CutMiddle) in its
// middle.
func alignCell(s string, width int, col Column) string {
	switch {
	case col.Number:
		return common.PadLeft(s, width)
	case common.TextWidth(s) <= width:
	case col.CutMiddle:
		s = common.FitKey(s, width, col.Shared)
	case col.CutSharedStart != "":
		s = common.FitText(s, width, col.CutSharedStart)
	default:
		s = ansi.Truncate(s, width, "…")
	}
	return common.PadRight(s, width)
}

// NumberFormat formats a column's numbers with one precision, chosen from
// their range (NumberRange.Format).
type NumberFormat struct {
	decimals int
	exponent bool
	// marksRounded, for integers in exponent form, starts with
	// roundedMark a cell that does not read back as its value: 1e15+1
	// reads ~1.000000000e+15 beside 1e15's 1.000000000e+15.
	marksRounded bool
	// width is the widest cell of the values the format was made for.
	width int
}

// NewNumberFormat returns the format of the n values v(0)..v(n-1): one
// precision for all, chosen from the largest magnitude, and the width of
// the widest (with fixed decimals it is the smallest or the largest one).
func NewNumberFormat(n int, v func(j int) float64) NumberFormat {
	r := NewNumberRange()
	for j := range n {
		r.Add(v(j))
	}
	return r.Format()
}

// NewNumberFormatWhere is NewNumberFormat of the values of the n rows
// that show theirs, v(j) giving row j's and whether its cell shows it
// (the others' show text: a feasible trajectory's "✓").
func NewNumberFormatWhere(n int, v func(j int) (float64, bool)) NumberFormat {
	r := NewNumberRange()
	for j := range n {
		if x, shown := v(j); shown {
			r.Add(x)
		}
	}
	return r.Format()
}

// NumberRange is what a NumberFormat is chosen from, gathered one value
// at a time (Add) or in parts merged (Merge): a million values read in a
// loop of their own, on every core, instead of through a function each.
type NumberRange struct {
	// lo and hi are the least and greatest finite values, either zero
	// where the extreme is zero: negZero and posZero say which zeros were
	// seen (min and max order -0 before +0).
	lo, hi           float64
	negZero, posZero bool
	integral         bool
	// The nonzero values nearest zero, of each sign: in exponent format
	// the widest cells are of the extremes of each sign.
	closeNeg, closePos float64
	// special is the widest NaN or infinity.
	special int
	// skipNegative says to leave out the values below 0 and NaN
	// (SkipNegative).
	skipNegative bool
}

// SkipNegative makes AddRows and AddAt leave out the values below 0 and
// NaN: a column whose cells show those as text and the others as numbers
// (feasible's keys: -1 for "✓", NaN for an invalid row, the violation).
func (r *NumberRange) SkipNegative() { r.skipNegative = true }

// NewNumberRange returns the range of no values.
func NewNumberRange() NumberRange {
	return NumberRange{lo: math.Inf(1), hi: math.Inf(-1), integral: true, closeNeg: math.Inf(-1), closePos: math.Inf(1)}
}

// Add adds x to the range.
func (r *NumberRange) Add(x float64) {
	r.AddRows([]float64{x}, 1, 0, 0, 1)
}

// AddSpread adds a spread shown beside the values in their format (a
// standard deviation): whether it is an integer counts, not its
// magnitude, which is not the values'.
func (r *NumberRange) AddSpread(x float64) {
	if x-x == 0 && x != math.Trunc(x) {
		r.integral = false
	}
}

// AddAt adds vals[i*stride+offset] for each i of at: a column of a
// table of values (stride per row), at the rows listed.
func (r *NumberRange) AddAt(vals []float64, stride, offset int, at []int) {
	for _, i := range at {
		r.AddRows(vals, stride, offset, i, i+1)
	}
}

// AddRows adds vals[i*stride+offset] for the rows i from first to
// end-1.
func (r *NumberRange) AddRows(vals []float64, stride, offset, first, end int) {
	// The fields in locals for the loop, a million values long.
	lo, hi, closeNeg, closePos, integral, skipNegative := r.lo, r.hi, r.closeNeg, r.closePos, r.integral, r.skipNegative
	for k := first*stride + offset; k < end*stride+offset; k += stride {
		x := vals[k]
		if skipNegative && !(x >= 0) {
			continue
		}
		if x-x != 0 { // NaN or an infinity
			r.addSpecial(x)
			continue
		}
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
		switch {
		case x < 0:
			if x > closeNeg {
				closeNeg = x
			}
		case x > 0:
			if x < closePos {
				closePos = x
			}
		case math.Signbit(x):
			r.negZero = true
		default:
			r.posZero = true
		}
		if integral && x != math.Trunc(x) {
			integral = false
		}
	}
	r.lo, r.hi, r.closeNeg, r.closePos, r.integral = lo, hi, closeNeg, closePos, integral
}

func (r *NumberRange) addSpecial(x float64) {
	r.special = max(r.special, len(common.FormatValue(x)))
}

// Merge adds the values of o to the range.
func (r *NumberRange) Merge(o NumberRange) {
	r.lo, r.hi = min(r.lo, o.lo), max(r.hi, o.hi)
	r.negZero, r.posZero = r.negZero || o.negZero, r.posZero || o.posZero
	r.closeNeg, r.closePos = max(r.closeNeg, o.closeNeg), min(r.closePos, o.closePos)
	r.integral = r.integral && o.integral
	r.special = max(r.special, o.special)
}

// extremes returns the least and greatest values as min and max order
// them, -0 before +0.
func (r NumberRange) extremes() (lo, hi float64) {
	lo, hi = r.lo, r.hi
	if lo == 0 && r.negZero {
		lo = math.Copysign(0, -1)
	}
	if hi == 0 {
		hi = 0
		if !r.posZero {
			hi = math.Copysign(0, -1)
		}
	}
	return lo, hi
}

// Format returns the format of the range's values: one precision for
// all and the width of the widest. Integers show as integers; other
// values with four significant digits of the largest magnitude (one to
// four decimals from 1e-3 up), or more where the spread between the least
// and the greatest needs them to show three significant digits of it, so
// that values that differ read different; at most maxDigits significant
// digits. The exponent form, with as many significant digits (four at
// least), is taken where it is narrower than fixed point, and where fixed
// point would show more than maxDigits significant digits (a decimal of
// 1e9 and above, an integer of 1e10 and above). Integers in exponent form
// mark the cells its digits round (marksRounded).
func (r NumberRange) Format() NumberFormat {
	lo, hi := r.extremes()
	if lo > hi { // no finite value
		return NumberFormat{width: r.special}
	}
	maxAbs := max(math.Abs(lo), math.Abs(hi))
	magnitude := 0 // of the largest, a power of ten
	if maxAbs > 0 {
		magnitude = int(math.Floor(math.Log10(maxAbs)))
	}
	significant := 4
	digits := 3 - magnitude // decimals for four significant digits
	if magnitude >= -3 && !r.integral {
		digits = min(max(digits, 1), 4)
	}
	// A spread beyond MaxFloat64 is of the largest's magnitude: it needs no more.
	if spread := hi - lo; spread > 0 && !math.IsInf(spread, 0) {
		spreadMagnitude := int(math.Floor(math.Log10(spread)))
		digits = max(digits, 2-spreadMagnitude)
		significant = max(significant, magnitude+3-spreadMagnitude)
	}
	digits = min(digits, maxDigits-1-magnitude)
	// Integers in exponent form differing past its digits would read
	// alike: their rounded cells are marked.
	exponent := NumberFormat{exponent: true, decimals: min(significant, maxDigits) - 1, marksRounded: r.integral}
	exponent.width = r.widest(exponent)
	if r.integral && magnitude >= maxDigits { // whole, as wide as the digits
		return exponent
	}
	fixed := NumberFormat{}
	if !r.integral {
		fixed.decimals = max(digits, 1)
		if magnitude+1+fixed.decimals > maxDigits {
			return exponent
		}
	}
	if fixed.width = r.widest(fixed); exponent.width < fixed.width {
		return exponent
	}
	return fixed
}

// Sized returns f as wide as the range's widest value in it: a format
// chosen for the values of several columns of one quantity (their ranges
// merged), sized for one of them.
func (r NumberRange) Sized(f NumberFormat) NumberFormat {
	f.width = r.special
	if lo, hi := r.extremes(); lo <= hi {
		f.width = r.widest(f)
	}
	return f
}

// maxDigits is the most significant digits a NumberFormat shows: more
// would show the rounding error of the values.
const maxDigits = 10

// widest returns the width of the range's widest value in format f:
// with fixed decimals the least or the greatest, in exponent form also
// those nearest zero of each sign (a longer exponent); with the room of
// roundedMark where f marks the rounded cells (any may be).
func (r NumberRange) widest(f NumberFormat) int {
	lo, hi := r.extremes()
	width := max(len(f.unmarked(lo)), len(f.unmarked(hi)))
	if f.exponent {
		for _, x := range []float64{r.closeNeg, r.closePos} {
			if !math.IsInf(x, 0) {
				width = max(width, len(f.unmarked(x)))
			}
		}
	}
	if f.marksRounded {
		width += len(roundedMark)
	}
	return max(width, r.special)
}

// roundedMark starts a cell whose integer the digits shown round
// (NumberFormat.marksRounded).
const roundedMark = "~"

// Format formats x: NaN and the infinities as common.FormatValue shows
// them; with marksRounded, roundedMark before a number the text rounds.
func (f NumberFormat) Format(x float64) string {
	s := f.unmarked(x)
	if f.marksRounded && x-x == 0 { // NaN and the infinities are not rounded (NaN != NaN)
		if back, err := strconv.ParseFloat(s, 64); err != nil || back != x { // rounded past MaxFloat64, or not to x
			return roundedMark + s
		}
	}
	return s
}

// unmarked is Format without roundedMark.
func (f NumberFormat) unmarked(x float64) string {
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

// NumberColumn returns a right-aligned column of n values v(j) formatted
// with one precision, as wide as its widest cell or its title.
func NumberColumn(title string, n int, v func(j int) float64) Column {
	return NumberColumnOf(title, NewNumberFormat(n, v), v)
}

// SharedNumberColumns returns a NumberColumn per title, of the n values
// values[k](j), all in one format chosen from the values of all of them:
// columns of one quantity (two methods' rewards) show one value alike.
// Each is as wide as its own widest cell or its title.
func SharedNumberColumns(titles []string, n int, values ...func(j int) float64) []Column {
	shared := make([]SharedColumn, len(values))
	for k, v := range values {
		shared[k] = SharedColumn{Title: titles[k], Value: v}
	}
	cols, _ := SharedNumberColumnsOf(n, shared...)
	return cols
}

// SharedColumn is a column of SharedNumberColumnsOf.
type SharedColumn struct {
	Title string
	// Value is row j's value, for its cell.
	Value func(j int) float64
	// Measured, when not nil, returns the same n values as Value in
	// another order (one faster to read): those the format is chosen
	// from.
	Measured func(j int) float64
	// Skip, when not nil, reports whether value x, Measured's (or
	// Value's) j-th, is left out of the format: one whose cell shows
	// something else (an undefined std).
	Skip func(j int, x float64) bool
	// Spread says that the column's values are spreads shown beside the
	// others (a std): only whether they are integers counts towards the
	// shared format (AddSpread).
	Spread bool
}

// SharedNumberColumnsOf returns a NumberColumnOf per column of n values,
// all in one format, also returned, chosen from the values of all of
// them (less those skipped; of a spread, whether it is an integer): each
// is as wide as its own widest cell or its title.
func SharedNumberColumnsOf(n int, columns ...SharedColumn) ([]Column, NumberFormat) {
	shared := NewNumberRange()
	ranges := make([]NumberRange, len(columns))
	for k, c := range columns {
		measured := c.Measured
		if measured == nil {
			measured = c.Value
		}
		ranges[k] = NewNumberRange()
		for j := range n {
			x := measured(j)
			if c.Skip != nil && c.Skip(j, x) {
				continue
			}
			ranges[k].Add(x)
			if c.Spread {
				shared.AddSpread(x)
			}
		}
		if !c.Spread {
			shared.Merge(ranges[k])
		}
	}
	f := shared.Format()
	cols := make([]Column, len(columns))
	for k, c := range columns {
		cols[k] = NumberColumnOf(c.Title, ranges[k].Sized(f), c.Value)
	}
	return cols, f
}

// NumberColumnOf returns a right-aligned column of the values v(j) in
// format f, made for them (perhaps from the same values in another order).
func NumberColumnOf(title string, f NumberFormat, v func(j int) float64) Column {
	return Column{
		Title: title, Number: true, Width: max(f.width, ansi.StringWidth(title)),
		Cell: func(j int) string { return f.Format(v(j)) },
	}
}

// MarkMissing returns the number column c of n rows with the mark
// mark(j) in the cells j where it is not "": the objectives a row has no
// value of (common.AbsentValue), whose number, 0, the engine holds. The
// column is widened for the marks the rows have, which measured(j), j
// below n, gives of the rows in any order (one that need not wait for
// the rows' sort, as c's Cell may); widest is the most cells a mark
// takes, past which no row is measured (a million rows are rebuilt on a
// method switch).
func MarkMissing(c Column, n, widest int, mark, measured func(j int) string) Column {
	cell := c.Cell
	c.Cell = func(j int) string {
		if m := mark(j); m != "" {
			return m
		}
		return cell(j)
	}
	for j := 0; j < n && c.Width < widest; j++ {
		c.Width = max(c.Width, ansi.StringWidth(measured(j)))
	}
	return c
}

// IntColumn returns a right-aligned column of n integers v(j).
func IntColumn(title string, n int, v func(j int) int) Column {
	lo, hi := 0, 0
	for j := range n {
		x := v(j)
		lo, hi = min(lo, x), max(hi, x)
	}
	w := max(ansi.StringWidth(title), len(strconv.Itoa(lo)), len(strconv.Itoa(hi)))
	return Column{Title: title, Number: true, Width: w, Cell: func(j int) string { return strconv.Itoa(v(j)) }}
}

// measuredRows is the most cells of a text column measured for its width:
// a table of a million rows is rebuilt at each method switch.
const measuredRows = 1 << 14

// TextColumn returns a left-aligned column of n texts text(j), as wide as
// its widest cell or its title, at most maxWidth (TextWidth), and
// wanting up to grownWidth where the table has room.
func TextColumn(title string, n, maxWidth int, text func(j int) string) Column {
	return MeasuredTextColumn(title, n, maxWidth, text, text)
}

// MeasuredTextColumn is TextColumn of the cells cell(j) measured as the
// same n cells in another order, measured(j): the widths do not depend on
// an order that may not be done yet.
func MeasuredTextColumn(title string, n, maxWidth int, cell, measured func(j int) string) Column {
	want := TextWidth(title, n, max(grownWidth, maxWidth), measured)
	return Column{Title: title, Width: min(want, max(maxWidth, ansi.StringWidth(title))), Want: want, Cell: cell}
}

// KeyColumn is MeasuredTextColumn of keys that tell the rows apart
// (ids): a key too wide for the column is cut first in the prefix and
// suffix all of them share (common.FitKey), measured over the rows
// TextWidth measures: every stride-th and the last.
func KeyColumn(title string, n, maxWidth int, cell, measured func(j int) string) Column {
	c := MeasuredTextColumn(title, n, maxWidth, cell, measured)
	stride := max((n+measuredRows-1)/measuredRows, 1)
	samples := (n + stride - 1) / stride
	if n > 0 && (samples-1)*stride < n-1 {
		samples++ // the last row
	}
	c.CutMiddle = true
	c.Shared = common.SharedAffixes(samples, func(j int) string { return measured(min(j*stride, n-1)) })
	return c
}

// grownWidth is the widest a text column grows into free room: beyond it,
// a cell is a prompt or a document, which the detail views show whole.
const grownWidth = 160

// TextWidth returns the width of a text column titled title of the n
// texts text(j): its widest cell's or its title's, at most maxWidth.
// Beyond measuredRows cells, the width is that of measuredRows of them
// spread evenly, the first and last included: a rare wider cell is cut
// to it.
func TextWidth(title string, n, maxWidth int, text func(j int) string) int {
	w := ansi.StringWidth(title)
	stride := 1
	if n > measuredRows {
		stride = (n + measuredRows - 1) / measuredRows
	}
	for j := 0; j < n && w < maxWidth; j += stride {
		w = max(w, common.TextWidth(text(j)))
	}
	if n > 0 && w < maxWidth {
		w = max(w, common.TextWidth(text(n-1)))
	}
	return min(w, max(maxWidth, ansi.StringWidth(title)))
}
