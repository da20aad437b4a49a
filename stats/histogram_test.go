package stats

import (
	"math"
	"slices"
	"testing"
)

func TestFreedmanDiaconisBins(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    []float64
		want []float64
	}{
		// n = 8, p25 = 2.75, p75 = 6.25, IQR = 3.5, h = 2 * 3.5 / 2 = 3.5,
		// k = ceil(7 / 3.5) = 2.
		{"fd", []float64{8, 1, 7, 2, 6, 3, 5, 4}, []float64{1, 4.5, 8}},
		// n = 27 (cube root 3), values 0..26: p25 = 6.5, p75 = 19.5,
		// IQR = 13, h = 26 / 3, k = ceil(26 / (26/3)) = 3.
		{"fd 27", seq(27), []float64{0, 26.0 / 3, 52.0 / 3, 26}},
		// n = 9, p25 = p75 = 5: IQR = 0, k = ceil(sqrt 9) = 3 over [5, 9].
		{"iqr zero", []float64{5, 5, 5, 5, 5, 5, 5, 5, 9}, []float64{5, 5 + 4.0/3, 5 + 8.0/3, 9}},
		// p25 = 0, p75 = 1, h = 2 / cbrt(5) = 1.17: ceil(1e9 / h) bins,
		// capped at n = 5.
		{"outlier", []float64{0, 0, 1, 1, 1e9}, []float64{0, 2e8, 4e8, 6e8, 8e8, 1e9}},
		{"constant", []float64{2, 2, 2}, []float64{1.5, 2.5}},
		{"single", []float64{-1}, []float64{-1.5, -0.5}},
		{"non-finite ignored", []float64{math.NaN(), 8, 1, 7, 2, math.Inf(1), 6, 3, 5, 4, math.Inf(-1)}, []float64{1, 4.5, 8}},
		{"empty", nil, nil},
		{"only NaN", []float64{math.NaN()}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := FreedmanDiaconisBins(tc.x)
			if !approxEqual(got, tc.want) {
				t.Errorf("FreedmanDiaconisBins(%v) = %v, want %v", tc.x, got, tc.want)
			}
		})
	}
}

func TestCapBins(t *testing.T) {
	edges := []float64{0, 1, 2, 3, 4}
	if got := CapBins(edges, 4); !slices.Equal(got, edges) {
		t.Errorf("CapBins(4 bins, 4) = %v, want them unchanged", got)
	}
	if got, want := CapBins(edges, 2), []float64{0, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("CapBins(4 bins, 2) = %v, want %v", got, want)
	}
	if got, want := CapBins(edges, 0), []float64{0, 4}; !slices.Equal(got, want) {
		t.Errorf("CapBins(4 bins, 0) = %v, want one bin %v", got, want)
	}
	if got := CapBins(nil, 3); got != nil {
		t.Errorf("CapBins(nil, 3) = %v, want nil", got)
	}
}

func TestHistogram(t *testing.T) {
	for _, tc := range []struct {
		name  string
		x     []float64
		edges []float64
		want  []int
	}{
		{"halves", []float64{1, 2, 3, 4, 5, 6, 7, 8}, []float64{1, 4.5, 8}, []int{4, 4}},
		// An inner edge opens its bin; the last edge closes the last bin.
		{"edges", []float64{0, 0.5, 1}, []float64{0, 0.5, 1}, []int{1, 2}},
		{"outside and NaN", []float64{-1, 0.2, 2, math.NaN(), math.Inf(1)}, []float64{0, 0.5, 1}, []int{1, 0}},
		{"iqr zero", []float64{5, 5, 5, 5, 5, 5, 5, 5, 9}, []float64{5, 5 + 4.0/3, 5 + 8.0/3, 9}, []int{8, 0, 1}},
		{"no bins", []float64{1}, []float64{1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Histogram(tc.x, tc.edges); !slices.Equal(got, tc.want) {
				t.Errorf("Histogram(%v, %v) = %v, want %v", tc.x, tc.edges, got, tc.want)
			}
		})
	}
}

// seq returns 0, 1, ..., n-1.
func seq(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)
	}
	return x
}

// approxEqual compares edges up to rounding errors.
func approxEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// TestHistogramNearTheLimit: values at opposite ends of the float64
// range, whose range overflows, get finite ascending edges and are each
// counted in their bin (the edges were NaN and +Inf, every value in the
// first bin).
func TestHistogramNearTheLimit(t *testing.T) {
	x := []float64{-1e308, 0, 5, 1e308}
	for _, edges := range [][]float64{FreedmanDiaconisBins(x), FreedmanDiaconisBinsOf(Summarize(x)), CapBins(FreedmanDiaconisBins(x), 2)} {
		if len(edges) < 3 || edges[0] != -1e308 || edges[len(edges)-1] != 1e308 {
			t.Fatalf("edges %v", edges)
		}
		for i := 1; i < len(edges); i++ {
			if !(edges[i] > edges[i-1]) || math.IsInf(edges[i], 0) {
				t.Fatalf("edges %v", edges)
			}
		}
		counts := Histogram(x, edges)
		if counts[0] != 1 || counts[len(counts)-1] < 1 {
			t.Errorf("edges %v: counts %v", edges, counts)
		}
		total := 0
		for _, c := range counts {
			total += c
		}
		if total != len(x) {
			t.Errorf("edges %v: counts %v", edges, counts)
		}
	}
}
