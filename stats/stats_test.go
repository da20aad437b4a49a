package stats

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestSummarize(t *testing.T) {
	// Sorted 1, 2, 2, 5: p25 at h = 0.75 -> 1.75; median at h = 1.5 -> 2;
	// p75 at h = 2.25 -> 2 + 0.25 * 3 = 2.75.
	s := Summarize([]float64{5, 2, 1, 2})
	want := Summary{Count: 4, Mean: 2.5, Std: 1.5, Min: 1, P25: 1.75, Median: 2, P75: 2.75, Max: 5}
	if s != want {
		t.Errorf("Summarize = %+v, want %+v", s, want)
	}
	one := Summarize([]float64{7})
	if one.Std != 0 || one.P25 != 7 || one.P75 != 7 {
		t.Errorf("one value: %+v", one)
	}
	empty := Summarize(nil)
	if empty.Count != 0 || !math.IsNaN(empty.Mean) || !math.IsNaN(empty.Std) || !math.IsNaN(empty.Median) || !math.IsNaN(empty.Max) {
		t.Errorf("empty: %+v", empty)
	}
}

func TestAverageRanks(t *testing.T) {
	got := make([]float64, 6)
	AverageRanks(got, []float64{3, 1, 3, 2, 3, -1}, nil)
	assertFloats(t, "ranks", got, []float64{5, 2, 5, 3, 5, 1})
}

func TestZScoresConstant(t *testing.T) {
	x := []float64{0.1, 0.1, 0.1}
	ZScores(x, x, nil)
	assertFloats(t, "z", x, []float64{0, 0, 0})
}

// TestZScoresOrderFree: a permutation of the same values gets the same
// z-scores to the last bit, the sums being taken in ascending order.
func TestZScoresOrderFree(t *testing.T) {
	x := []float64{1.5, 1.2, 1.5, 1.5, 0.4} // mean 1.2200000000000002 summed so
	y := []float64{0.4, 1.5, 1.5, 1.2, 1.5} // mean 1.22 summed so
	zx, zy := make([]float64, len(x)), make([]float64, len(y))
	ZScores(zx, x, nil)
	ZScores(zy, y, nil)
	for i, v := range x {
		j := slices.Index(y, v)
		if zx[i] != zy[j] {
			t.Errorf("z(%v) = %v in one order, %v in another", v, zx[i], zy[j])
		}
	}
}

func TestPearson(t *testing.T) {
	if r := Pearson([]float64{1, 2, 3}, []float64{2, 4, 6}); !near(r, 1) {
		t.Errorf("perfect correlation = %v", r)
	}
	if r := Pearson([]float64{1, 2, 3}, []float64{3, 2, 1}); !near(r, -1) {
		t.Errorf("perfect anticorrelation = %v", r)
	}
	if r := Pearson([]float64{1, 2, 3}, []float64{5, 5, 5}); !math.IsNaN(r) {
		t.Errorf("constant = %v, want NaN", r)
	}
	// x = 1,2,3,4; y = 1,3,2,4: cov 1.25 / (var 1.25) = 0.8 (population terms).
	if r := Pearson([]float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}); !near(r, 0.8) {
		t.Errorf("r = %v, want 0.8", r)
	}
}

func ExampleSummarize() {
	s := Summarize([]float64{1, 2, 2, 5})
	fmt.Printf("mean %.2f std %.2f p25 %.2f median %.2f p75 %.2f\n", s.Mean, s.Std, s.P25, s.Median, s.P75)
	// Output: mean 2.50 std 1.50 p25 1.75 median 2.00 p75 2.75
}

// TestQuantileNearTheLimit: the quartiles of values at opposite ends of
// the float64 range, whose difference overflows, are those of the same
// values scaled down and back up, not +Inf (stats printed +Inf as the
// p25, median and p75 of -1e308 and 1e308), in every way they are taken.
func TestQuantileNearTheLimit(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want [3]float64
	}{
		{[]float64{-1e308, 1e308}, [3]float64{-5e307, 0, 5e307}},
		{[]float64{-math.MaxFloat64, math.MaxFloat64, 0}, [3]float64{-math.MaxFloat64 / 2, 0, math.MaxFloat64 / 2}},
		{[]float64{1, 2, 3, 4}, [3]float64{1.75, 2.5, 3.25}},
	} {
		keys := make([]uint64, len(c.x))
		for i, q := range []float64{0.25, 0.5, 0.75} {
			sorted := slices.Sorted(slices.Values(c.x))
			if got := Quantile(q, sorted); got != c.want[i] {
				t.Errorf("Quantile(%v, %v) = %v, want %v", q, c.x, got, c.want[i])
			}
			if got := selectQuantile(q, c.x, keys); got != c.want[i] {
				t.Errorf("selectQuantile(%v, %v) = %v, want %v", q, c.x, got, c.want[i])
			}
		}
	}
	// Two million values, their order statistics selected on two cores.
	x := make([]float64, 1<<21)
	for i := range x {
		x[i] = math.MaxFloat64
		if i%2 == 0 {
			x[i] = -math.MaxFloat64
		}
	}
	if s := Summarize(x); s.P25 != -math.MaxFloat64 || s.Median != 0 || s.P75 != math.MaxFloat64 {
		t.Errorf("Summarize at the limit: %v %v %v", s.P25, s.Median, s.P75)
	}
}

// TestPearsonPairwise: the NaNs (missing values) drop their pair. Over
// (1, 1), (3, 0) the correlation is -1; with one pair left it is NaN;
// without a NaN it is Pearson's.
func TestPearsonPairwise(t *testing.T) {
	nan := math.NaN()
	if r := PearsonPairwise([]float64{1, nan, 3, 5}, []float64{1, 1, 0, nan}); r != -1 {
		t.Errorf("PearsonPairwise = %v, want -1", r)
	}
	if r := PearsonPairwise([]float64{1, nan, 3}, []float64{1, 1, nan}); !math.IsNaN(r) {
		t.Errorf("one pair: %v, want NaN", r)
	}
	x, y := []float64{1, 2, 4}, []float64{2, 1, 5}
	if r := PearsonPairwise(x, y); r != Pearson(x, y) {
		t.Errorf("without NaN: %v, want %v", r, Pearson(x, y))
	}
}
