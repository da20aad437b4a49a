package pareto

import (
	"cmp"
	"math"
	"slices"
)

// Crowding is the package-level Crowding using r's scratch space.
func (r *Ranker) Crowding(dst []float64, points []float64, m int, ranks []int) {
	n := dims(points, m)
	if len(dst) < n {
		panic("pareto: destination too short")
	}
	if len(ranks) < n {
		panic("pareto: ranks too short")
	}
	if n == 0 {
		return
	}
	maxRank := 0
	for _, rk := range ranks[:n] {
		if rk < 0 || rk >= n {
			panic("pareto: rank out of range")
		}
		maxRank = max(maxRank, rk)
	}

	// Counting sort by rank: visiting indices in increasing order leaves each
	// front's members in increasing index order, which is the tie order the
	// definition prescribes. After the placement loop bounds[rk] is the end
	// of front rk and bounds[rk-1] its start.
	bounds := grow(r.bounds, maxRank+2)
	r.bounds = bounds
	clear(bounds)
	for _, rk := range ranks[:n] {
		bounds[rk+1]++
	}
	for rk := 1; rk < len(bounds); rk++ {
		bounds[rk] += bounds[rk-1]
	}
	byRank := grow(r.byRank, n)
	r.byRank = byRank
	for i, rk := range ranks[:n] {
		byRank[bounds[rk]] = i
		bounds[rk]++
	}

	start := 0
	for rk := 0; rk <= maxRank; rk++ {
		front := byRank[start:bounds[rk]]
		start = bounds[rk]
		r.crowdFront(dst, points, m, front)
	}
}

// crowdFront writes the crowding distance of the members of one front, given
// in increasing index order.
func (r *Ranker) crowdFront(dst, points []float64, m int, front []int) {
	s := len(front)
	if s == 0 {
		return
	}
	if s <= 2 {
		for _, i := range front {
			dst[i] = math.Inf(1)
		}
		return
	}
	for _, i := range front {
		dst[i] = 0
	}
	keyed := grow(r.keyed, s)
	r.keyed = keyed
	for k := range m {
		for j, i := range front {
			keyed[j] = point1{points[i*m+k], i}
		}
		// Breaking ties on the index gives exactly the order of a stable
		// sort of the index-ordered front, with the faster unstable sort.
		slices.SortFunc(keyed, func(a, b point1) int {
			switch {
			case a.v < b.v:
				return -1
			case a.v > b.v:
				return 1
			}
			return cmp.Compare(a.i, b.i)
		})
		lo, hi := keyed[0].v, keyed[s-1].v
		if lo == hi {
			continue
		}
		// Values from both ends of the float64 range span more than a
		// float64 holds: every difference is then taken halved, which
		// fits and leaves the ratios as they are.
		span, halve := hi-lo, math.IsInf(hi-lo, 0)
		if halve {
			span = hi/2 - lo/2
		}
		dst[keyed[0].i] = math.Inf(1)
		dst[keyed[s-1].i] = math.Inf(1)
		for j := 1; j < s-1; j++ {
			next, prev := keyed[j+1].v, keyed[j-1].v
			if halve {
				next, prev = next/2, prev/2
			}
			dst[keyed[j].i] += (next - prev) / span
		}
	}
	fm := float64(m)
	for _, i := range front {
		dst[i] /= fm
	}
}
