// Package plot is the frame the dashboard's charts are drawn in: an
// ntcharts canvas with nice axes, and the drawing of marks, lines and
// braille polylines in its plotting area.
package plot

import (
	"reflect"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/runes"

	"github.com/rewardlens/rewardlens/internal/chart"
)

// Frame is a chart drawn on an ntcharts canvas: the y tick labels,
// the y axis, the plotting area (its grid's cells), the x axis under it
// and the x tick labels. The axes are chart.Axis fits: ticks on nice
// values at regular cells, and no data on an axis line, whose cells are
// not the plotting area's.
type Frame struct {
	// Canvas holds the frame's cells; a chart draws on it what the
	// methods do not (densities, runes of its own).
	Canvas canvas.Model
	// Grid is the two axes' fit: the plotting area's cells and ticks.
	Grid chart.Grid
	// left is the y axis' column; the plotting area starts right of it,
	// at the canvas' top row.
	left int
	// XTick, when not nil, says which x ticks to draw: a chart of one
	// step labels that step alone, not steps that do not exist.
	XTick func(v float64) bool
}

// NewFrame returns the frame of width x height cells: fitY fits the
// y axis to the rows left by the x axis and its labels, fitX the x axis
// to the columns the y labels and axis leave.
func NewFrame(width, height int, fitY, fitX func(cells int) chart.Axis) *Frame {
	width, height = max(width, 8), max(height, 4)
	y := fitY(height - 2)
	left := y.LabelWidth()
	x := fitX(width - left - 1)
	return &Frame{Canvas: canvas.New(width, height), Grid: chart.Grid{X: x, Y: y}, left: left}
}

// NewStepFrame is NewFrame over the training steps first to last on x
// (chart.FitSteps, which spreads them over the width): of a single step,
// that step is the one x tick drawn.
func NewStepFrame(width, height int, first, last float64, fitY func(rows int) chart.Axis) *Frame {
	f := NewFrame(width, height, fitY, func(cols int) chart.Axis { return chart.FitSteps(first, last, cols) })
	if first == last {
		f.XTick = func(v float64) bool { return v == first }
	}
	return f
}

// Point returns the canvas cell of (x, y), and whether it is in the
// plotting area.
func (f *Frame) Point(x, y float64) (canvas.Point, bool) {
	col, row, ok := f.Grid.Cell(x, y)
	return f.CellPoint(col, row), ok
}

// CellPoint returns the canvas cell of the plotting area's column col and
// row row (row 0 at the bottom).
func (f *Frame) CellPoint(col, row int) canvas.Point {
	return canvas.Point{X: f.left + 1 + col, Y: f.Grid.Y.Cells - 1 - row}
}

// GridCell returns the plotting area's column and row of a canvas cell,
// and whether it is one of the area's.
func (f *Frame) GridCell(p canvas.Point) (col, row int, ok bool) {
	col, row = p.X-f.left-1, f.Grid.Y.Cells-1-p.Y
	return col, row, col >= 0 && col < f.Grid.X.Cells && row >= 0 && row < f.Grid.Y.Cells
}

// Mark draws r at (x, y) if it lies in the plotting area.
func (f *Frame) Mark(x, y float64, r rune, style lipgloss.Style) {
	if p, ok := f.Point(x, y); ok {
		f.Canvas.SetCell(p, canvas.NewCellWithStyle(r, style))
	}
}

// VLine draws r down the plotting area's column of x, if it has one.
func (f *Frame) VLine(x float64, r rune, style lipgloss.Style) {
	col := f.Grid.X.Cell(x)
	if col < 0 || col >= f.Grid.X.Cells {
		return
	}
	for row := range f.Grid.Y.Cells {
		f.Canvas.SetCell(f.CellPoint(col, row), canvas.NewCellWithStyle(r, style))
	}
}

// HLine draws r across the plotting area's row of y, if it has one.
func (f *Frame) HLine(y float64, r rune, style lipgloss.Style) {
	row := f.Grid.Y.Cell(y)
	if row < 0 || row >= f.Grid.Y.Cells {
		return
	}
	for col := range f.Grid.X.Cells {
		f.Canvas.SetCell(f.CellPoint(col, row), canvas.NewCellWithStyle(r, style))
	}
}

// BrailleLines draws each polyline as braille dots, 2 across and 4 down a
// cell, clipped to the plotting area: a line of many noisy points stays a
// line, not a stack of box-drawing corners.
func (f *Frame) BrailleLines(lines [][]canvas.Float64Point, style lipgloss.Style) {
	graph.DrawBraillePatterns(&f.Canvas, canvas.Point{X: f.left + 1, Y: 0}, f.braille(lines), style)
}

// BrailleLinesOver draws the polylines as BrailleLines does, over what
// the plotting area already shows, so that a line through shaded cells
// does not cut a blank band through them: in a cell the lines cross,
// braille joins the lines' dots to its own; another rune in a colour
// becomes the dots' background (the dots in style over it); a rune
// without colour (NO_COLOR) stays, in style.
func (f *Frame) BrailleLinesOver(lines [][]canvas.Float64Point, style lipgloss.Style) {
	for y, row := range f.braille(lines) {
		for x, r := range row {
			if r == runes.BrailleBlockOffset {
				continue
			}
			p := canvas.Point{X: f.left + 1 + x, Y: y}
			cellStyle := style
			under := f.Canvas.Cell(p)
			switch fg := under.Style.GetForeground(); {
			case under.Rune >= runes.BrailleBlockOffset && under.Rune <= runes.BrailleBlockOffset+0xff:
				r |= under.Rune
			case under.Rune == 0 || under.Rune == ' ':
			case fg != (lipgloss.NoColor{}):
				cellStyle = style.Background(fg)
			default:
				r = under.Rune
			}
			f.Canvas.SetCell(p, canvas.NewCellWithStyle(r, cellStyle))
		}
	}
}

// braille returns the lines' braille patterns over the plotting area,
// its top row first.
func (f *Frame) braille(lines [][]canvas.Float64Point) [][]rune {
	w, h := f.Grid.X.Cells*2, f.Grid.Y.Cells*4
	dots := runes.NewPatternDotsGrid(w, h)
	dot := func(p canvas.Float64Point) canvas.Point {
		return canvas.Point{X: f.Grid.X.Sub(p.X, 2), Y: h - 1 - f.Grid.Y.Sub(p.Y, 4)}
	}
	set := func(p canvas.Point) {
		if p.X >= 0 && p.X < w && p.Y >= 0 && p.Y < h {
			dots.Set(p.X, p.Y)
		}
	}
	for _, line := range lines {
		for j, p := range line {
			if j == 0 {
				set(dot(p))
				continue
			}
			for _, d := range graph.GetLinePoints(dot(line[j-1]), dot(p)) {
				set(d)
			}
		}
	}
	return dots.BraillePatterns()
}

// DrawAxes draws both axes with a tick at each of their ticks, the y
// labels right-aligned left of the axis and the x labels centred under
// their ticks (moved inside the canvas at its ends, dropped when they
// would touch the previous one).
func (f *Frame) DrawAxes(axis, label lipgloss.Style) {
	c, g := &f.Canvas, f.Grid
	base := g.Y.Cells // the x axis' row
	for row := range g.Y.Cells {
		c.SetCell(canvas.Point{X: f.left, Y: row}, canvas.NewCellWithStyle('│', axis))
	}
	c.SetCell(canvas.Point{X: f.left, Y: base}, canvas.NewCellWithStyle('└', axis))
	for col := range g.X.Cells {
		c.SetCell(canvas.Point{X: f.left + 1 + col, Y: base}, canvas.NewCellWithStyle('─', axis))
	}
	for _, t := range g.Y.Ticks() {
		p := f.CellPoint(0, t.Cell)
		c.SetCell(canvas.Point{X: f.left, Y: p.Y}, canvas.NewCellWithStyle('┤', axis))
		c.SetStringWithStyle(canvas.Point{X: f.left - len(t.Label), Y: p.Y}, t.Label, label)
	}
	end := -1 // the column after the last x label
	for _, t := range g.X.Ticks() {
		if f.XTick != nil && !f.XTick(t.Value) {
			continue
		}
		x := f.left + 1 + t.Cell
		c.SetCell(canvas.Point{X: x, Y: base}, canvas.NewCellWithStyle('┬', axis))
		start := min(max(x-(len(t.Label)-1)/2, 0), c.Width()-len(t.Label))
		if start <= end {
			continue
		}
		c.SetStringWithStyle(canvas.Point{X: start, Y: base + 1}, t.Label, label)
		end = start + len(t.Label)
	}
}

// View returns the frame's cells as text, as its canvas's View does, but
// for a cell in no style: its rune written as is, not rendered by
// lipgloss, which gives the same text. Most of a plot's cells are such, and
// rendering each took most of a frame's time on the event loop. A canvas
// given a zone manager (which marks its zones in the text) draws itself.
func (f *Frame) View() string {
	c := &f.Canvas
	if c.ZoneManager() != nil {
		return c.View()
	}
	at := c.Cursor()
	endX, endY := at.X+c.ViewWidth-1, at.Y+c.ViewHeight-1
	var sb strings.Builder
	sb.Grow(c.Width() * c.Height())
	for y := at.Y; y <= endY && y < c.Height(); y++ {
		for x := at.X; x <= endX && x < c.Width(); x++ {
			cell := c.Cell(canvas.Point{X: x, Y: y})
			r := cell.Rune
			if r == 0 {
				r = ' '
			}
			if r != '\t' && reflect.ValueOf(&cell.Style).Elem().IsZero() { // lipgloss expands a tab
				sb.WriteRune(r)
				continue
			}
			sb.WriteString(cell.Style.Render(string(r)))
		}
		if y != endY {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}
