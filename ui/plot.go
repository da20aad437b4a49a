package ui

import (
	"fmt"
	"math"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/runes"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"
)

// paddedRange widens [lo, hi] by 5% on each side, so that no point sits on
// an axis. A constant set gets a unit-wide range with the value at 40% of
// its height: at 50% it would fall between two rows on an even number of
// them, and rounding errors (z-scores average 1e-17, not 0, which counts as
// constant here) would zigzag the line across both.
func paddedRange(lo, hi float64) (float64, float64) {
	if hi-lo <= 1e-9*max(1, math.Abs(lo), math.Abs(hi)) {
		mid := (lo + hi) / 2
		return mid - 0.4, mid + 0.6
	}
	pad := (hi - lo) * 0.05
	return lo - pad, hi + pad
}

// relabel fits the chart's tick labels to the range it shows (zooming
// changes it), with the decimals that tell apart a tenth of it: ntcharts
// puts a label about every tenth of an axis, not on round values.
func relabel(lc *linechart.Model) {
	lc.XLabelFormatter = tickFormatter((lc.ViewMaxX() - lc.ViewMinX()) / 10)
	lc.YLabelFormatter = padLabels(tickFormatter((lc.ViewMaxY()-lc.ViewMinY())/10), lc.ViewMinY(), lc.ViewMaxY())
	lc.UpdateGraphSizes()
}

// padLabels right-aligns format's labels of [lo, hi] to the widest one,
// the label of an end. ntcharts makes room for the labels it measures,
// which can miss the top one and cut it.
func padLabels(format linechart.LabelFormatter, lo, hi float64) linechart.LabelFormatter {
	width := max(len(format(0, lo)), len(format(0, hi)))
	return func(i int, v float64) string { return fmt.Sprintf("%*s", width, format(i, v)) }
}

// inView reports whether (x, y) lies in the chart's displayed range.
func inView(lc *linechart.Model, x, y float64) bool {
	return x >= lc.ViewMinX() && x <= lc.ViewMaxX() && y >= lc.ViewMinY() && y <= lc.ViewMaxY()
}

// clipToGraph blanks every cell outside the chart's graphing area: a line
// to a point outside a zoomed-in view is drawn past the axes, over the tick
// labels, and must not stay there. Call it before drawing the axes.
func clipToGraph(lc *linechart.Model) {
	o := lc.Origin()
	for y := range lc.Canvas.Height() {
		for x := range lc.Canvas.Width() {
			if x <= o.X || y >= o.Y {
				lc.Canvas.SetCell(canvas.Point{X: x, Y: y}, canvas.Cell{})
			}
		}
	}
}

// lineCell returns the canvas cell of (x, y), scaled as the tick labels
// are (linechart's DrawRune puts points a row and a column off them).
func lineCell(lc *linechart.Model, f canvas.Float64Point) canvas.Point {
	return canvas.CanvasPointFromFloat64Point(lc.Origin(), lc.ScaleFloat64PointForLine(f))
}

// drawPoint marks (x, y) with r, kept off the axes.
func drawPoint(lc *linechart.Model, f canvas.Float64Point, r rune, style lipgloss.Style) {
	p, o := lineCell(lc, f), lc.Origin()
	p.X, p.Y = max(p.X, o.X+1), min(p.Y, o.Y-1)
	lc.Canvas.SetCell(p, canvas.NewCellWithStyle(r, style))
}

// drawPolyline joins the points in order with line runes.
func drawPolyline(lc *linechart.Model, points []canvas.Float64Point, style lipgloss.Style) {
	for j := 1; j < len(points); j++ {
		cells := graph.GetLinePointsWithLimit(lineCell(lc, points[j-1]), lineCell(lc, points[j]), lc.MaxInterpolationPoints)
		graph.DrawLinePoints(&lc.Canvas, cells, runes.ArcLineStyle, style)
	}
}

// drawMarker draws a dotted vertical line at x across the graphing area.
func drawMarker(lc *linechart.Model, x float64, style lipgloss.Style) {
	col := max(lineCell(lc, canvas.Float64Point{X: x, Y: lc.ViewMinY()}).X, lc.Origin().X+1)
	for y := range lc.Origin().Y {
		lc.Canvas.SetCell(canvas.Point{X: col, Y: y}, canvas.NewCellWithStyle('┊', style))
	}
}

// drawZeroLines draws dotted lines where x = 0 and y = 0 in view: the
// quadrants of positive and negative advantages.
func drawZeroLines(lc *linechart.Model, style lipgloss.Style) {
	o := lc.Origin()
	if lc.ViewMinX() < 0 && lc.ViewMaxX() > 0 {
		drawMarker(lc, 0, style)
	}
	if lc.ViewMinY() < 0 && lc.ViewMaxY() > 0 {
		row := lineCell(lc, canvas.Float64Point{X: lc.ViewMinX(), Y: 0}).Y
		for x := o.X + 1; x < lc.Canvas.Width(); x++ {
			lc.Canvas.SetCell(canvas.Point{X: x, Y: row}, canvas.NewCellWithStyle('┈', style))
		}
	}
}
