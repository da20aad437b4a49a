package stats

import (
	"math"
	"math/bits"
	"slices"
	"sync"
	"unsafe"
)

// KendallTauBCounts returns Kendall's tau-b (KendallTauB) from its counts
// on n values: the pairs tied in x (n1), in y (n2), in both (n3), and the
// discordant pairs D,
//
//	tau_b = (n0 - n1 - n2 + n3 - 2 D) / sqrt((n0 - n1) (n0 - n2)),  n0 = n(n-1)/2.
//
// It is NaN when there are fewer than two values or either is constant.
func KendallTauBCounts(n int, tiedX, tiedY, tiedXY, discordant int64) float64 {
	if n < 2 {
		return math.NaN()
	}
	pairs := int64(n) * int64(n-1) / 2
	denom := math.Sqrt(float64(pairs-tiedX) * float64(pairs-tiedY))
	if denom == 0 {
		return math.NaN()
	}
	return float64(pairs-tiedX-tiedY+tiedXY-2*discordant) / denom
}

// parallelMin is the fewest values Inversions splits between two
// goroutines.
const parallelMin = 1 << 16

// leafMax is the most values countRange counts the inversions of pair by
// pair (leafInversions) rather than by splitting their range.
const leafMax = 12

// wordLeafMax is the widest range of values distinctInversions counts:
// a word's bits. More values than that share bits, as repeats would, and
// are split instead.
const wordLeafMax = 64

// Inversions returns the pairs i < j of v with v[i] > v[j]: Kendall's
// discordant pairs, when v is y's dense ranks in the order of (x, y) (see
// KendallTauB). v and buf (as long) are its scratch: both are left
// overwritten, in no useful order.
//
// It counts by the values' range, top down, as a wavelet tree does: the
// values of a range [lo, hi) are split at mid = lo + (hi-lo)/2, the pairs
// of one at least mid before one below counted, and the values moved into
// their two halves, each in v's order or its reverse (countRange), then
// counted the same way. A pair out of order is counted at the one split
// that separates its two values. Each split is one branch-free pass
// (partitionCounting); ranges of one value hold no pair, a range of more
// than wordLeafMax/2 values and at most wordLeafMax holding as many, all
// distinct (dense ranks with no tie there), is counted as a word's bits
// (distinctInversions), and ranges of at most leafMax values pair by
// pair. O(n log K) time for values below K, with a recursion log2(K)
// deep. From parallelMin values the first split is at a sample's median,
// and its two halves are counted on two goroutines. Before the splits,
// an insertion sort counts the inversions of v nearly in order (fewer
// than n/nearlySorted), in O(n + inversions) time, and stops once past
// that.
func Inversions(v, buf []uint32) int64 {
	n := len(v)
	inv, sorted := insertionCounting(v, n/nearlySorted)
	if sorted {
		return inv
	}
	hi := uint64(slices.Max(v)) + 1
	if n < parallelMin {
		return inv + countRange(v, buf, 0, hi, false)
	}
	var sample [255]uint32
	for i := range sample {
		sample[i] = v[i*(n-1)/(len(sample)-1)]
	}
	slices.Sort(sample[:])
	mid := max(sample[len(sample)/2], 1)
	pairs, below := partitionCounting(buf, v, mid, false)
	var low int64
	var wg sync.WaitGroup
	wg.Go(func() { low = countRange(buf[:below], v[:below], 0, uint64(mid), false) })
	high := countRange(buf[below:], v[below:], uint64(mid), hi, true)
	wg.Wait()
	return inv + pairs + low + high
}

// nearlySorted bounds Inversions' insertion sort (insertionCounting): it
// moves n values n/nearlySorted places in all at most, then the splits
// count instead; within it, the split passes would cost more than the
// moves.
const nearlySorted = 2

// insertionCounting sorts v by insertion, counting the moves (v's
// inversions), until they exceed budget; it returns the moves and
// whether v was sorted whole. Stopped at v[:i] sorted, it leaves the
// pairs across v[:i] and v[i:] as they were, and those within v[:i]
// counted: v's inversions are the moves plus those of v as left. Codes
// that two nearly agreeing sides give (B = A, or their ranks apart by
// float rounding) hold few inversions, each near its place.
func insertionCounting(v []uint32, budget int) (moves int64, sorted bool) {
	for i := 1; i < len(v); i++ {
		x, j := v[i], i
		for j > 0 && v[j-1] > x {
			v[j] = v[j-1]
			j--
		}
		v[j] = x
		if moves += int64(i - j); moves > int64(budget) {
			return moves, false
		}
	}
	return moves, true
}

// countRange returns the inversions of src, whose values are in [lo, hi),
// using dst (as long) as scratch; reversed says src holds its values in
// the reverse of their order in v, so that its inversions are the pairs in
// ascending order. Each split writes the values below mid forward, in
// src's order, and those above backward, reversed. A range of more than
// wordLeafMax/2 values and at most wordLeafMax that holds as many is tried
// as a word's bits first: distinct, they are its values once each,
// counted in one pass. Halving a wider range gives one such range on each
// path down, so codes with repeats there are tried once, not at each
// level; dense ranks holding as many as their range are distinct.
func countRange(src, dst []uint32, lo, hi uint64, reversed bool) int64 {
	var inv int64
	for hi-lo > 1 {
		if wordLeafMax/2 < hi-lo && hi-lo <= wordLeafMax && uint64(len(src)) == hi-lo {
			if leaf, distinct := distinctInversions(src, uint32(lo), reversed); distinct {
				return inv + leaf
			}
		}
		if len(src) <= leafMax {
			return inv + leafInversions(src, reversed)
		}
		mid := lo + (hi-lo)/2
		pairs, below := partitionCounting(dst, src, uint32(mid), reversed)
		inv += pairs + countRange(dst[:below], src[:below], lo, mid, reversed)
		src, dst, lo, reversed = dst[below:], src[below:], mid, !reversed
	}
	return inv
}

// partitionCounting writes src's values below mid to the start of dst (as
// long), in src's order, and the others to its end, in the reverse order;
// it returns how many are below mid (Z), and the pairs of src split by mid
// out of order: one at least mid before one below, or with reversed the
// other way round. Each value is stored at both places it may go, with no
// branch on which (the wrong one is overwritten later). With z the values
// below mid before each, the pairs of one below mid before one at least
// mid are the sum of z over all values less its sum over those below,
// Z(Z-1)/2; the pairs split by mid are Z times the others. Its stores are
// unchecked: the value at i goes to dst[z] or dst[n-1-(i-z)], with z <= i.
func partitionCounting(dst, src []uint32, mid uint32, reversed bool) (pairs int64, below int) {
	n := len(src)
	dst = dst[:n]
	start := unsafe.Pointer(unsafe.SliceData(dst))
	end := unsafe.Add(start, 4*(n-1))
	z, sumZ := 0, 0
	for i, x := range src {
		*(*uint32)(unsafe.Add(start, 4*z)) = x
		*(*uint32)(unsafe.Add(end, 4*(z-i))) = x
		sumZ += z
		c := 0
		if x < mid {
			c = 1
		}
		z += c
	}
	belowFirst := int64(sumZ) - int64(z)*int64(z-1)/2
	if reversed {
		return belowFirst, z
	}
	return int64(z)*int64(n-z) - belowFirst, z
}

// leafInversions returns the pairs i < j of v with v[i] > v[j], or with
// reversed v[i] < v[j], by comparing every pair.
func leafInversions(v []uint32, reversed bool) int64 {
	var inv int64
	if reversed {
		for j, y := range v {
			for _, x := range v[:j] {
				if x < y {
					inv++
				}
			}
		}
		return inv
	}
	for j, y := range v {
		for _, x := range v[:j] {
			if x > y {
				inv++
			}
		}
	}
	return inv
}

// distinctInversions returns the pairs i < j of v with v[i] > v[j], or
// with reversed v[i] < v[j], for values in [lo, lo+wordLeafMax), and
// whether no two are equal (otherwise it stops at the first repeat: the
// ranges of codes with ties tried here mostly hold some). The values seen
// are the bits of one word: the pairs of a value with those before it and
// below it are the bits set below its own, counted at once; without
// reversed the pairs out of order are the others, n(n-1)/2 less their sum.
func distinctInversions(v []uint32, lo uint32, reversed bool) (inv int64, distinct bool) {
	var seen uint64
	ascending := 0
	for _, x := range v {
		bit := uint64(1) << ((x - lo) & 63)
		if seen&bit != 0 {
			return 0, false
		}
		ascending += bits.OnesCount64(seen & (bit - 1))
		seen |= bit
	}
	if reversed {
		return int64(ascending), true
	}
	n := len(v)
	return int64(n*(n-1)/2 - ascending), true
}
