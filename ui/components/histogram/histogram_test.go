package histogram

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/stats"
	"github.com/rewardlens/rewardlens/ui/common"
)

// TestHistogramCutsNoNumber draws a histogram narrower than its title and
// its caption: the title ends in an ellipsis, and the caption leaves out
// the bin's width rather than cut it.
func TestHistogramCutsNoNumber(t *testing.T) {
	values := []float64{0.1, 0.2, 0.2, 0.3, 0.35, 0.4, 0.5, 0.8}
	h := Histogram{Title: "Scores: s = Σ weight × objective (min goals negated)", Quantity: "score", Values: values}
	for _, width := range []int{30, 45, 80} {
		lines := strings.Split(ansi.Strip(h.View(common.NewStyles(true, true), width, 12)), "\n")
		if w := ansi.StringWidth(lines[0]); w > width || (w < ansi.StringWidth(h.Title) && !strings.HasSuffix(lines[0], "…")) {
			t.Errorf("width %d: title %q", width, lines[0])
		}
		caption := strings.TrimSpace(lines[len(lines)-1])
		if ansi.StringWidth(lines[len(lines)-1]) > width || !strings.HasPrefix(caption, "score") ||
			(strings.Contains(caption, "(") && !strings.HasSuffix(caption, ")")) {
			t.Errorf("width %d: caption %q", width, caption)
		}
	}
}

// TestBinsDrawAsTheValues: a histogram given its values' Bins for the
// width drawn draws what it draws binning them itself, for values of
// bins, of one value and of none; Bins of another width are not drawn.
func TestBinsDrawAsTheValues(t *testing.T) {
	st := common.NewStyles(true, true)
	for _, values := range [][]float64{
		{0.1, 0.2, 0.2, 0.3, 0.35, 0.4, 0.5, 0.8},
		{0.7, 0.7, 0.7},
		{math.NaN()},
	} {
		h := Histogram{Title: "Rewards", Quantity: "reward", Values: values}
		for _, width := range []int{8, 40, 80} {
			want := h.View(st, width, 12)
			binned := h
			bins := h.BinsOf(width)
			binned.Bins = &bins
			if got := binned.View(st, width, 12); got != want {
				t.Errorf("%v at %d: drawn from its bins\n%s\nwant\n%s", values, width, got, want)
			}
			wider := h.BinsOf(width + 20)
			binned.Bins = &wider
			if got := binned.View(st, width, 12); got != want {
				t.Errorf("%v at %d: drawn from the bins of %d\n%s\nwant\n%s", values, width, width+20, got, want)
			}
		}
	}
}

// TestDiscreteValuesKeepTheirBins: verl's scores -1, 0.5 and 1 fall in
// bins of 1 by Freedman-Diaconis, 0.5 and 1 together ([0, 1] is closed on
// the right); the bins become 0.5 wide, the last one above 1, so that each
// value has its own. Continuous values keep the Freedman-Diaconis bins.
func TestDiscreteValuesKeepTheirBins(t *testing.T) {
	scores := []float64{-1, -1, -1, -1, -1, -1, 0.5, 1, 1, 1, 1, 1}
	edges := NiceBins(scores, nil, 40)
	if want := []float64{-1, -0.5, 0, 0.5, 1, 1.5}; !slices.Equal(edges, want) {
		t.Fatalf("edges of -1, 0.5, 1 = %v, want %v", edges, want)
	}
	if counts := stats.Histogram(scores, edges); !slices.Equal(counts, []int{6, 0, 0, 1, 5}) {
		t.Errorf("counts = %v, want 6 0 0 1 5", counts)
	}
	// Tenths, whose multiples rounding puts on either side of an edge.
	tenths := []float64{0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.7, 0.7}
	if counts := stats.Histogram(tenths, NiceBins(tenths, nil, 40)); slices.Max(counts) != 2 {
		t.Errorf("tenths share a bin: %v", counts)
	}
	// A value on an edge is in the bin it starts: 0.6 in [0.6, 0.8), not
	// below a 3 × 0.2 of 0.6000000000000001.
	scores2 := []float64{0.25, 0.3, 0.3, 0.45, 0.6, 0.65, 0.7, 0.7}
	if edges := NiceBins(scores2, nil, 40); !slices.Equal(edges, []float64{0.2, 0.4, 0.6, 0.8}) || !slices.Equal(stats.Histogram(scores2, edges), []int{3, 1, 4}) {
		t.Errorf("edges %v, counts %v, want 0.2 0.4 0.6 0.8 and 3 1 4", edges, stats.Histogram(scores2, edges))
	}
	// Too many bins for the room: the Freedman-Diaconis ones stay.
	if edges := NiceBins(tenths, nil, 3); len(edges)-1 > 3 {
		t.Errorf("%d bins for 3 at most", len(edges)-1)
	}
	continuous := []float64{0.11, 0.23, 0.35, 0.42, 0.58, 0.61, 0.77, 0.93}
	if a, b := NiceBins(continuous, nil, 40), freedmanDiaconisBins(continuous, nil, 40); !slices.Equal(a, b) {
		t.Errorf("continuous values: %v, want Freedman-Diaconis's %v", a, b)
	}
	// A 0/1 objective: Freedman-Diaconis's one bin [0, 1] holds both.
	zeroOne := []float64{0, 0, 1, 1, 1}
	if fd := freedmanDiaconisBins(zeroOne, nil, 40); !slices.Equal(fd, []float64{0, 1}) {
		t.Fatalf("the Freedman-Diaconis bins of 0/1 are %v, the test expects them to merge 0 and 1", fd)
	}
	if got := NiceBins(zeroOne, nil, 40); !slices.Equal(got, []float64{0, 1, 2}) {
		t.Errorf("0/1 values: bins %v, want 0 1 2", got)
	}
}

func TestNiceAtMost(t *testing.T) {
	for x, want := range map[float64]float64{1: 1, 0.5: 0.5, 0.49: 0.25, 0.3: 0.25, 3: 2.5, 9.99: 5, 100: 100, 0.066: 0.05} {
		if got := niceAtMost(x); math.Abs(got-want) > 1e-12 {
			t.Errorf("niceAtMost(%v) = %v, want %v", x, got, want)
		}
	}
}

// TestConstantIsOneBar: a constant objective (all 0.9434) is one bar of
// all 128 values labelled with its value, not a bin of 0..1.
func TestConstantIsOneBar(t *testing.T) {
	values := make([]float64, 128)
	for j := range values {
		values[j] = 0.9434
	}
	h := Histogram{Title: "safety", Quantity: "safety", Values: values}
	view := ansi.Strip(h.View(common.NewStyles(true, true), 60, 10))
	for _, want := range []string{"all 0.9434", "128 ┤", "(n = 128, one value)"} {
		if !strings.Contains(view, want) {
			t.Errorf("the constant's histogram lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "count per bin") || strings.Contains(view, "1.0") {
		t.Errorf("the constant is drawn in bins:\n%s", view)
	}
	for _, line := range strings.Split(view, "\n") {
		if ansi.StringWidth(line) > 60 {
			t.Errorf("line %q wider than 60", line)
		}
	}
}

// TestValueAxisEndsNotCrowded: 10 bins of 0.1 drawn 8 columns apart
// (bars 7 wide and a gap) labelled every 0.1 put the last label, pushed
// inside the axis, 2 spaces from "0.9" where the others are 5 apart; the
// labels go every 0.2 instead, 0.0 and 1.0 labelled, no gap under half
// the widest.
func TestValueAxisEndsNotCrowded(t *testing.T) {
	var edges []float64
	for i := range 11 {
		edges = append(edges, float64(i)/10)
	}
	_, ticks := ValueAxis(edges, 8, 10*8-1)
	labels := strings.Fields(ticks)
	if len(labels) == 0 || labels[0] != "0.0" || labels[len(labels)-1] != "1.0" || slices.Contains(labels, "0.9") {
		t.Fatalf("ValueAxis labels %q, want 0.0 to 1.0 by 0.2", ticks)
	}
	var gaps []int
	for _, gap := range strings.FieldsFunc(strings.TrimSpace(ticks), func(r rune) bool { return r != ' ' }) {
		gaps = append(gaps, len(gap))
	}
	if slices.Min(gaps) < (slices.Max(gaps)+1)/2 {
		t.Errorf("ValueAxis gaps %v crowd an end: %q", gaps, ticks)
	}
}

// Values an ulp apart, or at the ends of the floats, are drawn: a width
// whose multiples are past what NiceMultiple makes exactly is not taken
// (slices.Max of no bins panicked), and an infinite width ends.
func TestHistogramOfExtremes(t *testing.T) {
	st := common.NewStyles(true, true)
	for _, values := range [][]float64{
		{13, 13, math.Nextafter(13, 14), math.Nextafter(13, 14)},
		{2.5, 2.5, math.Nextafter(2.5, 3), math.Nextafter(2.5, 3)},
		{-1e308, -1e308, 1e308, 1e308},
	} {
		for _, width := range []int{20, 60, 120} {
			if v := (Histogram{Title: "x", Values: values}).View(st, width, 12); v == "" {
				t.Errorf("%v at %d: nothing drawn", values, width)
			}
		}
	}
}

// TestEdgeLabelsExact: at every pitch, the labels of bins of 0.2 on [0, 1]
// (and of other widths and ranges) are distinct, each within half a bin
// of its edge, at least one of them. Labelled with the decimals of the
// whole axis (1) when 0.2 did not fit, they read "0 0 0 1 1 1".
func TestEdgeLabelsExact(t *testing.T) {
	for _, r := range []struct{ lo, bin float64 }{
		{0, 0.2}, {0, 0.1}, {0, 0.25}, {0, 0.5}, {-1, 0.2}, {-0.3, 0.05},
		{0.9, 0.05}, {1000, 0.5}, {0, 5}, {-2, 0.25}, {0.001, 0.001},
	} {
		for bins := 1; bins <= 12; bins++ {
			edges := chart.NiceMultiples(chart.MultipleBelow(r.lo, r.bin), chart.MultipleBelow(r.lo, r.bin)+float64(bins), r.bin)
			for pitch := 1; pitch <= 14; pitch++ {
				width := bins * pitch
				labels := edgeLabels(edges, pitch, width)
				widest := max(len(chart.Format(edges[0], 3)), len(chart.Format(edges[bins], 3)))
				if width > 2*widest && len(labels) == 0 {
					t.Errorf("%v at pitch %d: no label", edges, pitch)
				}
				seen := map[string]bool{}
				for _, l := range labels {
					v, err := strconv.ParseFloat(l.text, 64)
					if err != nil || math.Abs(v-edges[l.edge]) > r.bin/2 {
						t.Errorf("%v at pitch %d: edge %v labelled %q", edges, pitch, edges[l.edge], l.text)
					}
					if seen[l.text] {
						t.Errorf("%v at pitch %d: label %q twice", edges, pitch, l.text)
					}
					seen[l.text] = true
				}
			}
		}
	}
}
