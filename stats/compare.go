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
	n := len(x)
	if n < 2 {
		return math.NaN()
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	floatorder.Sort(order, 2, func(k, i int) uint64 {
		if k == 0 {
			return floatorder.Key(x[i])
		}
		return floatorder.Key(y[i])
	})
	tiedX := tiedPairs(order, func(a, b int) bool { return x[a] == x[b] })
	tiedXY := tiedPairs(order, func(a, b int) bool { return x[a] == x[b] && y[a] == y[b] })
	discordant := mergeCountInversions(order, make([]int, n), y)
	tiedY := tiedPairs(order, func(a, b int) bool { return y[a] == y[b] })

	pairs := int64(n) * int64(n-1) / 2
	denom := math.Sqrt(float64(pairs-tiedX) * float64(pairs-tiedY))
	if denom == 0 {
		return math.NaN()
	}
	return float64(pairs-tiedX-tiedY+tiedXY-2*discordant) / denom
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

// mergeCountInversions stably sorts order by key ascending (using buf,
// len(buf) >= len(order)) and returns the number of pairs it exchanged:
// those with a larger key before a strictly smaller one.
func mergeCountInversions(order, buf []int, key []float64) int64 {
	n := len(order)
	if n < 2 {
		return 0
	}
	mid := n / 2
	inv := mergeCountInversions(order[:mid], buf, key) + mergeCountInversions(order[mid:], buf, key)
	merged := buf[:0]
	i, j := 0, mid
	for i < mid && j < n {
		if key[order[j]] < key[order[i]] {
			// order[j] jumps over every element left in the first half.
			inv += int64(mid - i)
			merged = append(merged, order[j])
			j++
		} else {
			merged = append(merged, order[i])
			i++
		}
	}
	merged = append(merged, order[i:mid]...)
	merged = append(merged, order[j:]...)
	copy(order, merged)
	return inv
}

// SignDisagreements counts the trajectories whose advantage is positive
// under a and negative under b (posNeg), and negative under a and positive
// under b (negPos): the ones the two methods push in opposite directions.
// A zero advantage is neither positive nor negative.
func SignDisagreements(a, b []float64) (posNeg, negPos int) {
	for i := range a {
		switch {
		case a[i] > 0 && b[i] < 0:
			posNeg++
		case a[i] < 0 && b[i] > 0:
			negPos++
		}
	}
	return posNeg, negPos
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
