package chart

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

func labels(a Axis) []string {
	var s []string
	for _, t := range a.Ticks() {
		s = append(s, t.Label)
	}
	return s
}

// TestFitTicks checks hand-computed axes. Each case's comment works the
// unit out: Span pads 5% of hi − lo on each side, and Fit takes the finest
// unit = step/every (step nice, every from MinGap to 2·MinGap+1) whose
// cells − 1 units cover it, centred.
func TestFitTicks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lo, hi   float64
		cells    int
		o        Options
		min, max float64
		labels   []string
	}{
		// Span 0.79135..0.95965 (0.1683) in 9 units: unit ≥ 0.0187; 0.1/5 =
		// 0.02 is the finest (0.05/2 = 0.025, 0.2/... coarser). Centred:
		// (0.8755/0.02 − 4.5) rounds to 39: 0.78..0.96.
		{"sample's std, 10 rows", 0.799, 0.952, 10, Options{}, 0.78, 0.96, []string{"0.8", "0.9"}},
		// Constant 27745.6: Span ± 5000, 10000 in 9 units: unit ≥ 1111; 2500/2
		// = 1250 is the finest. Centred on 27745.6/1250 − 4.5 = 17.7 → 18.
		{"one batch's big constant", 27745.6, 27745.6, 10, Options{}, 22500, 33750, []string{"22500", "25000", "27500", "30000", "32500"}},
		// Zero, non-negative: Span [0, 1]; 1 in 9 units: 0.25/2 = 0.125.
		{"a fraction constant at 0", 0, 0, 10, Options{NonNegative: true}, 0, 1.125, []string{"0.00", "0.25", "0.50", "0.75", "1.00"}},
		// Constant 0.25: Span 0.2..0.3 in 9 units: unit ≥ 0.0111; 0.025/2 = 0.0125.
		{"a fraction constant at 0.25", 0.25, 0.25, 10, Options{NonNegative: true}, 0.2, 0.3125, []string{"0.200", "0.225", "0.250", "0.275", "0.300"}},
		// Steps 0..49, non-negative, integer: Span 0..51.45 in 59 units: unit ≥
		// 0.872; labels 2 wide, so every ≥ 3: step 5 over 5 cells = 1 is the
		// finest whole step (2/2 = 1 has every 2 < 3). Starts at 0.
		{"50 steps across 60 columns", 0, 49, 60, Options{NonNegative: true, Integer: true, LabelGap: true}, 0, 59,
			[]string{"0", "5", "10", "15", "20", "25", "30", "35", "40", "45", "50", "55"}},
		// One step, 0: Span [−1, 1] (a whole quantity's 0 stays in the
		// middle); labels 1 wide, every ≥ 2: 1/2 per cell (step 1, every 2)
		// covers 2 in 4 units; centred on 0: −2..2, the negative ticks
		// dropped.
		{"one step", 0, 0, 5, Options{NonNegative: true, Integer: true, LabelGap: true}, -1, 1, []string{"0", "1"}},
		// A whole constant, 4 (a frontier size in every batch), with three
		// ticks wanted: shown as 3..5, 2 in 4 units: step 1 every 2 cells
		// (0.5) is the finest that covers; ticks on cells 0, 2, 4.
		{"a whole constant, 3 ticks", 4, 4, 5, Options{NonNegative: true, Integer: true, MinTicks: 3}, 3, 5, []string{"3", "4", "5"}},
		// Counts 0..30 in 27 cells: Span 0..31.5, unit ≥ 1.2115: 2.5 every
		// 2 cells (1.25) is the finest unit, but its ticks 2.5, 7.5... are
		// not whole: 5 every 4 cells, the same unit. Starts at 0.
		{"counts up to 30", 0, 30, 27, Options{NonNegative: true, Integer: true}, 0, 32.5,
			[]string{"0", "5", "10", "15", "20", "25", "30"}},
		// The sample's safety mean from step 0 to 1: Span 0.94151..0.94349
		// (0.00198) in 6 units: unit ≥ 0.00033; 0.002/5 = 0.0004 is the
		// finest that places (0.001/3 leaves 0.94349 out), and its one
		// tick, at 0.942, makes a 0.0018 drop fill the chart.
		{"a narrow range, 7 rows", 0.9416, 0.9434, 7, Options{}, 0.9412, 0.9436, []string{"0.942"}},
		// With three ticks wanted: 0.001/2 = 0.0005 is the finest with
		// three or more (0.002/5 has at most 2 in 7 cells). Centred:
		// 0.9425/0.0005 − 3 = 1882, even: ticks on cells 0, 2, 4, 6.
		{"a narrow range, 7 rows, 3 ticks", 0.9416, 0.9434, 7, Options{MinTicks: 3}, 0.941, 0.944,
			[]string{"0.941", "0.942", "0.943", "0.944"}},
		// 5 rows need every 2 from an even origin. 0.001/2 places at 1883
		// only (0.9415..0.9435), odd: 2 ticks. 0.002/2 = 0.001 centres at
		// 941, odd; 940 covers too (0.940..0.944) and has 3.
		{"a narrow range, 5 rows, 3 ticks", 0.9416, 0.9434, 5, Options{MinTicks: 3}, 0.94, 0.944,
			[]string{"0.940", "0.942", "0.944"}},
		// Span 0.771..0.969 in 4 units: 0.1/2 = 0.05 places nowhere (0.75..0.95
		// and 0.8..1.0 each leave an end out); 0.2/2 = 0.1 centres at 7
		// (0.7..1.1, 2 ticks), 6 covers with 3.
		{"the sample's safety, 5 rows, 3 ticks", 0.78, 0.96, 5, Options{MinTicks: 3}, 0.6, 1.0, []string{"0.6", "0.8", "1.0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Fit(tc.lo, tc.hi, tc.cells, tc.o)
			if math.Abs(a.Min-tc.min) > 1e-9 || math.Abs(a.Max()-tc.max) > 1e-9 || !slices.Equal(labels(a), tc.labels) {
				t.Errorf("Fit(%v, %v, %d) = %v..%v ticks %q, want %v..%v ticks %q",
					tc.lo, tc.hi, tc.cells, a.Min, a.Max(), labels(a), tc.min, tc.max, tc.labels)
			}
		})
	}
}

func TestStepDecimals(t *testing.T) {
	for _, tc := range []struct {
		step float64
		want int
	}{{1000, 0}, {25, 0}, {2.5, 1}, {5, 0}, {0.5, 1}, {0.25, 2}, {0.2, 1}, {0.1, 1}, {0.01, 2}, {0.025, 3}, {1e-4, 4}} {
		if got := StepDecimals(tc.step); got != tc.want {
			t.Errorf("StepDecimals(%v) = %d, want %d", tc.step, got, tc.want)
		}
	}
}

func TestFormatHasNoNegativeZero(t *testing.T) {
	if got := Format(-1e-17, 2); got != "0.00" {
		t.Errorf("Format(-1e-17, 2) = %q, want 0.00", got)
	}
	if got := Format(-0.5, 1); got != "-0.5" {
		t.Errorf("Format(-0.5, 1) = %q", got)
	}
}

func TestSpan(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		nonNeg bool
		wantLo float64
		wantHi float64
	}{
		{0, 10, false, -0.5, 10.5},
		{0, 10, true, 0, 10.5},
		{0.4, 0.4, true, 0.35, 0.45},
		{-3, -3, false, -3.5, -2.5},
		{0, 0, false, -1, 1},
		{0, 0, true, 0, 1},
		{math.Inf(1), math.Inf(-1), false, 0, 1},
	} {
		lo, hi := Span(tc.lo, tc.hi, tc.nonNeg)
		if math.Abs(lo-tc.wantLo) > 1e-12 || math.Abs(hi-tc.wantHi) > 1e-12 {
			t.Errorf("Span(%v, %v, %v) = %v, %v, want %v, %v", tc.lo, tc.hi, tc.nonNeg, lo, hi, tc.wantLo, tc.wantHi)
		}
	}
}

// TestFitProperties: on random ranges, the step is nice, ticks are Every
// cells apart, on multiples of the step, labelled with its decimals, the
// axis covers the data with the extremes off its ends, a non-negative
// axis shows no negative value, and a constant lies in the middle.
func TestFitProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		scale := math.Pow(10, float64(rng.IntN(12)-6))
		lo := (rng.Float64()*2 - 1) * scale * 10
		hi := lo + rng.Float64()*scale
		if i%10 == 0 {
			hi = lo
		}
		o := Options{MinGap: 1 + rng.IntN(4), NonNegative: lo >= 0 && rng.IntN(2) == 0, LabelGap: rng.IntN(2) == 0, MinTicks: rng.IntN(4)}
		cells := 4 + rng.IntN(150)
		a := Fit(lo, hi, cells, o)
		ticks := a.Ticks()
		fail := func(format string, args ...any) {
			t.Fatalf("Fit(%v, %v, %d, %+v) = %+v: "+format, append([]any{lo, hi, cells, o, a}, args...)...)
		}
		if !IsNice(a.Step) {
			fail("step %v is not nice", a.Step)
		}
		if a.Every < max(o.MinGap, 1) {
			fail("ticks %d cells apart, want ≥ %d", a.Every, o.MinGap)
		}
		if math.Abs(a.Step-float64(a.Every)*a.Unit) > 1e-9*a.Step {
			fail("step %v ≠ every × unit", a.Step)
		}
		if len(ticks) == 0 {
			fail("no tick")
		}
		// MinTicks ticks fit at MinGap from any origin in this many cells.
		if hi > lo && !o.LabelGap && cells >= o.MinTicks*o.MinGap && len(ticks) < o.MinTicks {
			fail("%d ticks, want %d", len(ticks), o.MinTicks)
		}
		for k, tk := range ticks {
			if k > 0 && tk.Cell-ticks[k-1].Cell != a.Every {
				fail("ticks %v: not regular", ticks)
			}
			if q := tk.Value / a.Step; math.Abs(q-math.Round(q)) > 1e-6 {
				fail("tick %v not a multiple of the step", tk.Value)
			}
			if math.Abs(a.Value(float64(tk.Cell))-tk.Value) > 1e-6*a.Step {
				fail("tick %v drawn at cell %d, which shows %v", tk.Value, tk.Cell, a.Value(float64(tk.Cell)))
			}
			if tk.Label != Format(tk.Value, StepDecimals(a.Step)) {
				fail("label %q", tk.Label)
			}
			// Read back, a label is its tick's value, and no other's.
			if v, err := strconv.ParseFloat(tk.Label, 64); err != nil || math.Abs(v-tk.Value) > a.Step/2 {
				fail("label %q of tick %v", tk.Label, tk.Value)
			}
			if k > 0 && tk.Label == ticks[k-1].Label {
				fail("label %q twice", tk.Label)
			}
			if o.LabelGap && len(ticks) > 1 && len(tk.Label) >= a.Every {
				fail("label %q wider than the gap %d", tk.Label, a.Every)
			}
		}
		if a.Min > lo || a.Max() < hi {
			fail("%v..%v does not cover %v..%v", a.Min, a.Max(), lo, hi)
		}
		if hi > lo && (a.Pos(lo) < 0 || a.Pos(hi) > float64(cells-1)) {
			fail("data outside the cells")
		}
		if o.NonNegative && a.Min < -1e-12*scale {
			fail("non-negative axis starts at %v", a.Min)
		}
		if hi == lo && lo != 0 {
			if mid := a.Pos(lo); math.Abs(mid-float64(cells-1)/2) > 1 {
				fail("constant at cell %v of %d, not in the middle", mid, cells)
			}
		}
	}
}

func TestFitRangeCoversTheView(t *testing.T) {
	a := FitRange(0.31, 0.47, 20, Options{})
	if a.Min > 0.31 || a.Max() < 0.47 || !IsNice(a.Step) {
		t.Errorf("FitRange(0.31, 0.47) = %+v", a)
	}
}

func TestNiceBins(t *testing.T) {
	for _, tc := range []struct {
		name          string
		lo, hi, width float64
		maxBins       int
		want          []float64
	}{
		// FD width 0.137 is nearest 0.1: 26 bins, more than 20; 0.2 gives 13.
		{"rewards", -0.93, 1.52, 0.137, 20, []float64{-1, -0.8, -0.6, -0.4, -0.2, 0, 0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6}},
		// At most 5: 0.2 gives 13, 0.25 11, 0.5 6, 1 gives 3.
		{"capped", -0.93, 1.52, 0.137, 5, []float64{-1, 0, 1, 2}},
		// Already nice: the maximum on an edge closes the last bin.
		{"on edges", 0, 1, 0.25, 10, []float64{0, 0.25, 0.5, 0.75, 1}},
		// A constant: Span(3, 3) is 2.5..3.5; at width 1, from 2 to 4.
		{"constant", 3, 3, 1, 4, []float64{2, 3, 4}},
	} {
		got := NiceBins(tc.lo, tc.hi, tc.width, tc.maxBins)
		if len(got) != len(tc.want) {
			t.Errorf("%s: NiceBins = %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-12 {
				t.Errorf("%s: NiceBins = %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
	if NiceBins(math.NaN(), 1, 1, 3) != nil {
		t.Error("NiceBins of NaN is not nil")
	}
}

// Cell is the floor of the position plus a half, also below the axis,
// for NaN and beyond int's range, without calling math.Floor.
func TestCellIsTheFloor(t *testing.T) {
	a := Axis{Min: -3, Unit: 0.25, Cells: 40}
	rng := rand.New(rand.NewPCG(3, 5))
	values := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, -3.125, -3.124999, -3, -2.875, 0, math.Copysign(0, -1), 7}
	for range 10_000 {
		values = append(values, (rng.Float64()-0.5)*30)
	}
	for _, v := range values {
		if got, want := a.Cell(v), int(math.Floor(a.Pos(v)+0.5)); got != want {
			t.Errorf("Cell(%v) = %d, want %d", v, got, want)
		}
	}
}

// FitSteps spreads a run's steps over the width, on whole nice ticks: the
// first step in the first fifth of the cells, the last in the last
// quarter, for runs of 2 to 1,000 steps starting at 0 or 1 at several
// widths.
func TestFitStepsFillsTheWidth(t *testing.T) {
	for _, cols := range []int{40, 80, 135} {
		for _, first := range []float64{0, 1} {
			for _, n := range []float64{2, 5, 40, 1000} {
				last := first + n - 1
				a := FitSteps(first, last, cols)
				lo, hi := a.Cell(first), a.Cell(last)
				if lo > cols/5 || hi < cols*3/4 || hi >= cols || !IsNice(a.Step) || a.Step != math.Trunc(a.Step) {
					t.Errorf("steps %v..%v in %d cells: at cells %d..%d, step %v", first, last, cols, lo, hi, a.Step)
				}
			}
		}
	}
}

// NiceMultiple is the float64 nearest the decimal k × w, which Format
// labels the edge with: parsed from that decimal, written exactly, for k
// from -500 to 500 and every nice width from 0.001 to 500 (3 × 0.2 is
// 0.6). MultipleBelow is the greatest k whose multiple is at or below x,
// x a multiple itself or between two.
func TestNiceMultiple(t *testing.T) {
	for e := -3; e <= 2; e++ {
		for _, m := range []int64{10, 20, 25, 50} { // tenths of the mantissa: 2.5 is 25e-1
			w := float64(m) * math.Pow(10, float64(e-1))
			for k := int64(-500); k <= 500; k++ {
				want, err := strconv.ParseFloat(fmt.Sprintf("%de%d", k*m, e-1), 64)
				if err != nil {
					t.Fatal(err)
				}
				if got := NiceMultiple(float64(k), w); got != want {
					t.Fatalf("NiceMultiple(%d, %v) = %v, want %v", k, w, got, want)
				}
				if got := MultipleBelow(want, w); got != float64(k) {
					t.Errorf("MultipleBelow(%v, %v) = %v, want %d", want, w, got, k)
				}
				if got := MultipleBelow(math.Nextafter(want, math.Inf(-1)), w); got != float64(k-1) {
					t.Errorf("MultipleBelow(just under %v, %v) = %v, want %d", want, w, got, k-1)
				}
			}
		}
	}
}

// NiceBins ends when no nice width fits: a range across 0 in one bin is
// that one bin, lo to hi; so is a huge range.
func TestNiceBinsThatCannotFit(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{-0.3, 0.4}, {-1e300, 1e300}} {
		if got := NiceBins(c.lo, c.hi, 0.1, 1); !slices.Equal(got, []float64{c.lo, c.hi}) {
			t.Errorf("NiceBins(%v, %v, 0.1, 1) = %v, want one bin", c.lo, c.hi, got)
		}
	}
}

// NiceBins ends, with edges that rise from at or below lo to at or above
// hi, on the inputs that broke it: values an ulp apart (a width whose
// multiples are past 2^53), an infinite width, a constant beyond half the
// largest float, a range to the largest float.
func TestNiceBinsOnExtremes(t *testing.T) {
	for _, c := range []struct{ lo, hi, width float64 }{
		{13, math.Nextafter(13, 14), 6.3e-17}, {2, 2.000000000000002, 5.55e-17}, {-1e308, 1e308, math.Inf(1)},
		{1.7e308, 1.7e308, 1}, {0, 1.78e308, 8.9e307},
	} {
		edges := NiceBins(c.lo, c.hi, c.width, 80)
		if len(edges) < 2 || edges[0] > c.lo || edges[len(edges)-1] < c.hi || !slices.IsSorted(edges) || slices.ContainsFunc(edges, func(e float64) bool { return math.IsInf(e, 0) || math.IsNaN(e) }) {
			t.Errorf("NiceBins(%v, %v, %v, 80) = %v", c.lo, c.hi, c.width, edges)
		}
		for i := 1; i < len(edges); i++ {
			if edges[i] <= edges[i-1] {
				t.Errorf("NiceBins(%v, %v, %v, 80): edges do not rise: %v", c.lo, c.hi, c.width, edges)
				break
			}
		}
	}
}
