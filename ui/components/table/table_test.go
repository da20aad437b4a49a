package table

import (
	"fmt"
	"math"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/common"
)

func TestNumberFormatOnePrecisionPerColumn(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		want   []string
	}{
		{[]float64{0.847, 0.2334, -0.5}, []string{"0.8470", "0.2334", "-0.5000"}},
		{[]float64{1, 0.952, 0.5}, []string{"1.000", "0.952", "0.500"}},
		{[]float64{312.7, 2.5}, []string{"312.7", "2.5"}},
		{[]float64{27745, 3, -12}, []string{"27745", "3", "-12"}},
		{[]float64{2.5e7, 1}, []string{"25000000", "1"}}, // no exponent where the digits fit as narrow
		{[]float64{1e-5, 2e-4}, []string{"0.0000100", "0.0002000"}},
		{[]float64{1.5e12, 3}, []string{"1.500e+12", "3.000e+00"}},
		// Decimals of 1e9 and above: more than maxDigits in fixed point.
		{[]float64{1.5e12 + 0.5, 3.5}, []string{"1.500e+12", "3.500e+00"}},
		{[]float64{1e15 + 0.3, 2.5}, []string{"1.000e+15", "2.500e+00"}},
		{[]float64{1.5e12 + 0.5, 1.502e12 + 0.5}, []string{"1.50000e+12", "1.50200e+12"}},
		{[]float64{math.MaxFloat64, 1.5}, []string{"1.798e+308", "1.500e+00"}},
		// Integers of more than ten digits: the cells rounded are marked.
		{[]float64{math.MaxFloat64, -math.MaxFloat64}, []string{"~1.798e+308", "~-1.798e+308"}},
		{[]float64{1e15, 1e15 + 1}, []string{"1.000000000e+15", "~1.000000000e+15"}},
		{[]float64{1e15, 1e15 + 1, 3}, []string{"1.000e+15", "~1.000e+15", "3.000e+00"}},
		{[]float64{12345678901, 12345678951}, []string{"~1.234567890e+10", "~1.234567895e+10"}},
		{[]float64{9999999999, 3}, []string{"9999999999", "3"}}, // ten digits: whole, as narrow as marked
		{[]float64{12345678901, 3}, []string{"~1.235e+10", "3.000e+00"}},
		{[]float64{12345678901, math.NaN(), math.Inf(-1), 3}, []string{"~1.235e+10", "NaN", "-inf", "3.000e+00"}}, // never ~NaN
		// The spread's digits: values close together read distinct.
		{[]float64{10000000.3, 10005000.1, 10002721.146}, []string{"10000000.3", "10005000.1", "10002721.1"}},
		{[]float64{0.5000714, 0.5001812, 0.5003}, []string{"0.500071", "0.500181", "0.500300"}},
		{[]float64{-9.985e-06, -7.505e-08}, []string{"-9.985e-06", "-7.505e-08"}},
		{[]float64{1, 1 + 1e-13}, []string{"1.000000000", "1.000000000"}}, // a rounding error: maxDigits
		{[]float64{math.NaN(), math.Inf(1), 0.5}, []string{"NaN", "inf", "0.5000"}},
		{[]float64{-0.00001, 0.5}, []string{"0.0000", "0.5000"}},
	} {
		f := NewNumberFormat(len(tc.values), func(j int) float64 { return tc.values[j] })
		width := 0
		for j, v := range tc.values {
			got := f.Format(v)
			if got != tc.want[j] {
				t.Errorf("%v: %v formats as %q, want %q", tc.values, v, got, tc.want[j])
			}
			width = max(width, len(strings.TrimPrefix(got, roundedMark)))
		}
		if f.marksRounded { // room for the mark, whichever cell has it
			width += len(roundedMark)
		}
		if f.width != width {
			t.Errorf("%v: width %d, want the widest cell's %d", tc.values, f.width, width)
		}
	}
}

// testTable returns a table of 30 rows: a frozen id, a long text and four
// number columns.
func testTable(width, height int) *Table {
	tb := New(common.NewStyles(true, true))
	ids := func(j int) string { return "row" + strings.Repeat("x", j%3) + string(rune('A'+j%26)) }
	text := func(j int) string { return "a long text that will not fit in narrow tables " + string(rune('a'+j%26)) }
	cols := []Column{
		TextColumn("id", 30, 12, ids),
		TextColumn("text", 30, 30, text),
	}
	for c, title := range []string{"alpha", "beta", "gamma", "delta"} {
		cols = append(cols, NumberColumn(title, 30, func(j int) float64 { return float64(j*(c+1)) * 1.25 }))
	}
	tb.SetColumns(cols, 1)
	tb.SetRows(30)
	tb.SetSize(width, height)
	return &tb
}

// TestDataTableAlignment checks that numbers end under their titles' ends
// and text starts under its title, that text is cut with an ellipsis, and
// no number is ever cut.
func TestDataTableAlignment(t *testing.T) {
	tb := testTable(200, 10)
	lines := strings.Split(ansi.Strip(tb.View()), "\n")
	head := lines[0]
	for _, title := range []string{"alpha", "beta", "gamma", "delta"} {
		end := strings.Index(head, title) + len(title)
		for _, line := range lines[1:] {
			l := []rune(line) // one cell each here
			if l[end-1] == ' ' || (end < len(l) && l[end] != ' ') {
				t.Errorf("column %s: a number does not end at the title's end:\n%s\n%s", title, head, line)
			}
		}
	}
	if !strings.Contains(lines[1], "a long text that will not fit in narrow tables a  ") {
		t.Errorf("the text did not grow into the free width: %q", lines[1])
	}
	narrow := testTable(66, 10)
	if line := strings.Split(ansi.Strip(narrow.View()), "\n")[1]; !strings.Contains(line, "a long text that will not fit…") {
		t.Errorf("the text is not cut with an ellipsis at its width: %q", line)
	}
	// At every width, a number column is shown whole or not at all.
	for width := 20; width < 120; width++ {
		tb := testTable(width, 10)
		for _, l := range strings.Split(ansi.Strip(tb.View()), "\n") {
			if w := ansi.StringWidth(l); w > width {
				t.Fatalf("width %d: a line of %d cells", width, w)
			}
		}
		cols, _ := tb.visible()
		for _, c := range cols {
			if tb.columns[c].Number && tb.columns[c].Width < len("36.25") {
				t.Fatalf("width %d: number column %s narrower than its numbers", width, tb.columns[c].Title)
			}
		}
	}
}

// TestDataTableSidewaysScroll scrolls the columns right and left at 60
// cells: the id stays, the others move, the hint says what is off screen.
func TestDataTableSidewaysScroll(t *testing.T) {
	tb := testTable(60, 10)
	head := func() string { return strings.Split(ansi.Strip(tb.View()), "\n")[0] }
	if h := head(); !strings.HasPrefix(h, "id") || !strings.Contains(h, "text") || strings.Contains(h, "delta") {
		t.Fatalf("at 60 cells the table shows %q", h)
	}
	if hint := tb.ScrollHint(); !strings.HasSuffix(hint, "→") {
		t.Errorf("the hint does not say columns are off to the right: %q", hint)
	}
	for range 10 {
		tb.Update(tableKey("right"))
	}
	h := head()
	if !strings.HasPrefix(h, "id") || strings.Contains(h, "text") || !strings.Contains(h, "delta") {
		t.Errorf("scrolled right, the table shows %q", h)
	}
	if hint := tb.ScrollHint(); !strings.HasPrefix(hint, "←") || strings.HasSuffix(hint, "→") {
		t.Errorf("scrolled to the end, the hint is %q", hint)
	}
	for range 10 {
		tb.Update(tableKey("left"))
	}
	if h := head(); !strings.Contains(h, "text") {
		t.Errorf("scrolled back left, the table shows %q", h)
	}
	if wide := testTable(200, 10); wide.ScrollHint() != "" || wide.maxLeft() != 0 {
		t.Errorf("a table that fits scrolls: hint %q, max %d", wide.ScrollHint(), wide.maxLeft())
	}
}

func TestDataTableClickAndKeys(t *testing.T) {
	tb := testTable(120, 10) // 9 rows on screen
	if !tb.Click(4) || tb.cursor != 3 {
		t.Errorf("a click on the 4th row selected row %d", tb.cursor)
	}
	if tb.Click(0) || tb.Click(20) {
		t.Error("a click on the header or below the rows selected something")
	}
	tb.Update(tableKey("end"))
	if tb.cursor != 29 || tb.top != 21 {
		t.Errorf("end: cursor %d, top %d; want 29, 21", tb.cursor, tb.top)
	}
	if !tb.Click(1) || tb.cursor != 21 {
		t.Errorf("a click on the first row shown selected %d, want 21", tb.cursor)
	}
	tb.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if tb.cursor != 18 {
		t.Errorf("the wheel moved the cursor to %d, want 18", tb.cursor)
	}
}

// tableKey returns the press of the key named k ("left", "end"...), as the
// terminal reports it.
func tableKey(k string) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

// TestNumberFormatExponentWidth: in exponent format the column is as wide
// as its widest cell, measured on every value, whichever sign and
// exponent length it has.
func TestNumberFormatExponentWidth(t *testing.T) {
	for _, values := range [][]float64{
		{1e-120, 2e-5, 3e7},
		{-4e-150, 5e-5, 6e8},
		{-7e250, -8e-4, 9e-9},
		{0, 1e-7, -2e-7, math.Inf(1)},
	} {
		f := NewNumberFormat(len(values), func(j int) float64 { return values[j] })
		widest := 0
		for _, x := range values {
			widest = max(widest, len(f.Format(x)))
		}
		if f.width != widest {
			t.Errorf("%v: width %d, widest cell %d", values, f.width, widest)
		}
	}
}

// TestTextColumnMeasuresASample: a column of up to measuredRows cells is
// as wide as its widest; a longer one as the widest of the cells it
// measures (every stride-th, and the last), so that a million rows cost
// measuredRows measures.
func TestTextColumnMeasuresASample(t *testing.T) {
	cell := func(wide int) func(j int) string {
		return func(j int) string {
			if j == wide {
				return "a-much-wider-cell"
			}
			return "id"
		}
	}
	if c := TextColumn("id", measuredRows, 40, cell(measuredRows-2)); c.Width != len("a-much-wider-cell") {
		t.Errorf("%d rows: width %d, want the widest cell's", measuredRows, c.Width)
	}
	n := 3 * measuredRows // stride 3: row 1 is not measured, row 3 is
	if c := TextColumn("id", n, 40, cell(1)); c.Width != len("id") {
		t.Errorf("%d rows: width %d, want the measured cells'", n, c.Width)
	}
	if c := TextColumn("id", n, 40, cell(3)); c.Width != len("a-much-wider-cell") {
		t.Errorf("%d rows: width %d, want the measured wide cell's", n, c.Width)
	}
}

// TestKeyColumnSharesOverTheMeasuredRows: the affixes a key column cuts
// first are shared by the rows TextWidth measures, the last included.
func TestKeyColumnSharesOverTheMeasuredRows(t *testing.T) {
	n := measuredRows + 2 // stride 2: the last row is not a stride-th
	key := func(j int) string {
		if j == n-1 {
			return fmt.Sprintf("run-%d-other", j)
		}
		return fmt.Sprintf("run-%d-tail", j)
	}
	if c := KeyColumn("id", n, 10, key, key); c.Shared != (common.Affixes{Prefix: "run-"}) {
		t.Errorf("%d rows: shared %q, want the last row's too", n, c.Shared)
	}
}

// TestMarkMissing: the cells marked show their mark (common.MissingValue,
// common.NoObjective), the others their number, and the column is as
// wide as the widest mark a row has.
func TestMarkMissing(t *testing.T) {
	values := []float64{1, 0, 1}
	col := NumberColumn("x", len(values), func(j int) float64 { return values[j] })
	second := func(j int) string {
		if j == 1 {
			return common.MissingValue
		}
		return ""
	}
	marked := MarkMissing(col, len(values), len(common.MissingValue), second, second)
	if got := []string{marked.Cell(0), marked.Cell(1), marked.Cell(2)}; got[0] != "1" || got[1] != common.MissingValue || got[2] != "1" || marked.Width != len(common.MissingValue) {
		t.Errorf("cells %q, width %d", got, marked.Width)
	}
	never := func(int) string { return "" }
	if none := MarkMissing(col, len(values), len(common.MissingValue), never, never); none.Width != col.Width || none.Cell(1) != "0" {
		t.Errorf("nothing missing: width %d (was %d), cell %q", none.Width, col.Width, none.Cell(1))
	}
	noObjective := func(j int) string {
		if j == 1 {
			return common.NoObjective
		}
		return ""
	}
	if dash := MarkMissing(col, len(values), len(common.MissingValue), noObjective, noObjective); dash.Width != col.Width || dash.Cell(1) != common.NoObjective {
		t.Errorf("another source's objective: width %d (was %d), cell %q", dash.Width, col.Width, dash.Cell(1))
	}
	// Once as wide as the widest mark, no more rows are measured.
	measured := 0
	counting := func(j int) string {
		measured++
		return second(j)
	}
	if wide := MarkMissing(col, len(values), len(common.MissingValue), second, counting); measured != 2 || wide.Width != len(common.MissingValue) {
		t.Errorf("measured %d rows, want 2 (the second is as wide as a mark goes); width %d", measured, wide.Width)
	}
}

// TestTextColumnsGrowIntoFreeWidth: a text column capped below its
// widest cell takes the width the columns leave free, shared with the
// other capped columns a cell at a time, never beyond its widest cell;
// without free width it keeps its cap.
func TestTextColumnsGrowIntoFreeWidth(t *testing.T) {
	long := func(j int) string { return strings.Repeat("k", 60) + string(rune('a'+j)) }
	short := func(j int) string { return "s" + string(rune('a'+j)) }
	tb := New(common.NewStyles(true, true))
	tb.SetColumns([]Column{TextColumn("a", 3, 20, long), TextColumn("b", 3, 20, long), TextColumn("c", 3, 20, short)}, 1)
	tb.SetRows(3)
	for _, c := range []struct{ width, a, b int }{
		{44, 20, 20},  // no free width: the caps
		{64, 29, 29},  // 18 free: 9 each, the short column keeps its own
		{200, 61, 61}, // each to its widest cell
	} {
		tb.SetSize(c.width, 4)
		if tb.widths[0] != c.a || tb.widths[1] != c.b || tb.widths[2] != 2 {
			t.Errorf("at %d cells the widths are %v, want [%d %d 2]", c.width, tb.widths, c.a, c.b)
		}
		for _, line := range strings.Split(ansi.Strip(tb.View()), "\n") {
			if w := ansi.StringWidth(line); w > c.width {
				t.Errorf("at %d cells a line of %d: %q", c.width, w, line)
			}
		}
	}
}

// TestCutMiddleKeepsIDsDistinct: ids that differ only at their end, too
// long for their column, are cut in their middle and stay distinct; a
// column not so marked cuts at the end.
func TestCutMiddleKeepsIDsDistinct(t *testing.T) {
	id := func(j int) string { return strings.Repeat("X", 300) + fmt.Sprintf("-%02d", j) }
	for _, middle := range []bool{true, false} {
		col := TextColumn("id", 12, 28, id)
		col.CutMiddle = middle
		tb := New(common.NewStyles(true, true))
		tb.SetColumns([]Column{col}, 1)
		tb.SetRows(12)
		tb.SetSize(28, 13)
		rows := strings.Split(ansi.Strip(tb.View()), "\n")[1:]
		seen := map[string]bool{}
		for _, r := range rows {
			seen[r] = true
		}
		if middle && (len(seen) != 12 || !strings.HasSuffix(rows[3], "XXX-03") || !strings.Contains(rows[3], "X…X")) {
			t.Errorf("cut in the middle, the 12 ids show as %d: %q", len(seen), rows)
		}
		if !middle && len(seen) != 1 {
			t.Errorf("cut at the end, the ids show as %d", len(seen))
		}
	}
}

// TestSharedNumberColumns: columns of one quantity show one value alike
// (-1 is "-1.000" in both, not "-1" in the column of integers), each as
// wide as its own widest cell or title.
func TestSharedNumberColumns(t *testing.T) {
	a, b := []float64{-1, 0.25}, []float64{-1, -1}
	cols := SharedNumberColumns([]string{"a", "rewards b"}, 2, func(j int) float64 { return a[j] }, func(j int) float64 { return b[j] })
	for k, want := range [][]string{{"-1.000", "0.250"}, {"-1.000", "-1.000"}} {
		for j, w := range want {
			if got := cols[k].Cell(j); got != w {
				t.Errorf("column %d row %d: %q, want %q", k, j, got, w)
			}
		}
	}
	if cols[0].Width != len("-1.000") || cols[1].Width != len("rewards b") {
		t.Errorf("widths %d and %d, want %d and %d", cols[0].Width, cols[1].Width, len("-1.000"), len("rewards b"))
	}
}

// TestWholeAndHiddenColumns: a Whole text column (a number with a mark,
// "✗ 0.3000") at the screen's edge is left off rather than cut ("✗
// 0.30…"), as a text column is cut; a Hidden column is drawn nowhere and
// not counted off screen.
func TestWholeAndHiddenColumns(t *testing.T) {
	mark := func(int) string { return "✗ 0.3000" }
	for _, whole := range []bool{false, true} {
		tb := New(common.NewStyles(true, true))
		col := TextColumn("feasible", 1, 12, mark)
		col.Whole = whole
		tb.SetColumns([]Column{TextColumn("id", 1, 4, func(int) string { return "row1" }), col}, 1)
		tb.SetRows(1)
		tb.SetSize(12, 3) // "row1" and the gap leave 6 cells
		row := strings.Split(ansi.Strip(tb.View()), "\n")[1]
		if cut := strings.Contains(row, "…"); cut == whole {
			t.Errorf("Whole %v: the row reads %q", whole, row)
		}
	}
	tb := New(common.NewStyles(true, true))
	hidden := NumberColumn("hidden", 1, func(int) float64 { return 7 })
	hidden.Hidden = true
	tb.SetColumns([]Column{TextColumn("id", 1, 4, func(int) string { return "row1" }), hidden, NumberColumn("b", 1, func(int) float64 { return 2 })}, 1)
	tb.SetRows(1)
	tb.SetSize(40, 3)
	if v := ansi.Strip(tb.View()); strings.Contains(v, "hidden") || strings.Contains(v, "7") || !strings.Contains(v, "b") || tb.ScrollHint() != "" {
		t.Errorf("the Hidden column is drawn, or counted off screen (hint %q):\n%s", tb.ScrollHint(), v)
	}
}

// TestNumberRangeSkipNegative: a range that skips the values below 0 and
// NaN (feasible's keys) is the range of the others.
func TestNumberRangeSkipNegative(t *testing.T) {
	keys := []float64{-1, math.NaN(), 0.25, -1, 3}
	r := NewNumberRange()
	r.SkipNegative()
	r.AddRows(keys, 1, 0, 0, 3)
	r.AddAt(keys, 1, 0, []int{3, 4})
	want := NewNumberRange()
	want.AddRows([]float64{0.25, 3}, 1, 0, 0, 2)
	if got, want := r.Sized(r.Format()), want.Sized(want.Format()); got != want {
		t.Errorf("the range of %v skipping the negative and NaN is %+v, want %+v", keys, got, want)
	}
}

// TestSharedNumberColumnsSkipAndSpread: a value skipped leaves the format
// as the others make it; a spread counts only for whether the values are
// integers.
func TestSharedNumberColumnsSkipAndSpread(t *testing.T) {
	values := []float64{12, 1e9, 3}
	spreads := []float64{0.5, math.NaN(), 1}
	cols, f := SharedNumberColumnsOf(3,
		SharedColumn{Title: "v", Value: func(j int) float64 { return values[j] }, Skip: func(j int, _ float64) bool { return j == 1 }},
		SharedColumn{Title: "std", Value: func(j int) float64 { return spreads[j] }, Spread: true, Skip: func(_ int, x float64) bool { return math.IsNaN(x) }})
	if got, want := cols[0].Cell(0), "12.00"; got != want || f.Format(3) != "3.00" {
		t.Errorf("the values' cell %q, want %q (1e9 skipped, the spread 0.5 not an integer)", got, want)
	}
	if len(cols) != 2 || cols[1].Title != "std" {
		t.Errorf("columns %+v", cols)
	}
}

// TestScrollPastHiddenColumns: each → or ← press, and each sideways
// wheel step, changes the columns on screen when a Hidden column is
// among those scrolled past (one press crossed it and showed the same).
func TestScrollPastHiddenColumns(t *testing.T) {
	tb := New(common.NewStyles(true, true))
	num := func(name string, hidden bool) Column {
		c := NumberColumn(name, 1, func(int) float64 { return 12345 })
		c.Hidden = hidden
		return c
	}
	tb.SetColumns([]Column{TextColumn("id", 1, 4, func(int) string { return "row1" }),
		num("aaaaaaa", false), num("hidden", true), num("bbbbbbb", false), num("ccccccc", false), num("ddddddd", false)}, 1)
	tb.SetRows(1)
	tb.SetSize(24, 3)
	for _, scroll := range []struct {
		name          string
		right, leftOf tea.Msg
	}{
		{"keys", tableKey("right"), tableKey("left")},
		{"wheel", tea.MouseWheelMsg{Button: tea.MouseWheelRight}, tea.MouseWheelMsg{Button: tea.MouseWheelLeft}},
	} {
		views := []string{ansi.Strip(tb.View())}
		for range 2 { // to the end: (a b), (b c), (c d)
			tb.Update(scroll.right)
			views = append(views, ansi.Strip(tb.View()))
		}
		for range 2 {
			tb.Update(scroll.leftOf)
			views = append(views, ansi.Strip(tb.View()))
		}
		for k := 1; k < len(views); k++ {
			if views[k] == views[k-1] {
				t.Errorf("%s: press %d changed nothing on screen:\n%s", scroll.name, k, views[k])
			}
		}
		if views[0] != views[len(views)-1] {
			t.Errorf("%s: back where it started, the table differs:\n%s\nwant\n%s", scroll.name, views[len(views)-1], views[0])
		}
	}
}
