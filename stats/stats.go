package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"github.com/rewardlens/rewardlens/internal/floatorder"
)

// ZeroStd is the standard deviation below which a set counts as constant:
// its z-scores are all 0.
const ZeroStd = 1e-12

// Mean returns the arithmetic mean sum x_i / n of x, NaN when x is empty.
// Near the float64 limit, where the sum overflows, it is computed on x
// scaled down by a power of two, which is exact.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	mean := stat.Mean(x, nil)
	if !finiteResult(mean) {
		if y, ok := scaledDown(x); ok { // the sum overflowed (overflow.go)
			return stat.Mean(y, nil) * overflowScale
		}
	}
	return mean
}

// PopMeanStd returns the mean and the population standard deviation
// sqrt(sum (x - mean)^2 / n) of x (gonum's corrected two-pass formula, with
// Mean's scaling near the float64 limit); both NaN when x is empty.
func PopMeanStd(x []float64) (mean, std float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	mean, v := stat.PopMeanVariance(x, nil)
	if !finiteResult(mean, v) {
		if y, ok := scaledDown(x); ok { // the sums overflowed (overflow.go)
			mean, v = stat.PopMeanVariance(y, nil)
			return mean * overflowScale, math.Sqrt(max(v, 0)) * overflowScale
		}
	}
	// The corrected two-pass variance can come out a rounding error below 0.
	return mean, math.Sqrt(max(v, 0))
}

// SampleStd returns the sample standard deviation
// sqrt(sum (x - mean)^2 / (n - 1)) of x, NaN when len(x) < 2.
func SampleStd(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	mean, v := stat.MeanVariance(x, nil)
	if !finiteResult(mean, v) {
		if y, ok := scaledDown(x); ok { // the sums overflowed (overflow.go)
			_, v = stat.MeanVariance(y, nil)
			return math.Sqrt(max(v, 0)) * overflowScale
		}
	}
	return math.Sqrt(max(v, 0))
}

// Ascending returns x sorted ascending, in dst's array when it is long
// enough: a mean or std summed in that order does not depend on the order
// of a comparison group's members, so that two groups of the same values
// (the same Pareto utilities, the same scores) get the same rewards to the
// last bit, which rank statistics, comparing exactly, see as ties.
//
// Up to placedMax values, each is placed where the values below it and
// the equal ones before it put it (placeAscending): slices.Sort's order
// to the bit, without its comparisons' branches, which a comparison
// group's values mispredict.
func Ascending(dst, x []float64) []float64 {
	if len(x) <= placedMax {
		dst = slices.Grow(dst[:0], len(x))[:len(x)]
		placeAscending(dst, x)
		return dst
	}
	dst = append(dst[:0], x...)
	slices.Sort(dst)
	return dst
}

// placedMax is the most values Ascending places rather than sorts: the
// most slices.Sort sorts by insertion, which keeps equal values (-0 and
// +0, NaNs) in their order, as placeAscending does.
const placedMax = 12

// placeAscending writes x into dst (as long, at most placedMax values,
// which may be x) in ascending order, in cmp.Less's order (NaN least),
// equal values in their order in x: x[i] goes to the place counting the
// values less than it and the equal ones before it, n(n-1)/2 comparisons
// of integer keys (floatorder.Key: cmp.Compare's order, which is
// cmp.Less's).
func placeAscending(dst, x []float64) {
	var keys [placedMax]uint64
	var values [placedMax]float64 // x's, for dst may be x
	var place [placedMax]int
	for i, v := range x {
		keys[i], values[i] = floatorder.Key(v), v
	}
	n := len(x)
	for i := range n {
		ki := keys[i]
		for j := i + 1; j < n; j++ {
			after := 0 // x[j] goes after x[i] unless it is less
			if keys[j] >= ki {
				after = 1
			}
			place[j] += after
			place[i] += 1 - after
		}
	}
	for i, v := range values[:n] {
		dst[place[i]] = v
	}
}

// ZScores writes z(x) = (x - mean) / std into dst, with the population std;
// when std < ZeroStd every value is 0. The mean and std are summed over x
// in ascending order (Ascending, sorted in sorted's array), so that equal
// multisets get equal z-scores to the last bit; it returns sorted for the
// next call to reuse. dst may be x; sorted may share dst's array only when
// dst is not x. It panics if len(dst) < len(x).
func ZScores(dst, x, sorted []float64) []float64 {
	sorted = Ascending(sorted, x)
	mean, std := PopMeanStd(sorted)
	for i, v := range x {
		if std < ZeroStd || math.IsNaN(std) {
			dst[i] = 0
		} else {
			dst[i] = Centered(v, mean, std)
		}
	}
	return sorted
}

// AverageRanks writes into dst the 1-based ascending ranks of x, tied
// values sharing the mean of their ranks (scipy's rankdata "average"). It
// uses order as scratch space (nil is fine) and returns it, grown as
// needed, for the next call: a loop over many sets allocates once. It
// panics if len(dst) < len(x); dst must not be x.
func AverageRanks(dst, x []float64, order []int) []int {
	order = order[:0]
	for i := range x {
		order = append(order, i)
	}
	if slices.ContainsFunc(x, math.IsNaN) {
		// The same stable sort as sort.SliceStable with less x[a] < x[b]:
		// both only ask whether cmp < 0, so even NaNs end up in the same
		// places.
		slices.SortStableFunc(order, func(a, b int) int {
			if x[a] < x[b] {
				return -1
			}
			return 0
		})
	} else {
		floatorder.Sort(order, 1, func(_, i int) uint64 { return floatorder.Key(x[i]) })
	}
	averageRanksSorted(dst, x, order)
	return order
}

// averageRanksSorted sets dst[i] to the average rank of x[i], order being
// the positions sorted by x ascending.
func averageRanksSorted(dst, x []float64, order []int) {
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && x[order[hi]] == x[order[lo]] {
			hi++
		}
		avg := float64(lo+hi+1) / 2
		for _, i := range order[lo:hi] {
			dst[i] = avg
		}
		lo = hi
	}
}

// Quantile returns the q-quantile (0 <= q <= 1) of the ascending sorted
// values by linear interpolation between closest ranks (numpy's default):
// with h = q (n - 1), x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
// It returns NaN for an empty slice.
func Quantile(q float64, sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	frac := h - float64(lo)
	return interpolate(sorted[lo], sorted[lo+1], frac)
}

// Summary describes a set of values. Every field but Count is NaN for an
// empty set.
type Summary struct {
	Count                                 int
	Mean, Std, Min, P25, Median, P75, Max float64
}

// Summarize returns the summary of x, with the population std and numpy's
// linear quantiles. x is not modified.
func Summarize(x []float64) Summary {
	return SummarizeInPlace(slices.Clone(x))
}

// SummarizeInPlace returns Summarize(x), reordering x: for a caller whose
// x is a scratch copy, it allocates nothing. From selectMin values
// without NaN, the order statistics are selected, not sorted (orderStats;
// a dashboard summarises a million rewards on every method switch, before
// the screen changes).
func SummarizeInPlace(x []float64) Summary {
	s := Summary{Count: len(x)}
	s.Mean, s.Std = PopMeanStd(x)
	if len(x) < selectMin || math.IsNaN(s.Mean) {
		sorted := x
		sortFloats(sorted)
		s.P25, s.Median, s.P75 = Quantile(0.25, sorted), Quantile(0.5, sorted), Quantile(0.75, sorted)
		s.Min, s.Max = math.NaN(), math.NaN()
		if len(sorted) > 0 {
			s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
		}
		return s
	}
	s.Min, s.P25, s.Median, s.P75, s.Max = orderStats(x)
	return s
}

// selectMin is the length from which SummarizeInPlace selects its
// order statistics rather than sort.
const selectMin = 1 << 16

// Pearson returns the Pearson correlation of x and y,
//
//	r = sum (x - mean x)(y - mean y) / sqrt(sum (x - mean x)^2 sum (y - mean y)^2),
//
// NaN when either is constant or there are fewer than two values. x and y
// must have the same length.
func Pearson(x, y []float64) float64 {
	if len(x) < 2 || floats.Max(x) == floats.Min(x) || floats.Max(y) == floats.Min(y) {
		return math.NaN()
	}
	return stat.Correlation(x, y, nil)
}

// PearsonPairwise returns Pearson over the positions where neither x nor y
// is NaN, a NaN marking a missing value (pandas' DataFrame.corr, which
// takes each pair's complete observations): NaN when fewer than two
// remain or either is constant there. x and y must have the same length.
func PearsonPairwise(x, y []float64) float64 {
	if !slices.ContainsFunc(x, math.IsNaN) && !slices.ContainsFunc(y, math.IsNaN) {
		return Pearson(x, y)
	}
	var px, py []float64
	for i := range x {
		if !math.IsNaN(x[i]) && !math.IsNaN(y[i]) {
			px, py = append(px, x[i]), append(py, y[i])
		}
	}
	return Pearson(px, py)
}
