// Package histogram draws the distributions of values: a histogram chart
// with its axes, and a sparkline of the same bins.
package histogram

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/barchart"
	"github.com/NimbleMarkets/ntcharts/v2/sparkline"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/stats"
	"github.com/rewardlens/rewardlens/ui/common"
)

// Histogram is a titled histogram chart: ntcharts bars over bins of a
// nice width (chart.NiceBins: the Freedman-Diaconis width of
// stats.FreedmanDiaconisBins rounded up to 1, 2, 2.5 or 5 times a power
// of ten, widened to what fits), a count axis on the left with nice
// ticks, and the value axis below, labelled at regular nice edges.
type Histogram struct {
	// Title is drawn above the chart.
	Title string
	// Quantity names the values: the value axis' caption.
	Quantity string
	// Values are what the bins count.
	Values []float64
	// Summary, when not nil, is the values' summary (the batch's
	// statistics hold it): the bins come from its quartiles rather than
	// from selecting them among the values again.
	Summary *stats.Summary
	// Bins, when not nil, are the values binned for a width (BinsOf),
	// which View draws at that width rather than bin them again: binned
	// off the event loop.
	Bins *Bins
}

// Bins is what a Histogram draws of its values at one width: their bins
// and each bin's count, or the one value they all are.
type Bins struct {
	// Width is the width in cells the bins were chosen for.
	Width int
	// Edges are NiceBins' for that width, nil when no value is finite.
	Edges []float64
	// Counts are stats.Histogram's over Edges, nil when the values are
	// Constant.
	Counts []int
	// Constant, when IsConstant, is every finite value.
	Constant   float64
	IsConstant bool
}

// BinsOf bins h's values as View draws them in width cells.
func (h Histogram) BinsOf(width int) Bins {
	b := Bins{Width: width}
	// Bins are capped with the widest count label there can be (every
	// value in one bin), so that the bars fit whatever the counts are.
	plotWidth := width - len(strconv.Itoa(len(h.Values))) - 2
	if b.Edges = NiceBins(h.Values, h.Summary, max((plotWidth+barGap)/(1+barGap), 1)); b.Edges == nil {
		return b
	}
	if b.Constant, b.IsConstant = Constant(h.Values); !b.IsConstant {
		b.Counts = stats.Histogram(h.Values, b.Edges)
	}
	return b
}

// barGap is the number of blank columns between two bars.
const barGap = 1

// NiceBins returns the bins Histogram and Sparkline draw of values: the
// Freedman-Diaconis width made nice, at most maxBins of them; nil when
// no value is finite. summary, when not nil, is the values' (see
// Histogram.Summary). When the values are a small discrete set (see
// discreteBins) that those bins would merge, as a score of -1, 0.5 and 1
// in bins of 1 puts 0.5 and 1 together, each value gets a bin of its own.
func NiceBins(values []float64, summary *stats.Summary, maxBins int) []float64 {
	edges := freedmanDiaconisBins(values, summary, maxBins)
	if edges == nil {
		return nil
	}
	if distinct := smallDiscreteSet(values); distinct != nil && !separates(edges, distinct) {
		if own := discreteBins(distinct, maxBins); own != nil {
			return own
		}
	}
	return edges
}

// maxDiscreteValues is the most distinct values a small discrete set has.
const maxDiscreteValues = 16

// smallDiscreteSet returns the distinct finite values, ascending, when
// there are at least 2 and at most maxDiscreteValues of them and they
// repeat (n ≥ 2 × distinct: a rule-based score, not a continuous reward
// that happens to be short); nil otherwise. It stops at the first value
// too many.
func smallDiscreteSet(values []float64) []float64 {
	var distinct []float64
	finite := 0
	last := math.NaN() // the value before, most often the same again
	for _, v := range values {
		if v == last {
			finite++
			continue
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		finite++
		last = v
		if !slices.Contains(distinct, v) {
			if len(distinct) == maxDiscreteValues {
				return nil
			}
			distinct = append(distinct, v)
		}
	}
	if len(distinct) < 2 || finite < 2*len(distinct) {
		return nil
	}
	slices.Sort(distinct)
	return distinct
}

// separates says whether edges' bins hold at most one of the distinct
// values each.
func separates(edges, distinct []float64) bool {
	return slices.Max(stats.Histogram(distinct, edges)) <= 1
}

// discreteBins returns bins of a nice width w no wider than the smallest
// gap between the ascending distinct values, from the multiple of w at or
// below the least to the one above the greatest (so that the greatest
// does not share the last bin, closed on the right, with its neighbour),
// narrowed while rounding puts two values in one bin; nil when more than
// maxBins would be needed.
func discreteBins(distinct []float64, maxBins int) []float64 {
	gap := math.Inf(1)
	for i := 1; i < len(distinct); i++ {
		gap = min(gap, distinct[i]-distinct[i-1])
	}
	lo, hi := distinct[0], distinct[len(distinct)-1]
	for w := niceAtMost(gap * (1 + 1e-9)); w > 0; w = niceAtMost(w * (1 - 1e-9)) {
		a, b := chart.MultipleBelow(lo, w), chart.MultipleBelow(hi, w)+1
		if b-a > float64(maxBins) || !chart.MultiplesExact(a, b, w) {
			return nil
		}
		if edges := chart.NiceMultiples(a, b, w); separates(edges, distinct) {
			return edges
		}
	}
	return nil
}

// niceAtMost returns the greatest nice number (1, 2, 2.5 or 5 times a
// power of ten) at most x > 0.
func niceAtMost(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2.5, 2, 1} {
		if m*p <= x {
			return m * p
		}
	}
	return 5 * p / 10 // Log10 rounded x's exponent up
}

// freedmanDiaconisBins is the Freedman-Diaconis width made nice (see
// NiceBins).
func freedmanDiaconisBins(values []float64, summary *stats.Summary, maxBins int) []float64 {
	var fd []float64
	if summary != nil && summary.Count == len(values) && !math.IsInf(summary.Min, 0) && !math.IsInf(summary.Max, 0) {
		fd = stats.FreedmanDiaconisBinsOf(*summary)
	} else {
		fd = stats.FreedmanDiaconisBins(values)
	}
	if fd == nil {
		return nil
	}
	lo, hi := fd[0], fd[len(fd)-1]
	width := fd[1] - fd[0]
	if len(fd) == 2 && width == 1 { // all equal: FreedmanDiaconisBins centres one unit bin on them
		lo, hi = lo+0.5, lo+0.5
	}
	return chart.NiceBins(lo, hi, width, maxBins)
}

// View renders the chart in width x height cells: the title, the bars, the
// baseline, the tick labels and the caption.
func (h Histogram) View(st *common.Styles, width, height int) string {
	title := st.Title.Render(common.FitWords(h.Title, width))
	plotHeight := height - 4 // title, baseline, ticks, caption
	bins := h.Bins
	if bins == nil || bins.Width != width {
		b := h.BinsOf(width)
		bins = &b
	}
	edges, counts := bins.Edges, bins.Counts
	if edges == nil {
		return title + "\n" + st.Muted.Render("no valid values")
	}
	if plotWidth := width - len(strconv.Itoa(len(h.Values))) - 2; plotHeight < 1 || plotWidth < 1 {
		return title
	}
	if bins.IsConstant {
		return title + "\n" + h.constantView(st, bins.Constant, width, plotHeight)
	}
	// Cell 0 of the count axis is the baseline; cell r, row r of the bars
	// from the bottom, where a bar of r units of counts ends.
	axis := chart.Fit(0, float64(slices.Max(counts)), plotHeight+1, chart.Options{NonNegative: true, Integer: true})
	labels := make(map[int]string)
	for _, t := range axis.Ticks() {
		labels[t.Cell] = t.Label
	}
	countWidth := axis.LabelWidth()
	plotWidth := width - countWidth - 2 // the count labels, a space, the axis
	barWidth := max((plotWidth+barGap)/len(counts)-barGap, 1)

	bc := barchart.New(plotWidth, plotHeight,
		barchart.WithNoAxis(),
		barchart.WithNoAutoBarWidth(),
		barchart.WithBarWidth(barWidth),
		barchart.WithBarGap(barGap),
		barchart.WithNoAutoMaxValue(),
		barchart.WithMaxValue(axis.Unit*float64(plotHeight)),
	)
	for _, c := range counts {
		bc.Push(barchart.BarData{Values: []barchart.BarValue{{Value: float64(c), Style: st.Bar}}})
	}
	bc.Draw()

	bars := strings.Split(bc.View(), "\n")
	rows := make([]string, 0, height)
	rows = append(rows, title)
	for i, line := range bars {
		label, tick := labels[len(bars)-i], "│"
		if label != "" {
			tick = "┤"
		}
		rows = append(rows, st.AxisLabel.Render(fmt.Sprintf("%*s ", countWidth, label))+st.Axis.Render(tick)+line)
	}
	pad := strings.Repeat(" ", countWidth+1)
	axisWidth := len(counts)*(barWidth+barGap) - barGap // to the last bar's right side
	baseline, ticks := ValueAxis(edges, barWidth+barGap, axisWidth)
	rows = append(rows,
		st.AxisLabel.Render(fmt.Sprintf("%*s ", countWidth, labels[0]))+st.Axis.Render("└"+baseline),
		pad+" "+st.AxisLabel.Render(ticks),
		pad+" "+lipgloss.PlaceHorizontal(axisWidth, lipgloss.Center, st.AxisLabel.Render(h.Quantity)+st.Muted.Render(h.note(edges, plotWidth))),
	)
	return strings.Join(rows, "\n")
}

// Constant returns the value of values when every finite one is that
// value (and there is one), which a histogram draws as one bar labelled
// with it: bins around a constant would label it by a range it fills
// one bin of.
func Constant(values []float64) (float64, bool) {
	c, seen := 0.0, false
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if seen && v != c {
			return 0, false
		}
		c, seen = v, true
	}
	return c, seen
}

// ConstantLabel labels a constant's bar: "all 0.9434".
func ConstantLabel(c float64) string { return "all " + common.FormatValue(c) }

// constantView draws the constant c as one bar of every value, plotHeight
// rows tall, on a count axis from 0 to n, labelled with c under it.
func (h Histogram) constantView(st *common.Styles, c float64, width, plotHeight int) string {
	n := strconv.Itoa(len(h.Values))
	label := ConstantLabel(c)
	barWidth := min(max(len(label), 4), max(width-len(n)-2, 1))
	rows := make([]string, 0, plotHeight+3)
	for r := range plotHeight {
		count, tick := "", "│"
		if r == 0 {
			count, tick = n, "┤"
		}
		rows = append(rows, st.AxisLabel.Render(fmt.Sprintf("%*s ", len(n), count))+st.Axis.Render(tick)+st.Bar.Render(strings.Repeat("█", barWidth)))
	}
	pad := strings.Repeat(" ", len(n)+1)
	rows = append(rows,
		st.AxisLabel.Render(fmt.Sprintf("%*s ", len(n), "0"))+st.Axis.Render("└"+strings.Repeat("─", barWidth)),
		pad+" "+st.AxisLabel.Render(ansi.Truncate(label, max(width-len(pad)-1, 1), "…")),
		pad+" "+ansi.Truncate(st.AxisLabel.Render(h.Quantity)+st.Muted.Render(fmt.Sprintf("  (n = %d, one value)", len(h.Values))), max(width-len(pad)-1, 1), "…"),
	)
	return strings.Join(rows, "\n")
}

// note is what the caption says after the quantity, "  (n = 128, count per
// bin of 0.5)", without the bin or at all when the plot is too narrow for
// it: a note cut short would cut its numbers.
func (h Histogram) note(edges []float64, width int) string {
	bin := chart.Format(edges[1]-edges[0], chart.StepDecimals(edges[1]-edges[0]))
	for _, note := range []string{
		fmt.Sprintf("  (n = %d, count per bin of %s)", len(h.Values), bin),
		fmt.Sprintf("  (n = %d)", len(h.Values)),
	} {
		if ansi.StringWidth(h.Quantity+note) <= width {
			return note
		}
	}
	return ""
}

// ValueAxis returns the baseline under bars pitch columns apart, width
// columns from the first bar's left side to the last one's right side, and
// the labels of their edges (edgeLabels). A labelled edge gets a ┬ on the
// baseline.
func ValueAxis(edges []float64, pitch, width int) (baseline, ticks string) {
	line := []rune(strings.Repeat("─", width))
	labels := []rune(strings.Repeat(" ", width))
	for _, l := range edgeLabels(edges, pitch, width) {
		copy(labels[l.start:], []rune(l.text))
		line[l.column] = '┬'
	}
	return string(line), string(labels)
}

// edgeLabel is a labelled edge of a value axis: its column, where its
// text starts, and its text.
type edgeLabel struct {
	edge, column, start int
	text                string
}

// edgeLabels chooses the labelled edges of bars pitch columns apart, width
// columns from the first bar's left side to the last one's right side:
// every edge that is a multiple of the smallest nice multiple of the bin
// width (edges[1] − edges[0]), short of the whole axis, whose labels fit
// without touching, 2 of them at least, so that they are regularly
// spaced, each written with the decimals of that multiple (exact: the
// edges are multiples of the bin). When none fits, the first fit whose end
// label crowds its neighbour; else the first and last edges alone, with
// the decimals of the bin: labels that fit only with fewer decimals than
// their values need would read 0.2 and 0.4 as "0", "0" three times.
func edgeLabels(edges []float64, pitch, width int) []edgeLabel {
	k := len(edges) - 1
	bin := edges[1] - edges[0]
	// position returns the column of edge i: the left side of bar i, and
	// for the last edge the right side of the last bar.
	position := func(i int) int {
		if i == k {
			return width - 1
		}
		return i * pitch
	}
	// place lays out the labels of the edges chosen, up to the first
	// that would touch the one before; fits says whether all of them did.
	place := func(chosen []int, text func(float64) string) (placed []edgeLabel, fits bool) {
		end := -1 // the column after the last label placed
		for _, i := range chosen {
			t := text(edges[i])
			start := min(max(position(i)-len(t)/2, 0), width-len(t))
			if start <= end || start < 0 {
				return placed, false
			}
			placed = append(placed, edgeLabel{edge: i, column: position(i), start: start, text: t})
			end = start + len(t)
		}
		return placed, true
	}
	var crowded []edgeLabel
	for stride := 1; stride < k; stride++ {
		step := float64(stride) * bin
		if !chart.IsNice(step) {
			continue
		}
		var chosen []int
		for i := 0; i <= k; i++ {
			if q := edges[i] / step; math.Abs(q-math.Round(q)) <= 1e-6 {
				chosen = append(chosen, i)
			}
		}
		d := chart.StepDecimals(step)
		placed, fits := place(chosen, func(v float64) string { return chart.Format(v, d) })
		// One label reads as no axis: a wider stride, or the ends.
		if !fits || len(placed) < 2 {
			continue
		}
		// An end label pushed inside the axis must not crowd its
		// neighbour ("1.9  2.0" under labels 8 apart): at least 2 spaces,
		// and half the widest gap; a crowded fit is kept should no
		// wider stride fit.
		gaps := make([]int, len(placed)-1)
		for j := range gaps {
			gaps[j] = placed[j+1].start - placed[j].start - len(placed[j].text)
		}
		if slices.Min(gaps) >= max(2, (slices.Max(gaps)+1)/2) {
			return placed
		}
		if crowded == nil {
			crowded = placed
		}
	}
	if crowded != nil {
		return crowded
	}
	text := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) } // a bin of no nice width: lo to hi
	if chart.IsNice(bin) {
		d := chart.StepDecimals(bin)
		text = func(v float64) string { return chart.Format(v, d) }
	}
	placed, _ := place([]int{0, k}, text)
	return placed
}

// Sparkline draws the counts of values in edges' bins as an ntcharts
// sparkline width columns wide, each bin stretched over the same number
// of columns.
func Sparkline(st *common.Styles, values, edges []float64, width, height int) string {
	counts := stats.Histogram(values, edges)
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

// BinsCaption says the range and width of edges' bins: "0.00 … 1.00 in
// bins of 0.05".
func BinsCaption(edges []float64) string {
	if len(edges) < 2 {
		return ""
	}
	w := edges[1] - edges[0]
	d := chart.StepDecimals(w)
	return fmt.Sprintf("%s … %s in bins of %s", chart.Format(edges[0], d), chart.Format(edges[len(edges)-1], d), chart.Format(w, d))
}
