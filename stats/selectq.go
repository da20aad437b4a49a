package stats

import (
	"math"
	"math/bits"
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
// an MSD radix selection whose digits are 11 bits of the keys' offset from
// the least key left, so that each step splits the keys' range, however
// narrow, 2048 ways, and keeps only the keys of the part holding rank k.
func selectKey(keys []uint64, k int) uint64 {
	const digitBits = 11
	var count [1 << digitBits]int
	least, greatest := keyRange(keys)
	for len(keys) > 64 && least != greatest {
		shift := uint(max(bits.Len64(greatest-least)-digitBits, 0))
		width := int((greatest-least)>>shift) + 1
		clear(count[:width])
		for _, key := range keys {
			count[(key-least)>>shift]++
		}
		d, before := 0, 0
		for before+count[d] <= k {
			before += count[d]
			d++
		}
		// The keys of digit d, and their range for the next step.
		j, from := 0, least
		least, greatest = math.MaxUint64, 0
		for _, key := range keys {
			if int((key-from)>>shift) == d {
				keys[j] = key
				j++
				least, greatest = min(least, key), max(greatest, key)
			}
		}
		keys, k = keys[:j], k-before
	}
	if least == greatest {
		return least
	}
	slices.Sort(keys)
	return keys[k]
}

// keyRange returns the least and greatest of keys, which is not empty.
func keyRange(keys []uint64) (least, greatest uint64) {
	least, greatest = keys[0], keys[0]
	for _, key := range keys {
		least, greatest = min(least, key), max(greatest, key)
	}
	return least, greatest
}

// orderStats returns the least and greatest of x and its quartiles, as
// Quantile gives them of x sorted by sortFloats, bit for bit, without
// sorting: the keys are computed once with their range; the range is cut
// into at most 2^16 equal digits, counted; only the keys whose digit holds
// one of the ranks the quartiles interpolate are gathered, and each rank
// is selected among those (selectKey). Digits cut the keys' range rather
// than take their top bits because rewards share their top bits (all of
// [0.5, 1) has one exponent). Each step runs on two cores, half the work
// each. x holds no NaN and at least 2 values.
func orderStats(x []float64) (least, p25, median, p75, greatest float64) {
	n := len(x)
	pool := getKeys(3 * n)
	defer putKeys(pool)
	keys, gathered := (*pool)[:n], (*pool)[n:2*n]
	halves := [2][2]int{{0, n / 2}, {n / 2, n}}
	both := func(f func(h int, from, to int)) {
		var wg sync.WaitGroup
		wg.Go(func() { f(0, halves[0][0], halves[0][1]) })
		f(1, halves[1][0], halves[1][1])
		wg.Wait()
	}
	var lo, hi [2]uint64
	both(func(h, from, to int) {
		l, u := uint64(math.MaxUint64), uint64(0)
		for i := from; i < to; i++ {
			k := floatKey(x[i])
			keys[i] = k
			l, u = min(l, k), max(u, k)
		}
		lo[h], hi[h] = l, u
	})
	leastKey, greatestKey := min(lo[0], lo[1]), max(hi[0], hi[1])
	// The ranks the quartiles read (Quantile: floor h and the next).
	quartiles := [3]float64{0.25, 0.5, 0.75}
	var ranks [6]int
	for j, q := range quartiles {
		lo := int(math.Floor(q * float64(n-1)))
		ranks[2*j], ranks[2*j+1] = lo, min(lo+1, n-1)
	}
	var values [6]float64
	if leastKey == greatestKey {
		for j := range values {
			values[j] = keyFloat(leastKey)
		}
	} else {
		selectRanks(&values, ranks, keys, gathered, (*pool)[2*n:3*n], leastKey, greatestKey, both)
	}
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
	return keyFloat(leastKey), p25, median, p75, keyFloat(greatestKey)
}

// selectRanks writes into values the keys of ascending ranks among keys,
// whose range is least..greatest (not one key), as floats; gathered and
// scratch are scratch space of len(keys), and both runs a function on
// each half of keys at once.
func selectRanks(values *[6]float64, ranks [6]int, keys, gathered, scratch []uint64, least, greatest uint64, both func(func(h, from, to int))) {
	const digitBits = 16
	shift := uint(max(bits.Len64(greatest-least)-digitBits, 0))
	width := int((greatest-least)>>shift) + 1
	counts := getDigitCounts()
	defer digitCounts.Put(counts)
	both(func(h, from, to int) {
		c := counts[h][:width]
		clear(c)
		for _, k := range keys[from:to] {
			c[(k-least)>>shift]++
		}
	})
	// The digits that hold a rank (parts, at most six: the ranks are
	// ascending), where their keys go in gathered and how many there are;
	// each rank's part, and its rank among the part's keys.
	type part struct{ digit, start, size, firstHalf int }
	var parts []part
	var partOf, within [6]int
	d, before := 0, 0
	for j, r := range ranks {
		for before+int(counts[0][d]+counts[1][d]) <= r {
			before += int(counts[0][d] + counts[1][d])
			d++
		}
		if len(parts) == 0 || parts[len(parts)-1].digit != d {
			start := 0
			if len(parts) > 0 {
				start = parts[len(parts)-1].start + parts[len(parts)-1].size
			}
			parts = append(parts, part{d, start, int(counts[0][d] + counts[1][d]), int(counts[0][d])})
		}
		partOf[j], within[j] = len(parts)-1, r-before
	}
	// Each half's next place in gathered for each part, the first half's
	// keys before the second's; a part's keys are those within span of
	// its least possible key, base. A key below base wraps around to more
	// than span: the keys of floats other than NaN lie within 2^64 - 2^52
	// of each other.
	var next [2][6]int
	var base [6]uint64
	for i, p := range parts {
		next[0][i], next[1][i] = p.start, p.start+p.firstHalf
		base[i] = least + uint64(p.digit)<<shift
	}
	span := uint64(1) << shift
	both(func(h, from, to int) {
		at := &next[h]
		for _, k := range keys[from:to] {
			for i := range parts {
				if k-base[i] < span {
					gathered[at[i]] = k
					at[i]++
					break
				}
			}
		}
	})
	// The ranks selected, three a core, each in a copy of its digit's
	// keys (keys are free once gathered).
	spare := [2][]uint64{keys, scratch}
	both(func(h, _, _ int) {
		for j := 3 * h; j < 3*h+3; j++ {
			p := parts[partOf[j]]
			of := gathered[p.start : p.start+p.size]
			into := spare[h][:len(of)]
			copy(into, of)
			values[j] = keyFloat(selectKey(into, within[j]))
		}
	})
}

// digitCounts holds selectRanks' digit counts, one array a half, for reuse.
var digitCounts sync.Pool

// getDigitCounts returns digit counts to fill, of any content.
func getDigitCounts() *[2][1 << 16]int32 {
	if c, ok := digitCounts.Get().(*[2][1 << 16]int32); ok {
		return c
	}
	return new([2][1 << 16]int32)
}
