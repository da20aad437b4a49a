package pareto

import (
	"runtime"
	"slices"
	"sync"
)

// point1 is a value tagged with the index of the point it came from.
type point1 struct {
	v float64
	i int
}

// rank1 ranks single-objective points: with one objective dominance is just
// "strictly larger", so a point's rank is the number of distinct values above
// it. Requires len(points) >= 1.
func (r *Ranker) rank1(dst []int, points []float64) int {
	p := grow(r.p1, len(points))
	r.p1 = p
	for i, v := range points {
		p[i] = point1{v, i}
	}
	slices.SortFunc(p, func(a, b point1) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return 0
	})
	rank := 0
	for j, q := range p {
		if j > 0 && q.v != p[j-1].v {
			rank++
		}
		dst[q.i] = rank
	}
	return rank + 1
}

// rank2 ranks two-objective points in O(n log n).
//
// After sorting by (x desc, y desc) every point that can dominate p comes
// before p: a dominator has x >= p.x and, when x ties, y > p.y. Conversely
// every earlier point q has q.x >= p.x, so q dominates p exactly when
// q.y >= p.y and q is not a copy of p. Copies are adjacent in this order, so
// a point that differs from its predecessor differs from every earlier point.
//
// Members of one front, taken in sweep order, have strictly increasing y
// (a later member with y <= an earlier one's would be dominated by it), so
// the last one added holds the front's largest y and p is dominated by front
// f iff frontMaxY[f] >= p.y. Because p lands in the first front that does not
// dominate it, p.y <= frontMaxY[f-1] when it is appended to front f: the
// maxima stay non-increasing in f and a binary search finds p's front.
//
// The sort is a radix sort on x (see sortKeys) followed by a sort of each
// run of equal x by y (sortRunByY), which data on a coarse grid need often.
//
// Requires len(points) >= 2.
func (r *Ranker) rank2(dst []int, points []float64) int {
	return r.rank2With(dst, points, min(runtime.GOMAXPROCS(0), maxWorkers))
}

// rank2With is rank2 sorting the runs of equal x on up to workers
// goroutines.
func (r *Ranker) rank2With(dst []int, points []float64, workers int) int {
	n := len(points) / 2
	ka := grow(r.kya, n)
	kb := grow(r.kyb, n)
	r.kya, r.kyb = ka, kb
	for i := range ka {
		ka[i] = keyYIdx{descKey(points[2*i]), points[2*i+1], int32(i)}
	}
	s := sortKeysY(ka, kb)
	spare := kb
	if &s[0] == &kb[0] {
		spare = ka
	}
	sortRunsByY(s, spare[:n], workers)
	maxY := r.frontMaxY[:0]
	prevX, prevY, prevRank := uint64(0), 0.0, 0
	for j, e := range s {
		y := e.y
		if j > 0 && e.k == prevX && y == prevY {
			dst[e.i] = prevRank
			continue
		}
		// f = number of fronts whose largest y is >= y: they form a
		// prefix. Branch-free binary search.
		f, size := 0, len(maxY)
		if size > 0 {
			for size > 1 {
				half := size >> 1
				if maxY[f+half-1] >= y {
					f += half
				}
				size -= half
			}
			if maxY[f] >= y {
				f++
			}
		}
		if f == len(maxY) {
			maxY = append(maxY, y)
		} else {
			maxY[f] = y
		}
		dst[e.i] = f
		prevX, prevY, prevRank = e.k, y, f
	}
	r.frontMaxY = maxY
	return len(maxY)
}

// parallelRunsMin is the number of points from which sortRunsByY shares
// the runs out over goroutines.
const parallelRunsMin = 1 << 16

// sortRunsByY sorts every run of equal k in s by y (sortRunByY), the runs
// shared out over up to workers goroutines in slices cut between runs.
// spare is scratch space of len(s).
func sortRunsByY(s, spare []keyYIdx, workers int) {
	n := len(s)
	if workers < 2 || n < parallelRunsMin {
		sortRunsIn(s, spare, 0, n)
		return
	}
	var wg sync.WaitGroup
	lo := 0
	for w := 1; w <= workers && lo < n; w++ {
		hi := n
		if w < workers {
			// The slice ends at the end of the run holding its share's
			// last point.
			hi = max(lo, n*w/workers)
			for hi < n && hi > 0 && s[hi].k == s[hi-1].k {
				hi++
			}
		}
		if hi == n {
			sortRunsIn(s, spare, lo, hi) // the last slice on the calling goroutine
			break
		}
		start := lo
		wg.Go(func() { sortRunsIn(s, spare, start, hi) })
		lo = hi
	}
	wg.Wait()
}

// sortRunsIn sorts by y the runs of equal k in s[lo:hi], which holds whole
// runs.
func sortRunsIn(s, spare []keyYIdx, lo, hi int) {
	for p := lo; p < hi; {
		q := p + 1
		for q < hi && s[q].k == s[p].k {
			q++
		}
		if q-p > 1 {
			sortRunByY(s[p:q], spare[p:q])
		}
		p = q
	}
}

// rankGeneral ranks points with any number of objectives using Efficient
// Non-dominated Sort with binary search (ENS-BS; Zhang, Tian, Cheng and Jin,
// IEEE TEVC 19(2), 2015) in O(n) extra memory.
//
// Points are visited in descending lexicographic order. A dominator of p is
// >= p everywhere and differs from it, so it is lexicographically greater
// and visited earlier. Conversely every earlier point q has q[0] >= p[0], so
// once q is known not to be a copy of p it dominates p iff q[k] >= p[k] for
// k >= 1. Copies are adjacent in this order: a copy takes its twin's rank and
// is not added to the front, whose twin already stands for it.
//
// Fronts are built in visiting order and p goes to the first front with no
// member dominating it. If a member of front f dominates p then, since that
// member was itself dominated by an earlier member of front f-1, so does
// front f-1 by transitivity: the fronts dominating p form a prefix and can be
// binary searched. Members are checked from the most recently added, which
// tend to be the closest to p in the visiting order and so the likeliest
// dominators.
//
// Valid for every m >= 1 and len(points) >= m.
func (r *Ranker) rankGeneral(dst []int, points []float64, m int) int {
	n := len(points) / m
	order := grow(r.order, n)
	r.order = order
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		pa, pb := points[a*m:a*m+m], points[b*m:b*m+m]
		for k, va := range pa {
			if vb := pb[k]; va != vb {
				if va > vb {
					return -1
				}
				return 1
			}
		}
		return 0
	})
	// Copying the rows into visiting order makes the dominance checks, which
	// dominate the running time, walk nearly contiguous memory.
	rows := grow(r.rows, n*m)
	r.rows = rows
	for pos, i := range order {
		copy(rows[pos*m:pos*m+m], points[i*m:i*m+m])
	}

	nf := 0
	for pos, i := range order {
		p := rows[pos*m : pos*m+m]
		if pos > 0 && slices.Equal(p, rows[(pos-1)*m:pos*m]) {
			dst[i] = dst[order[pos-1]]
			continue
		}
		lo, hi := 0, nf
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if frontDominates(r.fronts[mid], rows, p, m) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == nf {
			if nf == len(r.fronts) {
				r.fronts = append(r.fronts, nil)
			}
			r.fronts[nf] = r.fronts[nf][:0]
			nf++
		}
		r.fronts[lo] = append(r.fronts[lo], pos)
		dst[i] = lo
	}
	return nf
}

// frontDominates reports whether a member of front (positions into rows)
// dominates p, given that every member precedes p in lexicographically
// descending order and none is a copy of p: objective 0 then needs no check.
func frontDominates(front []int, rows, p []float64, m int) bool {
	for j := len(front) - 1; j >= 0; j-- {
		q := rows[front[j]*m : front[j]*m+m]
		dominates := true
		for k := 1; k < m; k++ {
			if q[k] < p[k] {
				dominates = false
				break
			}
		}
		if dominates {
			return true
		}
	}
	return false
}
