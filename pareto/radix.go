package pareto

import (
	"cmp"
	"math"
	"slices"
)

// keyIdx is a sort key tagged with the index of the point it came from.
type keyIdx struct {
	k uint64
	i int32
}

// keyYIdx is a keyIdx carrying a second value along.
type keyYIdx struct {
	k uint64
	y float64
	i int32
}

// descKey maps v to a key whose ascending order is v's descending order, with
// -0 and +0 mapped to the same key. (The order of NaN keys is arbitrary.)
func descKey(v float64) uint64 {
	if v == 0 {
		v = 0 // -0 becomes +0
	}
	b := math.Float64bits(v)
	if b>>63 != 0 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	return ^b
}

const (
	radixBits    = 11
	radixBuckets = 1 << radixBits
	radixPasses  = (64 + radixBits - 1) / radixBits
	// Below this many keys a comparison sort is faster than the radix
	// passes and their histograms.
	radixMin = 512
)

// sortKeys sorts a by key (ties in any deterministic order) and returns the
// sorted slice, which is either a or tmp[:len(a)]; the other is clobbered.
// It is an LSD radix sort on 11-bit digits that skips the digits on which all
// keys agree. len(tmp) >= len(a).
func sortKeys(a, tmp []keyIdx) []keyIdx {
	if len(a) < radixMin {
		slices.SortFunc(a, func(x, y keyIdx) int { return cmp.Compare(x.k, y.k) })
		return a
	}
	return radixSortKeys(a, tmp)
}

// radixSortKeys is sortKeys' radix sort, whatever len(a): it is stable, so
// keys that are equal keep their order in a. len(a) >= 1.
func radixSortKeys(a, tmp []keyIdx) []keyIdx {
	n := len(a)
	var hist [radixPasses][radixBuckets]uint32
	for _, e := range a {
		k := e.k
		for d := range radixPasses {
			hist[d][(k>>(d*radixBits))&(radixBuckets-1)]++
		}
	}
	src, dst := a, tmp[:n]
	for d := range radixPasses {
		h := &hist[d]
		shift := uint(d * radixBits)
		if h[(src[0].k>>shift)&(radixBuckets-1)] == uint32(n) {
			continue // every key has the same digit
		}
		var sum uint32
		for b := range h {
			c := h[b]
			h[b] = sum
			sum += c
		}
		for _, e := range src {
			b := (e.k >> shift) & (radixBuckets - 1)
			dst[h[b]] = e
			h[b]++
		}
		src, dst = dst, src
	}
	return src
}

// sortKeysY is sortKeys for keyYIdx.
func sortKeysY(a, tmp []keyYIdx) []keyYIdx {
	n := len(a)
	if n < radixMin {
		slices.SortFunc(a, func(x, y keyYIdx) int { return cmp.Compare(x.k, y.k) })
		return a
	}
	var hist [radixPasses][radixBuckets]uint32
	for j := range a {
		k := a[j].k
		for d := range radixPasses {
			hist[d][(k>>(d*radixBits))&(radixBuckets-1)]++
		}
	}
	src, dst := a, tmp[:n]
	for d := range radixPasses {
		h := &hist[d]
		shift := uint(d * radixBits)
		if h[(src[0].k>>shift)&(radixBuckets-1)] == uint32(n) {
			continue
		}
		var sum uint32
		for b := range h {
			c := h[b]
			h[b] = sum
			sum += c
		}
		for j := range src {
			b := (src[j].k >> shift) & (radixBuckets - 1)
			dst[h[b]] = src[j]
			h[b]++
		}
		src, dst = dst, src
	}
	return src
}

const (
	// runRadixMin is the length from which sortRunByY sorts by radix: below
	// it the histograms cost more than the comparisons they save.
	runRadixMin = 128
	runDigits   = 8 // of 8 bits: a run's histograms stay in L1
)

// sortRunByY sorts a, points of equal key k, by y descending (-0 and +0 as
// equal), in place; tmp is scratch space of len(a). Long runs are sorted by
// an LSD radix sort on descKey(y) in 8-bit digits, skipping the digits on
// which all keys agree: a run on a coarse grid holds about a thousand
// points, too few for sortKeys' 11-bit digits. The keys are held in k
// during the sort, and k is put back after.
func sortRunByY(a, tmp []keyYIdx) {
	n := len(a)
	k := a[0].k
	for j := range a {
		a[j].k = descKey(a[j].y)
	}
	if n < runRadixMin {
		slices.SortFunc(a, func(x, y keyYIdx) int { return cmp.Compare(x.k, y.k) })
	} else {
		var hist [runDigits][256]uint32
		for j := range a {
			key := a[j].k
			for d := range runDigits {
				hist[d][byte(key>>(8*d))]++
			}
		}
		src, dst := a, tmp[:n]
		for d := range runDigits {
			h := &hist[d]
			shift := uint(8 * d)
			if h[byte(src[0].k>>shift)] == uint32(n) {
				continue
			}
			var sum uint32
			for b := range h {
				c := h[b]
				h[b] = sum
				sum += c
			}
			for j := range src {
				b := byte(src[j].k >> shift)
				dst[h[b]] = src[j]
				h[b]++
			}
			src, dst = dst, src
		}
		if &src[0] != &a[0] {
			copy(a, src)
		}
	}
	for j := range a {
		a[j].k = k
	}
}
