package stats

import (
	"math"
	"slices"
)

// selectQuantile returns Quantile(q, sorted), sorted being x sorted by
// sortFloats (x holds no NaN), without sorting: the two order statistics
// it interpolates are found by a radix selection on the keys of x, in
// O(n). x is not modified; keys is scratch space of len(x) or more. The
// values are those of sortFloats' order bit for bit (-0 before +0).
func selectQuantile(q float64, x []float64, keys []uint64) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	lo := min(int(math.Floor(h)), n-1)
	keys = keys[:n]
	for i, v := range x {
		keys[i] = floatKey(v)
	}
	ka := selectKey(keys, lo)
	a := keyFloat(ka)
	if lo >= n-1 {
		return a
	}
	// The next order statistic: a again when a fills rank lo+1 too, else
	// the least value above a.
	atMost, next := 0, uint64(math.MaxUint64)
	for _, v := range x {
		if k := floatKey(v); k <= ka {
			atMost++
		} else {
			next = min(next, k)
		}
	}
	b := a
	if atMost <= lo+1 {
		b = keyFloat(next)
	}
	frac := h - float64(lo)
	return interpolate(a, b, frac)
}

// selectKey returns the k-th smallest (0-based) of keys, reordering keys:
// an MSD radix selection, 11 bits a digit, which keeps only the keys of
// the digit holding rank k at each step.
func selectKey(keys []uint64, k int) uint64 {
	const mask = 1<<11 - 1
	var count [mask + 1]int
	for _, shift := range [...]uint{53, 42, 31, 20, 9, 0} {
		if len(keys) <= 64 {
			slices.Sort(keys)
			return keys[k]
		}
		clear(count[:])
		for _, key := range keys {
			count[(key>>shift)&mask]++
		}
		d, before := uint64(0), 0
		for before+count[d] <= k {
			before += count[d]
			d++
		}
		if count[d] == len(keys) {
			continue // every key has this digit
		}
		j := 0
		for _, key := range keys {
			if (key>>shift)&mask == d {
				keys[j] = key
				j++
			}
		}
		keys, k = keys[:j], k-before
	}
	return keys[k] // the keys left are all equal
}
