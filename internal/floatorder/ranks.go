package floatorder

import (
	"math/bits"
	"slices"
	"sync"
)

// Dense ranks: a comparison of two orders of the same positions (the
// Compare tab's rank statistics) sorts each by its values once, then
// sorts one by the other's dense ranks, small integers, in a pass or two.

// RankBuffers are the buffers of Ranks and SortByCode, kept from one call
// to the next. Its zero value is ready; it is not safe for concurrent
// use.
type RankBuffers struct {
	a, b []uint64
	// runs and tmp are the two goroutines' buffers for sorting Ranks'
	// runs.
	runs, tmp [2][]uint64
	// scratch are the two goroutines' buffers for sorting a bucket.
	scratch [2][]uint64
	// bins are the two goroutines' counts of entries per bin, bucketOf
	// each bin's bucket, start each bucket's first place and place each
	// goroutine's next place in each bucket, of Ranks' scatter into
	// buckets.
	bins     [2][]uint32
	bucketOf []uint16
	start    []int
	place    [2][]int
	// few are ranksFew's two hash tables, made at its first call.
	few *[2]fewTable
}

// runRadixMin is the shortest run Ranks sorts by radix rather than by
// comparison.
const runRadixMin = 256

// Ranks' scatter into buckets: the entries are counted in up to 2^binBits
// bins by their upper varying bits, consecutive bins are grouped into
// buckets of up to bucketSize entries, which each stay in the caches
// while they are sorted and ranked. A bin holding more entries is a
// bucket alone.
const (
	binBits    = 16
	bucketSize = 2048
)

// grow returns buf's two buffers of n entries.
func (buf *RankBuffers) grow(n int) (a, b []uint64) {
	if cap(buf.a) < n {
		buf.a, buf.b = make([]uint64, n), make([]uint64, n)
	}
	return buf.a[:n], buf.b[:n]
}

// parallelMin is the fewest positions sorted on two goroutines: below, a
// goroutine's start costs about as much as it saves.
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
// Key(x[i])) and avg[c] to the average rank of the values of code c (the
// mean of the 1-based places of the positions tied with it,
// stats.AverageRanks's), and returns how many distinct keys there are
// and the pairs of equal keys (sum t(t-1)/2 over the runs of t equal
// keys). order, codes and avg are as long as x, which is below 2^31
// values; what avg holds past distinct is not to be read. A table by
// code rather than by position is written in order, where one by
// position would be written at random.
//
// Each entry is a key's upper 64-p bits above its position, p the bits
// a position needs, eight bytes: on a million values the upper 44 bits,
// which distinct values seldom share. The entries are scattered once into
// buckets by their upper varying bits, in one pass over them, the
// buckets sized by a count of those bits so that each, up to bucketSize
// entries, is then sorted (sortBucket), coded and its table written
// while it stays in the caches, the buckets split between two
// goroutines; a bucket the count could not split (a bin of parallelMin
// entries or more) is sorted on both first. Runs equal in the upper bits
// are sorted by the lower ones: on distinct values most runs are of one.
func Ranks(x []float64, order []int32, codes []uint32, avg []float64, buf *RankBuffers) (distinct int, tied int64) {
	n := len(x)
	if n == 0 {
		return 0, 0
	}
	if distinct, tied, ok := ranksFew(x, order, codes, avg, buf); ok {
		return distinct, tied
	}
	a, b := buf.grow(n)
	posBits := max(bits.Len(uint(n-1)), 1)
	posMask := uint64(1)<<posBits - 1
	var or, and [2]uint64
	halves(n, func(part, lo, hi int) {
		o, d := uint64(0), ^uint64(0)
		for _, v := range x[lo:hi] {
			k := Key(v) >> posBits
			o |= k
			d &= k
		}
		or[part], and[part] = o, d
	})
	// The bins: binBits bits of the upper ones from the highest that
	// varies down, fewer on fewer entries; equal upper bits share a bin.
	varying := (or[0] | or[1]) ^ (and[0] & and[1])
	width := min(binBits, max(bits.Len(uint(n))-4, 1), bits.Len64(varying))
	binShift := uint(posBits + max(bits.Len64(varying)-width, 0))
	bins := 1 << width
	for part := range buf.bins {
		buf.bins[part] = slices.Grow(buf.bins[part][:0], bins)[:bins]
		clear(buf.bins[part])
	}
	halves(n, func(part, lo, hi int) {
		count := buf.bins[part]
		for i := lo; i < hi; i++ {
			e := Key(x[i])&^posMask | uint64(i)
			a[i] = e
			count[(e>>binShift)&uint64(bins-1)]++
		}
	})
	// Consecutive bins grouped into buckets of up to bucketSize entries
	// but for a bin larger alone; start[k] is bucket k's first place,
	// place[part][k] the part's next one in it.
	buf.bucketOf = slices.Grow(buf.bucketOf[:0], bins)[:bins]
	bucketOf := buf.bucketOf
	start := append(buf.start[:0], 0)
	end := 0
	for v := range bins {
		c := int(buf.bins[0][v]) + int(buf.bins[1][v])
		if first := start[len(start)-1]; end > first && end+c-first > bucketSize {
			start = append(start, end)
		}
		bucketOf[v] = uint16(len(start) - 1)
		end += c
	}
	start = append(start, n)
	buf.start = start
	nBuckets := len(start) - 1
	if nBuckets == 1 {
		// The scatter would copy the entries, in order already.
		a, b = b, a
	} else {
		for part := range buf.place {
			buf.place[part] = slices.Grow(buf.place[part][:0], nBuckets)[:nBuckets]
		}
		copy(buf.place[0], start)
		copy(buf.place[1], start)
		for v := range bins {
			buf.place[1][bucketOf[v]] += int(buf.bins[0][v])
		}
		halves(n, func(part, lo, hi int) {
			place := buf.place[part]
			for _, e := range a[lo:hi] {
				k := bucketOf[(e>>binShift)&uint64(bins-1)]
				b[place[k]] = e
				place[k]++
			}
		})
	}
	// A bucket of parallelMin entries or more (values that one count of
	// bins does not spread: a cluster and far outliers, or equal upper
	// bits) sorted first on both goroutines, a over it free.
	for k := range nBuckets {
		if lo, hi := start[k], start[k+1]; hi-lo >= parallelMin && !slices.IsSorted(b[lo:hi]) {
			sortBucketHalves(b[lo:hi], a[lo:hi])
		}
	}
	// The places in two parts, each coded from 0, each place's code
	// written above its position over its entry; then each part's codes
	// written at their positions, the second's moved up by the first's
	// count of distinct keys. The parts split between runs equal in the
	// upper bits: at a bucket's start (equal upper bits share a bin), or
	// inside one sorted already.
	mid := n / 2
	if k, found := slices.BinarySearch(start, mid); !found {
		if k--; start[k+1]-start[k] < parallelMin {
			mid = start[k+1]
		} else {
			for mid < n && b[mid]>>posBits == b[mid-1]>>posBits {
				mid++
			}
		}
	}
	var pairs [2]int64
	var count [2]uint32
	halves(n, func(part, _, _ int) {
		from, to := 0, mid
		if part == 1 {
			from, to = mid, n
		}
		// Each part's table from where its codes could start at most:
		// the second's is moved down after the first's once both are
		// counted.
		table := avg[from:]
		code := uint32(0)
		first, _ := slices.BinarySearch(start, from+1)
		for k := first - 1; k < nBuckets && start[k] < to; k++ {
			// The bucket's places in the part.
			lo, hi := max(start[k], from), min(start[k+1], to)
			if !slices.IsSorted(b[lo:hi]) {
				scratch := slices.Grow(buf.scratch[part][:0], hi-lo)[:hi-lo]
				buf.scratch[part] = scratch
				sortBucket(b[lo:hi], scratch)
			}
			for lo < hi {
				end := lo + 1
				for end < hi && b[end]>>posBits == b[lo]>>posBits {
					end++
				}
				if end-lo == 1 {
					at := b[lo] & posMask
					order[lo], b[lo] = int32(at), uint64(code)<<32|at
					table[code] = float64(lo + 1)
					code++
					lo = end
					continue
				}
				// The lower bits above the position: in the order of
				// the whole keys, ties by position. The run is already
				// so when its keys do not go down (all equal, often).
				run := buf.runs[part][:0]
				var or, and uint64 = 0, ^uint64(0)
				for _, e := range b[lo:end] {
					at := e & posMask
					k := Key(x[at]) << (64 - posBits)
					run = append(run, k|at)
					or, and = or|k, and&k
				}
				buf.runs[part] = run
				switch {
				case slices.IsSorted(run):
				case len(run) < runRadixMin:
					slices.Sort(run)
				default:
					tmp := slices.Grow(buf.tmp[part][:0], len(run))[:len(run)]
					buf.tmp[part] = tmp
					run = radixPasses(run, tmp, 64-posBits, digitBits, or^and)
				}
				for r := 0; r < len(run); {
					s := r + 1
					for s < len(run) && run[s]>>(64-posBits) == run[r]>>(64-posBits) {
						s++
					}
					table[code] = float64(2*lo+r+s+1) / 2 // places lo+r .. lo+s-1
					for j, e := range run[r:s] {
						at := e & posMask
						order[lo+r+j], b[lo+r+j] = int32(at), uint64(code)<<32|at
					}
					t := int64(s - r)
					pairs[part] += t * (t - 1) / 2
					code++
					r = s
				}
				lo = end
			}
		}
		count[part] = code
	})
	halves(n, func(part, _, _ int) {
		lo, hi, base := 0, mid, uint32(0)
		if part == 1 {
			lo, hi, base = mid, n, count[0]
		}
		for _, e := range b[lo:hi] {
			codes[uint32(e)] = uint32(e>>32) + base
		}
	})
	copy(avg[count[0]:], avg[mid:mid+int(count[1])])
	return int(count[0] + count[1]), pairs[0] + pairs[1]
}

// bucketInsertionMax is the longest run sortBucket sorts by insertion.
const bucketInsertionMax = 16

// bucketDigitBits is the widest digit sortBucket counts by: its counts
// stay within the first-level cache.
const bucketDigitBits = 12

// sortBucket sorts s, distinct entries, in place, tmp a buffer as long:
// a counting sort on its highest varying bits, two to four times as
// many values of them as entries, leaves runs of one or two on spread
// entries, which insertion finishes; longer runs are sorted so again.
func sortBucket(s, tmp []uint64) {
	if len(s) <= bucketInsertionMax {
		insertionSortUint64(s)
		return
	}
	var or, and uint64 = 0, ^uint64(0)
	for _, e := range s {
		or, and = or|e, and&e
	}
	top := bits.Len64(or ^ and)
	width := min(bits.Len(uint(len(s)-1))+1, bucketDigitBits, top)
	shift := uint(top - width)
	mask := uint64(1)<<width - 1
	// Counts of two sizes, the small one for the runs sorted again,
	// which are short: zeroing the large one would cost more than them.
	var c []int32
	if width <= 6 {
		var counts [1 << 6]int32
		c = counts[:1<<width]
	} else {
		var counts [1 << bucketDigitBits]int32
		c = counts[:1<<width]
	}
	for _, e := range s {
		c[(e>>shift)&mask]++
	}
	sum, longest := int32(0), int32(0)
	for v, count := range c {
		c[v] = sum
		sum += count
		longest = max(longest, count)
	}
	for _, e := range s {
		v := (e >> shift) & mask
		tmp[c[v]] = e
		c[v]++
	}
	copy(s, tmp)
	if longest <= bucketInsertionMax {
		// Each entry stops at the first one of a smaller digit.
		insertionSortUint64(s)
		return
	}
	lo := int32(0)
	for _, hi := range c {
		switch {
		case hi-lo > bucketInsertionMax:
			sortBucket(s[lo:hi], tmp[lo:hi])
		case hi-lo > 1:
			insertionSortUint64(s[lo:hi])
		}
		lo = hi
	}
}

// sortBucketHalves is sortBucket on two goroutines, for a long s: a
// radix pass on its highest varying bits, then the runs equal in them
// split between the two, a run still long sorted so again (sortBucket's
// counts are for fewer than parallelMin entries).
func sortBucketHalves(s, tmp []uint64) {
	n := len(s)
	var or, and [2]uint64
	halves(n, func(part, lo, hi int) {
		o, d := uint64(0), ^uint64(0)
		for _, e := range s[lo:hi] {
			o, d = o|e, d&e
		}
		or[part], and[part] = o, d
	})
	top := bits.Len64((or[0] | or[1]) ^ (and[0] & and[1]))
	width := min(digitBits, top)
	shift := top - width
	if sorted := radixPasses(s, tmp, shift, width, (uint64(1)<<width-1)<<shift); &sorted[0] != &s[0] {
		halves(n, func(_, lo, hi int) { copy(s[lo:hi], sorted[lo:hi]) })
	}
	mid := n / 2
	for mid < n && s[mid]>>shift == s[mid-1]>>shift {
		mid++
	}
	halves(n, func(part, _, _ int) {
		lo, hi := 0, mid
		if part == 1 {
			lo, hi = mid, n
		}
		for lo < hi {
			end := lo + 1
			for end < hi && s[end]>>shift == s[lo]>>shift {
				end++
			}
			switch {
			case end-lo >= parallelMin:
				sortBucketHalves(s[lo:end], tmp[lo:end])
			case end-lo > 1:
				sortBucket(s[lo:end], tmp[lo:end])
			}
			lo = end
		}
	})
}

// insertionSortUint64 sorts s in place by insertion.
func insertionSortUint64(s []uint64) {
	for i := 1; i < len(s); i++ {
		e := s[i]
		j := i
		for ; j > 0 && s[j-1] > e; j-- {
			s[j] = s[j-1]
		}
		s[j] = e
	}
}

// fewMax is the most distinct keys ranksFew takes: its table of them
// stays within the caches.
const fewMax = 4096

// ranksFew is Ranks for values of at most fewMax distinct keys (ranks,
// 0/1 scores, rewards of a few levels), by counting rather than sorting:
// each value's key found in a hash table of the distinct ones, then the
// positions placed by their key's count of those below. ok is false when
// a sample of x, or then x, has more distinct keys: then order and avg
// are not set, and codes may be partly written, for Ranks to overwrite.
// Each half of x is counted in its own table on its own goroutine
// (halves), the two tables' keys then joined and coded, and each half
// placed after the places the first half's values of its key take. The
// tables are buf's.
func ranksFew(x []float64, order []int32, codes []uint32, avg []float64, buf *RankBuffers) (distinct int, tied int64, ok bool) {
	n := len(x)
	sample := make(map[uint64]struct{})
	for j := 0; j < n; j += max(n/1024, 1) {
		if sample[Key(x[j])] = struct{}{}; len(sample) > fewMax/8 {
			return 0, 0, false
		}
	}
	if buf.few == nil {
		buf.few = new([2]fewTable)
	}
	tables := buf.few
	for part := range tables {
		clear(tables[part].used[:])
		tables[part].held = tables[part].held[:0]
	}
	var full [2]bool
	halves(n, func(part, lo, hi int) { full[part] = !tables[part].add(x[lo:hi], codes[lo:hi]) })
	if full[0] || full[1] {
		return 0, 0, false
	}
	// The keys of both, sorted and coded.
	keys := make([]uint64, 0, len(tables[0].held)+len(tables[1].held))
	for part := range tables {
		for _, s := range tables[part].held {
			keys = append(keys, tables[part].keys[s])
		}
	}
	slices.Sort(keys)
	if keys = slices.Compact(keys); len(keys) > fewMax {
		return 0, 0, false
	}
	for part := range tables {
		t := &tables[part]
		for _, s := range t.held {
			c, _ := slices.BinarySearch(keys, t.keys[s])
			t.codeOf[s] = uint32(c)
		}
	}
	// Each half's count of each code, then where its first value of each
	// goes: places start[c] .. start[c+1]-1 (0-based) hold code c, the
	// first half's before the second's.
	var count [2][]int
	halves(n, func(part, lo, hi int) {
		t, cnt := &tables[part], make([]int, len(keys))
		for i := lo; i < hi; i++ {
			c := t.codeOf[codes[i]]
			codes[i] = c
			cnt[c]++
		}
		count[part] = cnt
	})
	start := 0
	for c := range keys {
		c0, c1 := count[0][c], count[1][c]
		t := c0 + c1
		tied += int64(t) * int64(t-1) / 2
		avg[c] = float64(2*start+t+1) / 2
		count[0][c], count[1][c] = start, start+c0
		start += t
	}
	halves(n, func(part, lo, hi int) {
		place := count[part]
		for i := lo; i < hi; i++ {
			c := codes[i]
			order[place[c]] = int32(i)
			place[c]++
		}
	})
	return len(keys), tied, true
}

// fewTable is ranksFew's hash table of the distinct keys of part of x:
// open addressing, a multiplicative hash, at most half full.
type fewTable struct {
	keys [fewSlots]uint64
	used [fewSlots]bool
	// held are the slots used, in the order their keys came; codeOf[s]
	// the code of slot s's key among all of x's.
	held   []int
	codeOf [fewSlots]uint32
}

// fewSlots is the slots of a fewTable: twice fewMax.
const fewSlots = 2 * fewMax

// add finds each value of x in t, adding the keys not held, and sets
// slot[i] to x[i]'s slot. It reports false, having stopped, when x holds
// more than fewMax distinct keys.
func (t *fewTable) add(x []float64, slot []uint32) bool {
	for i, v := range x {
		k := Key(v)
		s := int(k * 0x9e3779b97f4a7c15 >> (64 - 13))
		for t.used[s] && t.keys[s] != k {
			s = (s + 1) & (fewSlots - 1)
		}
		if !t.used[s] {
			if len(t.held) == fewMax {
				return false
			}
			t.used[s], t.keys[s] = true, k
			t.held = append(t.held, s)
		}
		slot[i] = uint32(s)
	}
	return true
}

// radixPasses sorts a stably by its bits from low up, in digits of width
// bits but for the digits that varying, the bits that differ between
// entries, leaves out; b is a buffer as long. It returns the sorted one
// of the two.
func radixPasses(a, b []uint64, low, width int, varying uint64) []uint64 {
	n := len(a)
	mask := uint64(1)<<width - 1
	for shift := uint(low); shift < 64; shift += uint(width) {
		if (varying>>shift)&mask == 0 {
			continue
		}
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
	return a
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
	a, b := buf.grow(n)
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
	if passes := (bits + digitBits - 1) / digitBits; passes > 0 {
		width := (bits + passes - 1) / passes
		a = radixPasses(a, b, 32, width, (uint64(1)<<bits-1)<<32)
	}
	halves(n, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			dst[j] = int32(uint32(a[j]))
		}
	})
}
