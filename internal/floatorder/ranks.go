package floatorder

import "sync"

// Dense ranks: a comparison of two orders of the same positions (the
// Compare tab's rank statistics) sorts each by its values once, then
// sorts one by the other's dense ranks, small integers, in a pass or two.

// keyed is a position with its key, as 16 bytes: sorting these in place
// of the positions alone reads each key once.
type keyed struct {
	key uint64
	at  uint32
}

// RankBuffers are the buffers of Ranks and SortByCode, kept from one call
// to the next. Its zero value is ready; it is not safe for concurrent
// use.
type RankBuffers struct {
	a, b   []keyed
	pa, pb []uint64
}

// parallelMin is the fewest positions sorted on two goroutines: below, a
// goroutine's start costs more than half the sort.
const parallelMin = 1 << 16

// halves calls f on [0, n/2) and [n/2, n), on two goroutines when n is at
// least parallelMin, with the part's number (0, 1).
func halves(n int, f func(part, lo, hi int)) {
	if n < parallelMin {
		f(0, 0, n/2)
		f(1, n/2, n)
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { f(1, n/2, n) })
	f(0, 0, n/2)
	wg.Wait()
}

// Ranks sorts the positions of x by Key, ties by position, into order,
// sets codes[i] to x[i]'s dense rank (how many distinct keys are below
// Key(x[i])) and avg[i] to its average rank (the mean of the 1-based
// places of the positions tied with it, stats.AverageRanks's), and
// returns how many distinct keys there are and the pairs of equal keys
// (sum t(t-1)/2 over the runs of t equal keys). order, codes and avg are
// as long as x. A least-significant-digit radix sort, each pass split
// between two goroutines, skipping the digits that no key changes.
func Ranks(x []float64, order []int32, codes []uint32, avg []float64, buf *RankBuffers) (distinct int, tied int64) {
	n := len(x)
	if n == 0 {
		return 0, 0
	}
	if cap(buf.a) < n {
		buf.a, buf.b = make([]keyed, n), make([]keyed, n)
	}
	a, b := buf.a[:n], buf.b[:n]
	var or, and [2]uint64
	halves(n, func(part, lo, hi int) {
		o, d := uint64(0), ^uint64(0)
		for i := lo; i < hi; i++ {
			k := Key(x[i])
			a[i] = keyed{k, uint32(i)}
			o |= k
			d &= k
		}
		or[part], and[part] = o, d
	})
	varying := (or[0] | or[1]) ^ (and[0] & and[1])
	for d := range digits {
		shift := uint(d * digitBits)
		if (varying>>shift)&(buckets-1) == 0 {
			continue
		}
		var counts [2][buckets]int
		halves(n, func(part, lo, hi int) {
			c := &counts[part]
			for _, e := range a[lo:hi] {
				c[(e.key>>shift)&(buckets-1)]++
			}
		})
		offsets(&counts)
		halves(n, func(part, lo, hi int) {
			c := &counts[part]
			for _, e := range a[lo:hi] {
				v := (e.key >> shift) & (buckets - 1)
				b[c[v]] = e
				c[v]++
			}
		})
		a, b = b, a
	}
	// The runs of equal keys, in two parts split between runs: the
	// second's codes start at the first's count of distinct keys.
	mid := n / 2
	for mid > 0 && mid < n && a[mid].key == a[mid-1].key {
		mid++
	}
	first := 0
	for j := range mid {
		if j == 0 || a[j].key != a[j-1].key {
			first++
		}
	}
	var pairs [2]int64
	halves(n, func(part, _, _ int) {
		lo, hi, code := 0, mid, uint32(0)
		if part == 1 {
			lo, hi, code = mid, n, uint32(first)
		}
		for lo < hi {
			end := lo + 1
			for end < hi && a[end].key == a[lo].key {
				end++
			}
			rank := float64(lo+end+1) / 2
			for j := lo; j < end; j++ {
				at := a[j].at
				order[j] = int32(at)
				codes[at], avg[at] = code, rank
			}
			t := int64(end - lo)
			pairs[part] += t * (t - 1) / 2
			code++
			lo = end
		}
		if part == 1 {
			distinct = int(code)
		}
	})
	return distinct, pairs[0] + pairs[1]
}

// offsets turns the two parts' counts per bucket into where each part's
// first entry of each bucket goes: the buckets in order, within one the
// first part's entries before the second's, which keeps the sort stable.
func offsets(counts *[2][buckets]int) {
	sum := 0
	for v := range buckets {
		c0, c1 := counts[0][v], counts[1][v]
		counts[0][v], counts[1][v] = sum, sum+c0
		sum += c0 + c1
	}
}

// SortByCode sets dst to the positions of src sorted stably by
// codes[position], each code below distinct: a radix sort on as few
// digits as distinct needs (one pass up to 2,048 codes, two up to 2^22).
// dst and src are as long and must not overlap.
func SortByCode(dst, src []int32, codes []uint32, distinct int, buf *RankBuffers) {
	n := len(src)
	if n == 0 {
		return
	}
	if cap(buf.pa) < n {
		buf.pa, buf.pb = make([]uint64, n), make([]uint64, n)
	}
	a, b := buf.pa[:n], buf.pb[:n]
	// The code above the position, 32 bits each, sorted on the code's
	// bits only.
	halves(n, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			p := src[j]
			a[j] = uint64(codes[p])<<32 | uint64(uint32(p))
		}
	})
	bits := 0
	for (distinct-1)>>bits > 0 {
		bits++
	}
	passes := (bits + digitBits - 1) / digitBits
	width := 0
	if passes > 0 {
		width = (bits + passes - 1) / passes
	}
	mask := uint64(1)<<width - 1
	for d := range passes {
		shift := uint(32 + d*width)
		var counts [2][buckets]int
		halves(n, func(part, lo, hi int) {
			c := &counts[part]
			for _, e := range a[lo:hi] {
				c[(e>>shift)&mask]++
			}
		})
		offsets(&counts)
		halves(n, func(part, lo, hi int) {
			c := &counts[part]
			for _, e := range a[lo:hi] {
				v := (e >> shift) & mask
				b[c[v]] = e
				c[v]++
			}
		})
		a, b = b, a
	}
	halves(n, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			dst[j] = int32(uint32(a[j]))
		}
	})
}
