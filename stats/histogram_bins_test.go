package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// histogramBySearch is Histogram as first written: a binary search per
// value. Histogram's guess from equal widths must give the same counts.
func histogramBySearch(x, edges []float64) []int {
	k := len(edges) - 1
	counts := make([]int, k)
	for _, v := range x {
		if math.IsNaN(v) || v < edges[0] || v > edges[k] {
			continue
		}
		i := sort.SearchFloat64s(edges, v)
		if i == k || edges[i] != v {
			i--
		}
		counts[i]++
	}
	return counts
}

func TestHistogramMatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 300 {
		n := 1 + rng.IntN(2000)
		x := make([]float64, n)
		scale := math.Pow(10, float64(rng.IntN(12)-6))
		for i := range x {
			x[i] = (rng.Float64() - 0.3) * scale
			if rng.IntN(10) == 0 {
				x[i] = math.Round(x[i]*4/scale) * scale / 4 // ties
			}
		}
		var edges []float64
		switch trial % 3 {
		case 0: // the dashboard's: Freedman-Diaconis, capped
			edges = CapBins(FreedmanDiaconisBins(x), 1+rng.IntN(80))
		case 1: // uneven edges, some repeated
			edges = make([]float64, 2+rng.IntN(30))
			for i := range edges {
				edges[i] = (rng.Float64() - 0.3) * scale
			}
			edges[rng.IntN(len(edges))] = edges[0]
			slices.Sort(edges)
		case 2: // equal widths, with values on every edge
			edges = equalWidthEdges(-scale, scale, 1+rng.IntN(50))
			x = append(x, edges...)
			x = append(x, math.NaN(), math.Inf(1), math.Inf(-1))
		}
		if got, want := Histogram(x, edges), histogramBySearch(x, edges); !slices.Equal(got, want) {
			t.Fatalf("trial %d: Histogram %v, by search %v (edges %v)", trial, got, want, edges)
		}
	}
}

// TestSelectQuantileMatchesSort checks the selection against Quantile on
// the sorted values, bit for bit, on random data with ties and zeros of
// both signs, at every size up to the radix selection's and beyond.
func TestSelectQuantileMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	var keys []uint64
	for trial := range 400 {
		n := 1 + rng.IntN(300)
		if trial%10 == 0 {
			n = 1 + rng.IntN(20000)
		}
		x := make([]float64, n)
		distinct := 1 + rng.IntN(n+1)
		for i := range x {
			switch rng.IntN(8) {
			case 0:
				x[i] = math.Copysign(0, rng.Float64()-0.5)
			case 1:
				x[i] = float64(rng.IntN(distinct)) // ties
			default:
				x[i] = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-20))
			}
		}
		sorted := slices.Clone(x)
		sortFloats(sorted)
		keys = slices.Grow(keys[:0], n)[:n]
		for _, q := range []float64{0, 0.25, 0.5, 0.75, 1, rng.Float64()} {
			got, want := selectQuantile(q, x, keys), Quantile(q, sorted)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("trial %d, n %d, q %v: selection %v, sorted %v", trial, n, q, got, want)
			}
		}
	}
}

// TestFreedmanDiaconisBinsOfSummary checks that the bins from a summary
// are those from the values, edge for edge, on random data with ties, all
// equal values, a single value and none.
func TestFreedmanDiaconisBinsOfSummary(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for trial := range 300 {
		n := rng.IntN(3000)
		x := make([]float64, n)
		distinct := 1 + rng.IntN(n+1)
		for i := range x {
			if trial%7 == 0 {
				x[i] = 2.5 // all equal
			} else if rng.IntN(3) == 0 {
				x[i] = float64(rng.IntN(distinct)) // ties
			} else {
				x[i] = rng.NormFloat64() * 10
			}
		}
		got, want := FreedmanDiaconisBinsOf(Summarize(x)), FreedmanDiaconisBins(x)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d, n %d: from the summary %v, from the values %v", trial, n, got, want)
		}
		if n > 0 && len(got) < 2 {
			t.Fatalf("trial %d, n %d: %v is no bin", trial, n, got)
		}
	}
}

// BenchmarkFreedmanDiaconis1M bins a million values, as the Rewards tab
// does twice a frame after a switch.
func BenchmarkFreedmanDiaconis1M(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 1_000_000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	b.ReportAllocs()
	for b.Loop() {
		Histogram(x, CapBins(FreedmanDiaconisBins(x), 60))
	}
}

// TestSummarizeSelectMatchesSort checks the summary whose order
// statistics are selected (orderStats) against that of the values sorted
// whole, bit for bit, on random data with ties, zeros of both signs,
// halves of one value each, a single value, values of one exponent, and
// a few values a ulp apart.
func TestSummarizeSelectMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 3))
	for trial := range 40 {
		n := selectMin + rng.IntN(3*selectMin)
		x := make([]float64, n)
		distinct := 1 + rng.IntN(n)
		for i := range x {
			switch {
			case trial%8 == 0:
				x[i] = float64(i / (n/2 + 1)) // each half one value
			case trial%8 == 1:
				x[i] = 0.5 + rng.Float64()/2 // one exponent: the top bits agree
			case trial%8 == 3:
				x[i] = 0.25 // one value: a batch of zero spread
			case trial%8 == 2:
				x[i] = math.Nextafter(1e6, math.Inf(1)) + float64(rng.IntN(5))*0x1p-33 // ulps apart
			case rng.IntN(6) == 0:
				x[i] = math.Copysign(0, rng.Float64()-0.5)
			case rng.IntN(2) == 0:
				x[i] = float64(rng.IntN(distinct)) // ties
			default:
				x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(10)-5))
			}
		}
		got := SummarizeInPlace(slices.Clone(x))
		sorted := slices.Clone(x)
		sortFloats(sorted)
		want := Summary{Count: n, Min: sorted[0], Max: sorted[n-1],
			P25: Quantile(0.25, sorted), Median: Quantile(0.5, sorted), P75: Quantile(0.75, sorted)}
		want.Mean, want.Std = PopMeanStd(x)
		for _, f := range []struct {
			name      string
			got, want float64
		}{{"min", got.Min, want.Min}, {"p25", got.P25, want.P25}, {"median", got.Median, want.Median},
			{"p75", got.P75, want.P75}, {"max", got.Max, want.Max}, {"mean", got.Mean, want.Mean}, {"std", got.Std, want.Std}} {
			if math.Float64bits(f.got) != math.Float64bits(f.want) {
				t.Fatalf("trial %d, n %d: %s %v, sorted whole %v", trial, n, f.name, f.got, f.want)
			}
		}
	}

}

// BenchmarkSummarize1M: a batch's summary of a million rewards, as the
// dashboard computes it on every method switch: normal values, values in
// [0, 1) as most methods' rewards are, whose top bits all agree, and the
// eight values of the relative method's groups of 8.
func BenchmarkSummarize1M(b *testing.B) {
	for _, data := range []struct {
		name string
		draw func(*rand.Rand) float64
	}{
		{"normal", (*rand.Rand).NormFloat64},
		{"unit", (*rand.Rand).Float64},
		{"eighths", func(r *rand.Rand) float64 { return float64(r.IntN(8)) / 7 }},
	} {
		b.Run(data.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			x := make([]float64, 1_000_000)
			for i := range x {
				x[i] = data.draw(rng)
			}
			scratch := make([]float64, len(x))
			for b.Loop() {
				copy(scratch, x)
				SummarizeInPlace(scratch)
			}
		})
	}
}
