package stats

import (
	"math"
	"slices"
	"sync"
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

// orderStats returns the least and greatest of x and its quartiles, as
// Quantile gives them of x sorted by sortFloats, bit for bit, without
// sorting: the keys are computed once with a count of their top digits;
// only the keys whose top digit holds one of the ranks the quartiles
// interpolate are gathered, and each rank is selected among those
// (selectKey). Each step runs on two cores, half the work each. x holds no
// NaN and at least 2 values.
func orderStats(x []float64) (least, p25, median, p75, greatest float64) {
	const shift, mask = 53, 1<<11 - 1
	n := len(x)
	pool := getKeys(3 * n)
	defer putKeys(pool)
	keys, gathered := (*pool)[:n], (*pool)[n:2*n]
	type half struct {
		from, to int
		count    [mask + 1]int
		lo, hi   uint64
	}
	halves := [2]*half{{from: 0, to: n / 2}, {from: n / 2, to: n}}
	both := func(f func(h *half)) {
		var wg sync.WaitGroup
		wg.Go(func() { f(halves[0]) })
		f(halves[1])
		wg.Wait()
	}
	both(func(h *half) {
		h.lo, h.hi = math.MaxUint64, 0
		for i := h.from; i < h.to; i++ {
			k := floatKey(x[i])
			keys[i] = k
			h.count[k>>shift&mask]++
			h.lo, h.hi = min(h.lo, k), max(h.hi, k)
		}
	})
	var count [mask + 1]int
	for d := range count {
		count[d] = halves[0].count[d] + halves[1].count[d]
	}
	// The ranks the quartiles read (Quantile: floor h and the next).
	quartiles := [3]float64{0.25, 0.5, 0.75}
	var ranks [6]int
	for j, q := range quartiles {
		lo := int(math.Floor(q * float64(n-1)))
		ranks[2*j], ranks[2*j+1] = lo, min(lo+1, n-1)
	}
	// Each rank's top digit and its rank among the keys of that digit;
	// where the keys of the digits needed go in gathered, the first
	// half's before the second's.
	var digit, within [6]int
	var start [mask + 1]int
	for d := range start {
		start[d] = -1
	}
	next := 0
	for j, r := range ranks {
		d, before := 0, 0
		for before+count[d] <= r {
			before += count[d]
			d++
		}
		digit[j], within[j] = d, r-before
		if start[d] < 0 {
			start[d] = next
			next += count[d]
		}
	}
	both(func(h *half) {
		fill := start
		if h == halves[1] {
			for d, at := range start {
				if at >= 0 {
					fill[d] = at + halves[0].count[d]
				}
			}
		}
		for _, k := range keys[h.from:h.to] {
			if d := k >> shift & mask; fill[d] >= 0 {
				gathered[fill[d]] = k
				fill[d]++
			}
		}
	})
	// The ranks selected, three a core, each in a copy of its digit's
	// keys (keys and the pool's last third are free once gathered).
	var values [6]float64
	scratch := [2][]uint64{keys, (*pool)[2*n : 3*n]}
	both(func(h *half) {
		side := 0
		if h == halves[1] {
			side = 1
		}
		for j := 3 * side; j < 3*side+3; j++ {
			of := gathered[start[digit[j]] : start[digit[j]]+count[digit[j]]]
			into := scratch[side][:len(of)]
			copy(into, of)
			values[j] = keyFloat(selectKey(into, within[j]))
		}
	})
	for j, q := range quartiles {
		h := q * float64(n-1)
		v := values[2*j]
		if lo := int(math.Floor(h)); lo < n-1 {
			v = interpolate(values[2*j], values[2*j+1], h-float64(lo))
		}
		switch j {
		case 0:
			p25 = v
		case 1:
			median = v
		default:
			p75 = v
		}
	}
	lo, hi := min(halves[0].lo, halves[1].lo), max(halves[0].hi, halves[1].hi)
	return keyFloat(lo), p25, median, p75, keyFloat(hi)
}
