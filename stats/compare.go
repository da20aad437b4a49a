package stats

import (
	"math"
	"slices"

	"github.com/rewardlens/rewardlens/internal/floatorder"
)

// Spearman returns Spearman's rank correlation of x and y: the Pearson
// correlation of their average ranks (ties share the mean of their ranks).
// It is NaN when there are fewer than two values or either is constant.
// x and y must have the same length and finite values.
func Spearman(x, y []float64) float64 {
	rx, ry := make([]float64, len(x)), make([]float64, len(y))
	order := AverageRanks(rx, x, nil)
	AverageRanks(ry, y, order)
	return Pearson(rx, ry)
}

// KendallTauB returns Kendall's tau-b of x and y, which accounts for ties:
//
//	tau_b = (C - D) / sqrt((n0 - n1) (n0 - n2))
//
// with C and D the concordant and discordant pairs, n0 = n(n-1)/2, n1 the
// pairs tied in x and n2 the pairs tied in y (a pair tied in both counts in
// n1 and n2 and in neither C nor D). It is NaN when there are fewer than two
// values or either is constant. x and y must have the same length and finite
// values.
//
// It runs in O(n log n) with Knight's algorithm (scipy's kendalltau): sort
// the pairs by (x, y), then merge sort them by y counting the exchanges,
// which are the discordant pairs; C - D = n0 - n1 - n2 + n3 - 2 D with n3 the
// pairs tied in both.
func KendallTauB(x, y []float64) float64 {
	return KendallTauBSorted(x, y, floatorder.ByPairs(x, y))
}

// KendallTauBSorted is KendallTauB with the positions sorted by (x, y)
// ascending given (byXY, which it does not change).
func KendallTauBSorted(x, y []float64, byXY []int) float64 {
	n := len(x)
	if n < 2 {
		return math.NaN()
	}
	tiedX := tiedPairs(byXY, func(a, b int) bool { return x[a] == x[b] })
	tiedXY := tiedPairs(byXY, func(a, b int) bool { return x[a] == x[b] && y[a] == y[b] })
	ys := make([]float64, n)
	for j, i := range byXY {
		ys[j] = y[i]
	}
	discordant := countInversions(ys, make([]float64, n))
	tiedY := tiedRuns(ys) // ys is sorted now

	return KendallTauBCounts(n, tiedX, tiedY, tiedXY, discordant)
}

// tiedRuns returns sum t(t-1)/2 over the runs of t equal values of sorted.
func tiedRuns(sorted []float64) int64 {
	var pairs int64
	for lo := 0; lo < len(sorted); {
		hi := lo + 1
		for hi < len(sorted) && sorted[hi] == sorted[lo] {
			hi++
		}
		t := int64(hi - lo)
		pairs += t * (t - 1) / 2
		lo = hi
	}
	return pairs
}

// insertionRun is the length of the runs countInversions sorts by
// insertion before merging them.
const insertionRun = 16

// countInversions sorts v ascending (using buf, as long) and returns the
// pairs it exchanged: those with a larger value before a strictly smaller
// one. A bottom-up merge sort on the values themselves: in order in
// memory, where sorting positions would miss the caches at each read.
func countInversions(v, buf []float64) int64 {
	n := len(v)
	var inv int64
	for lo := 0; lo < n; lo += insertionRun {
		hi := min(lo+insertionRun, n)
		for i := lo + 1; i < hi; i++ {
			x := v[i]
			j := i
			for j > lo && v[j-1] > x {
				v[j] = v[j-1]
				j--
			}
			v[j] = x
			inv += int64(i - j)
		}
	}
	src, dst := v, buf
	for width := insertionRun; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if src[j] < src[i] {
					inv += int64(mid - i)
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if n > 0 && &src[0] != &v[0] {
		copy(v, src)
	}
	return inv
}

// tiedPairs returns sum t(t-1)/2 over the runs of t consecutive elements of
// order that are equal by eq.
func tiedPairs(order []int, eq func(a, b int) bool) int64 {
	var pairs int64
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && eq(order[lo], order[hi]) {
			hi++
		}
		t := int64(hi - lo)
		pairs += t * (t - 1) / 2
		lo = hi
	}
	return pairs
}

// SignDisagreements counts the trajectories whose advantage is positive
// under a and negative under b (posNeg), and negative under a and positive
// under b (negPos): the ones the two methods push in opposite directions.
// A zero advantage is neither positive nor negative.
func SignDisagreements(a, b []float64) (posNeg, negPos int) {
	// Counted without branches: random signs mispredict them.
	b = b[:len(a)]
	for i, x := range a {
		y := b[i]
		posNeg += one(x > 0) & one(y < 0)
		negPos += one(x < 0) & one(y > 0)
	}
	return posNeg, negPos
}

// one is 1 for true, 0 for false.
func one(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TopOverlap returns the fraction of the k = ceil(frac n) largest values of
// a whose positions are also among the k largest of b, ties broken by
// position (the earlier first). It is NaN when k is 0 (no values, or
// frac <= 0); k is at most n.
func TopOverlap(a, b []float64, frac float64) float64 {
	k := TopCount(len(a), frac)
	if k == 0 {
		return math.NaN()
	}
	return float64(TopShared(a, b, k)) / float64(k)
}

// TopCount returns k = ceil(frac n) within [0, n]: the size of the top
// fraction frac of n values.
func TopCount(n int, frac float64) int {
	// The tolerance keeps a product such as 0.1 * 30 = 3.0000000000000004
	// from rounding up to 4.
	return min(max(int(math.Ceil(frac*float64(n)-1e-9)), 0), n)
}

// TopShared counts the positions among the k largest values of both a and
// b, ties broken by position (the earlier first). It panics if k exceeds
// len(a) or len(b).
func TopShared(a, b []float64, k int) int {
	inB := make([]bool, len(b))
	for _, i := range topIndices(b, k) {
		inB[i] = true
	}
	shared := 0
	for _, i := range topIndices(a, k) {
		if inB[i] {
			shared++
		}
	}
	return shared
}

// topIndices returns the positions of the k largest values of x, ties
// broken by position (NaN the smallest, as cmp.Compare orders it): those
// above the k-th largest value, then the first of those equal to it.
func topIndices(x []float64, k int) []int {
	if k == 0 {
		return nil
	}
	keys := make([]uint64, len(x))
	for i, v := range x {
		keys[i] = floatorder.Descending(v)
	}
	kth := floatorder.Select(slices.Clone(keys), k-1)
	top := make([]int, 0, k)
	for i, key := range keys {
		if key < kth {
			top = append(top, i)
		}
	}
	for i, key := range keys {
		if len(top) == k {
			break
		}
		if key == kth {
			top = append(top, i)
		}
	}
	return top
}
