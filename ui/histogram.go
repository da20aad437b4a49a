package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/barchart"
	"github.com/NimbleMarkets/ntcharts/v2/sparkline"

	"github.com/rewardlens/rewardlens/stats"
)

// histogram is a titled histogram chart: ntcharts bars over
// Freedman-Diaconis bins (stats.FreedmanDiaconisBins), narrowed to what
// fits, a count axis on the left and the value axis below, its ticks at bin
// edges with the precision of the bin width.
type histogram struct {
	title string
	// quantity names the values: the value axis' caption.
	quantity string
	values   []float64
}

// barGap is the number of blank columns between two bars.
const barGap = 1

// view renders the chart in width x height cells: the title, the bars, the
// baseline, the tick labels and the caption.
func (h histogram) view(st *Styles, width, height int) string {
	title := st.Title.Render(h.title)
	// Bins are capped with the widest count label there can be (every
	// value in one bin), so that the bars fit whatever the counts are.
	plotHeight := height - 4 // title, baseline, ticks, caption
	plotWidth := width - len(strconv.Itoa(len(h.values))) - 2
	edges := stats.FreedmanDiaconisBins(h.values)
	if edges == nil {
		return title + "\n" + st.Muted.Render("no valid values")
	}
	if plotHeight < 1 || plotWidth < 1 {
		return title
	}
	edges = stats.CapBins(edges, (plotWidth+barGap)/(1+barGap))
	counts := stats.Histogram(h.values, edges)
	maxCount := slices.Max(counts)
	countWidth := len(strconv.Itoa(maxCount))
	plotWidth = width - countWidth - 2 // the count labels, a space, the axis
	barWidth := max((plotWidth+barGap)/len(counts)-barGap, 1)

	chart := barchart.New(plotWidth, plotHeight,
		barchart.WithNoAxis(),
		barchart.WithNoAutoBarWidth(),
		barchart.WithBarWidth(barWidth),
		barchart.WithBarGap(barGap),
		barchart.WithNoAutoMaxValue(),
		barchart.WithMaxValue(float64(max(maxCount, 1))),
	)
	for _, c := range counts {
		chart.Push(barchart.BarData{Values: []barchart.BarValue{{Value: float64(c), Style: st.Bar}}})
	}
	chart.Draw()

	bars := strings.Split(chart.View(), "\n")
	rows := make([]string, 0, height)
	rows = append(rows, title)
	for i, line := range bars {
		label, axis := "", "│"
		switch i {
		case 0:
			label, axis = strconv.Itoa(maxCount), "┤"
		case len(bars) - 1:
			label, axis = "0", "┤"
		}
		rows = append(rows, st.AxisLabel.Render(fmt.Sprintf("%*s ", countWidth, label))+st.Axis.Render(axis)+line)
	}
	pad := strings.Repeat(" ", countWidth+1)
	axisWidth := len(counts)*(barWidth+barGap) - barGap // to the last bar's right side
	baseline, ticks := valueAxis(edges, barWidth+barGap, axisWidth)
	rows = append(rows,
		pad+st.Axis.Render("└"+baseline),
		pad+" "+st.AxisLabel.Render(ticks),
		pad+" "+lipgloss.PlaceHorizontal(axisWidth, lipgloss.Center,
			st.AxisLabel.Render(h.quantity)+st.Muted.Render(fmt.Sprintf("  (n = %d, count per bin)", len(h.values)))),
	)
	return strings.Join(rows, "\n")
}

// valueAxis returns the baseline under bars pitch columns apart, width
// columns from the first bar's left side to the last one's right side, and
// the tick labels of their edges: the first and last edge always, the
// others where they fit without touching a neighbour. A labelled edge gets
// a ┬ on the baseline.
func valueAxis(edges []float64, pitch, width int) (baseline, ticks string) {
	k := len(edges) - 1
	step := edges[1] - edges[0]
	line := []rune(strings.Repeat("─", width))
	labels := []rune(strings.Repeat(" ", width))
	// position returns the column of edge i: the left side of bar i, and
	// for the last edge the right side of the last bar.
	position := func(i int) int {
		if i == k {
			return width - 1
		}
		return i * pitch
	}
	place := func(i, start int, text string) {
		copy(labels[start:], []rune(text))
		line[position(i)] = '┬'
	}
	last := formatTick(edges[k], step)
	lastStart := max(position(k)-len(last)+1, 0)
	place(k, lastStart, last)
	end := -1 // the column after the last label placed
	for i := range k {
		text := formatTick(edges[i], step)
		start := max(position(i)-len(text)/2, 0)
		if start <= end || start+len(text) >= lastStart {
			continue
		}
		place(i, start, text)
		end = start + len(text)
	}
	return string(line), string(labels)
}

// sparklineView draws the histogram of values as an ntcharts sparkline
// width columns wide: the Freedman-Diaconis bins capped to width, each
// stretched over the same number of columns.
func sparklineView(st *Styles, values []float64, width, height int) string {
	counts := stats.Histogram(values, stats.CapBins(stats.FreedmanDiaconisBins(values), width))
	if len(counts) == 0 {
		return st.Muted.Render("no valid values")
	}
	stretch := width / len(counts)
	chart := sparkline.New(stretch*len(counts), height,
		sparkline.WithStyle(st.Bar),
		sparkline.WithNoAutoMaxValue(),
		sparkline.WithMaxValue(float64(max(slices.Max(counts), 1))),
	)
	for _, c := range counts {
		for range stretch {
			chart.Push(float64(c))
		}
	}
	chart.Draw()
	return chart.View()
}
