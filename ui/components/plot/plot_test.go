package plot

import (
	"math"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
	zone "github.com/lrstanley/bubblezone/v2"

	"github.com/rewardlens/rewardlens/internal/chart"
)

// testFrame returns a frame of width x height with axes, marks, a braille
// line, a tab in no style and cells in styles of colour, bold and reverse
// video.
func testFrame(width, height int) *Frame {
	fit := func(lo, hi float64) func(cells int) chart.Axis {
		return func(cells int) chart.Axis { return chart.FitRange(lo, hi, cells, chart.Options{}) }
	}
	f := NewFrame(width, height, fit(-1, 1), fit(0, 10))
	red := lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000"))
	bold := lipgloss.NewStyle().Bold(true)
	f.DrawAxes(lipgloss.NewStyle().Foreground(lipgloss.Color("8")), bold)
	for x := 0.0; x <= 10; x += 0.7 {
		f.Mark(x, math.Sin(x), '●', red)
	}
	f.BrailleLinesOver([][]canvas.Float64Point{{{X: 0, Y: -1}, {X: 5, Y: 1}, {X: 10, Y: 0}}}, bold)
	f.Mark(5, 0, '█', lipgloss.NewStyle().Reverse(true))
	f.Mark(6, 0, '⠄', lipgloss.Style{})
	f.Canvas.SetCell(canvas.Point{X: width - 1, Y: 0}, canvas.NewCell('\t'))
	return f
}

// TestViewIsTheCanvasView: the frame's View gives the same text as its
// canvas's, byte for byte, on frames of several sizes, and with the
// canvas scrolled to show part of it.
func TestViewIsTheCanvasView(t *testing.T) {
	for _, size := range [][2]int{{8, 4}, {40, 12}, {140, 45}} {
		f := testFrame(size[0], size[1])
		if got, want := f.View(), f.Canvas.View(); got != want {
			t.Errorf("%dx%d: View\n%q\nwant the canvas's\n%q", size[0], size[1], got, want)
		}
	}
	red := lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000"))
	for _, c := range []struct {
		name          string
		cursor        canvas.Point
		width, height int
	}{
		{"scrolled", canvas.Point{X: 3, Y: 2}, 30, 12},
		{"wider than what is left", canvas.Point{X: 25, Y: 0}, 30, 12},
		{"a corner", canvas.Point{}, 10, 3},
		{"nothing", canvas.Point{}, 0, 0},
	} {
		f := testFrame(40, 12)
		// At the top left, where every view shows them: no rune in a
		// style, a tab in one, a style holding a string.
		f.Canvas.SetCell(canvas.Point{X: 25, Y: 0}, canvas.Cell{Style: red})
		f.Canvas.SetCell(canvas.Point{X: 26, Y: 0}, canvas.NewCellWithStyle('\t', red))
		f.Canvas.SetCell(canvas.Point{X: 27, Y: 0}, canvas.NewCellWithStyle('a', lipgloss.NewStyle().SetString("x")))
		f.Canvas.SetCell(canvas.Point{X: 28, Y: 0}, canvas.NewCell('\t'))
		f.Canvas.SetCell(canvas.Point{X: 0, Y: 0}, canvas.Cell{Style: red})
		f.Canvas.SetCell(canvas.Point{X: 1, Y: 0}, canvas.NewCell('\t'))
		f.Canvas.SetCursor(c.cursor)
		f.Canvas.ViewWidth, f.Canvas.ViewHeight = c.width, c.height
		if got, want := f.View(), f.Canvas.View(); got != want {
			t.Errorf("%s: View\n%q\nwant the canvas's\n%q", c.name, got, want)
		}
	}
	f := testFrame(40, 12)
	f.Canvas.SetZoneManager(zone.New())
	if got, want := f.View(), f.Canvas.View(); got != want {
		t.Errorf("with a zone manager: View\n%q\nwant the canvas's\n%q", got, want)
	}
}

// BenchmarkView140x45 measures the frame's View at the dashboard's size,
// against the canvas's own (BenchmarkCanvasView140x45).
func BenchmarkView140x45(b *testing.B) {
	f := testFrame(140, 45)
	for b.Loop() {
		_ = f.View()
	}
}

func BenchmarkCanvasView140x45(b *testing.B) {
	f := testFrame(140, 45)
	for b.Loop() {
		_ = f.Canvas.View()
	}
}
