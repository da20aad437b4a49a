package stats

import (
	"math"
	"sort"
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

// Inversions returns the pairs i < j of v with v[i] > v[j], reordering v
// (buf is as long): Kendall's discordant pairs, when v is y's dense ranks
// in the order of (x, y) (see KendallTauB). Each half of v is merge
// sorted on its own goroutine counting the exchanges, then the pairs
// across the halves are counted in a walk of the two (pairsAbove).
func Inversions(v, buf []uint32) int64 {
	n := len(v)
	if n < parallelMin {
		return sortCounting(v, buf, false)
	}
	mid := n / 2
	var left int64
	var wg sync.WaitGroup
	wg.Go(func() { left = sortCounting(v[:mid], buf[:mid], false) })
	right := sortCounting(v[mid:], buf[mid:], false)
	wg.Wait()
	return left + right + pairsAbove(v[:mid], v[mid:])
}

// pairsAbove returns the pairs of a value of a above one of b, both
// ascending, on two goroutines: b's first half against the values of a
// up to b[h] (those after are above it all), its second half against
// those after.
func pairsAbove(a, b []uint32) int64 {
	h := len(b) / 2
	i := sort.Search(len(a), func(k int) bool { return a[k] > b[h] })
	var first int64
	var wg sync.WaitGroup
	wg.Go(func() { first = int64(h)*int64(len(a)-i) + walkAbove(a[:i], b[:h]) })
	second := walkAbove(a[i:], b[h:])
	wg.Wait()
	return first + second
}

// walkAbove is pairsAbove in one walk of a and b.
func walkAbove(a, b []uint32) int64 {
	var pairs int64
	i := 0
	for _, y := range b {
		for i < len(a) && a[i] <= y {
			i++
		}
		pairs += int64(len(a) - i)
	}
	return pairs
}

// leafMax is the most values sortCounting sorts by their ranks
// (leafCounting) rather than by merging halves.
const leafMax = 16

// sortCounting sorts v ascending into v, or into buf when intoBuf (v is
// then scratch), and returns v's inversions. Top down: each half is
// sorted into the other array, then the two are merged into this one, so
// that a half's sort stays in cache once small enough, and the runs
// merged differ in length by one at most.
func sortCounting(v, buf []uint32, intoBuf bool) int64 {
	n := len(v)
	src, dst := buf, v
	if intoBuf {
		src, dst = v, buf
	}
	if n <= leafMax {
		return leafCounting(dst, v)
	}
	mid := n / 2
	inv := sortCounting(v[:mid], buf[:mid], !intoBuf) + sortCounting(v[mid:], buf[mid:], !intoBuf)
	if src[mid-1] <= src[mid] { // two runs in order (v's ties in x, sorted by y)
		copy(dst, src)
		return inv
	}
	return inv + merge(dst, src[:mid], src[mid:])
}

// leafCounting sorts src (up to leafMax values) into dst (as long; src
// itself or not) and returns src's inversions, with one comparison of
// each pair, without a branch on it: a pair out of order raises the rank
// of the first, one in order (or tied) that of the second, and dst[rank]
// is the value.
func leafCounting(dst, src []uint32) int64 {
	var rank [leafMax]int
	var inv int64
	src = src[:min(len(src), leafMax)] // no shorter: drops the checks of rank[i]
	for j := 1; j < len(src); j++ {
		y, r := src[j], 0
		for i, x := range src[:j] {
			c := 0
			if x > y {
				c = 1
			}
			rank[i] += c
			r += 1 - c
			inv += int64(c)
		}
		rank[j] = r
	}
	if len(src) > 0 && &dst[0] == &src[0] {
		var tmp [leafMax]uint32
		copy(tmp[:], src)
		src = tmp[:len(src)]
	}
	for i, x := range src {
		dst[rank[i]] = x
	}
	return inv
}

// merge merges the ascending runs a and b into dst (as long as both) and
// returns the pairs it exchanged: those of a above one of b. It merges
// from both ends at once, the smallest forward and the largest backward,
// two chains of dependent loads that the processor overlaps, each without
// a branch on the comparison (which a merge of random runs often
// mispredicts), for min(len(a), len(b)) steps, which neither end can
// exhaust a run in; the few values left between are merged one way
// (mergeForward). Its loads and stores are unchecked, which the steps
// keep within a, b and dst.
func merge(dst, a, b []uint32) int64 {
	dst = dst[:len(a)+len(b)]
	na := len(a)
	var inv int64
	pa, pb, pd := unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b)), unsafe.Pointer(unsafe.SliceData(dst))
	i, j := 0, 0             // forward, into dst[i+j]
	ia, jb := na-1, len(b)-1 // backward, into dst[ia+jb+1]
	for range min(na, len(b)) {
		// Forward, a first on ties: b[j] is below the na - i values of
		// a left.
		x, y := *(*uint32)(unsafe.Add(pa, 4*i)), *(*uint32)(unsafe.Add(pb, 4*j))
		t := 0
		if y < x {
			t = 1
		}
		*(*uint32)(unsafe.Add(pd, 4*(i+j))) = min(x, y)
		inv += int64((na - i) & -t)
		i += 1 - t
		j += t
		// Backward, b last on ties: b[jb] is below the na-1 - ia values
		// of a placed after it.
		x, y = *(*uint32)(unsafe.Add(pa, 4*ia)), *(*uint32)(unsafe.Add(pb, 4*jb))
		u := 0
		if x > y {
			u = 1
		}
		*(*uint32)(unsafe.Add(pd, 4*(ia+jb+1))) = max(x, y)
		inv += int64((na - 1 - ia) & (u - 1))
		ia -= u
		jb -= 1 - u
	}
	return inv + mergeForward(dst[i+j:ia+jb+2], a[i:ia+1], b[j:jb+1], na-1-ia)
}

// mergeForward merges a and b into dst (as long as both) and returns the
// pairs it exchanged, plus above for each of b: the values of a merge
// placed after them all.
func mergeForward(dst, a, b []uint32, above int) int64 {
	var inv int64
	i, j := 0, 0
	for k := range dst {
		if j == len(b) || i < len(a) && a[i] <= b[j] {
			dst[k] = a[i]
			i++
		} else {
			dst[k] = b[j]
			j++
			inv += int64(len(a) - i + above)
		}
	}
	return inv
}
