package stats

import (
	"math"
	"sync"
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
// across the halves are counted in one walk of the two.
func Inversions(v, buf []uint32) int64 {
	n := len(v)
	if n < parallelMin {
		return inversionsSorting(v, buf)
	}
	mid := n / 2
	var left int64
	var wg sync.WaitGroup
	wg.Go(func() { left = inversionsSorting(v[:mid], buf[:mid]) })
	right := inversionsSorting(v[mid:], buf[mid:])
	wg.Wait()
	across, i := int64(0), 0
	for _, y := range v[mid:] {
		for i < mid && v[i] <= y {
			i++
		}
		across += int64(mid - i)
	}
	return left + right + across
}

// inversionsSorting is Inversions sorting v ascending on one goroutine:
// countInversions on codes, where two runs already in order (the runs of
// v's ties in x, sorted by y) are joined without a merge.
func inversionsSorting(v, buf []uint32) int64 {
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
			if mid == hi || src[mid-1] <= src[mid] {
				copy(dst[lo:hi], src[lo:hi])
				continue
			}
			inv += merge(dst[lo:hi], src[lo:mid], src[mid:hi])
		}
		src, dst = dst, src
	}
	if n > 0 && &src[0] != &v[0] {
		copy(v, src)
	}
	return inv
}

// merge merges the ascending runs a and b into dst (as long as both) and
// returns the pairs it exchanged: those of a above one of b.
func merge(dst, a, b []uint32) int64 {
	var inv int64
	i, j, k := 0, 0, 0
	// Without a branch on the comparison, which a merge of random runs
	// often mispredicts.
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		took := 0 // 1 when y goes first
		if y < x {
			took = 1
		}
		dst[k] = min(x, y)
		inv += int64((len(a) - i) & -took)
		i += 1 - took
		j += took
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
	return inv
}
