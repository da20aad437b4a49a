package stats

import (
	"math"
	"sort"
	"sync"
)

// floats holds scratch buffers for the histograms' quartiles, so that a
// dashboard drawing a million values on every switch allocates none.
var floatBufs sync.Pool

// getFloats returns a buffer of capacity n or more, of any length.
func getFloats(n int) *[]float64 {
	if b, ok := floatBufs.Get().(*[]float64); ok && cap(*b) >= n {
		return b
	}
	b := make([]float64, 0, n)
	return &b
}

// putFloats gives a buffer back for the next getFloats.
func putFloats(b *[]float64) { floatBufs.Put(b) }

// FreedmanDiaconisBins returns the edges of equal-width histogram bins for
// the finite values of x (NaN and ±Inf are ignored), k bins as k+1 ascending
// edges from min(x) to max(x), with the Freedman-Diaconis rule:
//
//	h = 2 IQR n^(-1/3)        (IQR = p75 - p25, numpy's linear quantiles)
//	k = ceil((max - min) / h)
//
// When IQR = 0 (more than half the values equal) h says nothing, and the
// square-root choice k = ceil(sqrt(n)) is used instead. k is at least 1 and
// at most n: a single outlier far from a tight bulk would otherwise ask for
// millions of bins. All values equal give one bin of width 1 centred on
// them, as numpy does. No finite value gives nil. A display that has room
// for fewer bins narrows them with CapBins.
func FreedmanDiaconisBins(x []float64) (edges []float64) {
	// The quartiles by selection rather than sorting: a dashboard draws
	// the histograms of a million values on every method switch.
	buf := getFloats(len(x))
	defer putFloats(buf)
	finite := (*buf)[:0]
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			finite = append(finite, v)
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	n := len(finite)
	return freedmanDiaconis(n, lo, hi, func() float64 {
		keys := getKeys(n)
		defer putKeys(keys)
		return selectQuantile(0.75, finite, *keys) - selectQuantile(0.25, finite, *keys)
	})
}

// FreedmanDiaconisBinsOf returns FreedmanDiaconisBins(x) from s =
// Summarize(x), for x without NaN or ±Inf: the rule needs only the count,
// the extremes and the quartiles, which a caller that holds the summary
// need not find again. A summary of no values gives nil.
func FreedmanDiaconisBinsOf(s Summary) []float64 {
	return freedmanDiaconis(s.Count, s.Min, s.Max, func() float64 { return s.P75 - s.P25 })
}

// freedmanDiaconis returns the Freedman-Diaconis edges of n finite values
// from lo to hi whose interquartile range is iqr(), called only when the
// values are not all equal.
func freedmanDiaconis(n int, lo, hi float64, iqr func() float64) []float64 {
	if n == 0 {
		return nil
	}
	if lo == hi {
		return []float64{lo - 0.5, hi + 0.5}
	}
	k := math.Ceil(math.Sqrt(float64(n)))
	if iqr := iqr(); iqr > 0 {
		// Cbrt rather than Pow(n, -1/3): exact for perfect cubes, so that
		// the ceiling does not jump a bin on a rounding error.
		h := 2 * iqr / math.Cbrt(float64(n))
		k = math.Ceil((hi - lo) / h)
		if math.IsInf(hi-lo, 0) { // the range does not fit a float64: halved
			k = math.Ceil((hi/2 - lo/2) / (h / 2))
		}
	}
	return equalWidthEdges(lo, hi, int(min(max(k, 1), float64(n))))
}

// CapBins returns edges unchanged when they make at most maxBins bins, and
// otherwise maxBins equal-width bins over the same range (at least one).
func CapBins(edges []float64, maxBins int) []float64 {
	if len(edges) < 2 || len(edges)-1 <= maxBins {
		return edges
	}
	return equalWidthEdges(edges[0], edges[len(edges)-1], max(maxBins, 1))
}

// equalWidthEdges returns the k+1 edges of k equal bins from lo to hi; the
// last edge is hi exactly, so that the maximum falls in the last bin. A
// range that does not fit a float64 (-1e308 to 1e308) is taken halved.
func equalWidthEdges(lo, hi float64, k int) []float64 {
	edges := make([]float64, k+1)
	for i := range k {
		edges[i] = lo + (hi-lo)*float64(i)/float64(k)
		if math.IsInf(hi-lo, 0) {
			edges[i] = lo + 2*((hi/2-lo/2)*(float64(i)/float64(k)))
		}
	}
	edges[k] = hi
	return edges
}

// Histogram counts the values of x in the bins of edges (ascending, k+1
// edges for k bins): bin i holds edges[i] <= v < edges[i+1], and the last
// bin also holds v = edges[k], as numpy does. Values outside the edges and
// NaN are not counted. Fewer than two edges give nil.
func Histogram(x, edges []float64) []int {
	if len(edges) < 2 {
		return nil
	}
	k := len(edges) - 1
	counts := make([]int, k)
	lo, width := edges[0], edges[k]-edges[0]
	for _, v := range x {
		if math.IsNaN(v) || v < edges[0] || v > edges[k] {
			continue
		}
		// The index of the first edge >= v: v opens that bin when equal to
		// it, and belongs to the bin before otherwise. Equal-width edges
		// give it at once, but for rounding: the guess is checked, and
		// other edges are searched.
		i := min(max(int(math.Ceil((v-lo)/width*float64(k))), 0), k)
		switch {
		case edges[i] >= v && (i == 0 || edges[i-1] < v):
		case i < k && edges[i+1] >= v && edges[i] < v:
			i++
		case i > 0 && edges[i-1] >= v && (i == 1 || edges[i-2] < v):
			i--
		default:
			i = sort.SearchFloat64s(edges, v)
		}
		if i == k || edges[i] != v {
			i--
		}
		counts[i]++
	}
	return counts
}
