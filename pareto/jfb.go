package pareto

import (
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
)

// This file implements non-dominated sorting by divide and conquer:
//
//   - M. T. Jensen, "Reducing the run-time complexity of multiobjective EAs:
//     the NSGA-II and other algorithms", IEEE TEVC 7(5), 2003;
//   - F.-A. Fortin, S. Grenier and M. Parizeau, "Generalizing the improved
//     run-time complexity algorithm for non-dominated sorting", GECCO 2013,
//     which makes it correct when points share values;
//   - M. Buzdalov and A. Shalyto, "A provably asymptotically fast version of
//     the generalized Jensen algorithm for non-dominated sorting", PPSN 2014,
//     which splits HelperB by the median of both its sets, for a worst case
//     of O(n log^(m-1) n) time.
//
// The implementation works in minimisation form on dense integer ranks: for
// each objective k, c_k(p) is the number of distinct values of objective k
// larger than p's, so that 0 is the best and p dominates q iff c_k(p) <=
// c_k(q) for every k and p != q. Points are numbered ("positions") in
// lexicographic order of (c_0, ..., c_{m-1}) after exact copies have been
// collapsed into one. A dominator of p then has a smaller position than p,
// and any point at a smaller position is no worse than p on objective 0, so
// objective 0 is never looked at again: "q precedes p" stands for it.
//
// Sets are ranges of the array idx holding positions in increasing order.
// The helpers split their ranges in place (stable three-way splits around a
// median) and may return them in any order: a helper that needs a range
// sorted again after a call restores it from a copy it kept on its save
// stack. (Along any chain of nested calls the sets halve while k stays the
// same, so the stack holds O(n m) positions at most.)
//
//	helperA(S, k): gives every point of S its final rank with respect to the
//	  dominators inside S, knowing that the points of S are equal on the
//	  objectives above k and that contributions from outside S are already in
//	  rank. Only objectives 0..k matter.
//	helperB(L, H, k): raises rank(h) to rank(l)+1 for every l in L and h in H
//	  such that l weakly dominates h on objectives 0..k, knowing that the
//	  ranks of L are final and that every l is no worse than every h on the
//	  objectives above k and strictly better on at least one of them, so that
//	  weak dominance on 0..k is dominance.
//
// At k == 1 both become sweeps over positions (objective 0) with a
// staircase over c_1 (stairs.go): sweepA and sweepB. Small sets are solved
// by checking every pair (bruteOne).
//
// helperB's calls on the lower and the upper halves of its sets touch
// disjoint ranges of idx and raise the ranks of disjoint sets of points, so
// for large sets they run on two goroutines; the result does not depend on
// the schedule. helperA's steps depend on each other and stay sequential,
// which leaves m == 3 little to share: a large sweepB is cut in two by
// position instead, the second goroutine inserting the points of L before
// the cut first (sweepB2).

// jfbConfig holds the thresholds of the divide and conquer. Tests use other
// values to force every path.
type jfbConfig struct {
	// helperA solves sets of at most bruteA points by checking every pair.
	bruteA int
	// helperB checks every pair when |L|*|H| <= bruteB, or when one of the
	// sets has a single point.
	bruteB int
	// helperB runs its two halves on two goroutines when both hold at least
	// parMin points and a worker is free; parMin == 0 disables this. Below
	// parMin points, no extra goroutines are started at all.
	parMin int
	// sweepB runs on two goroutines (sweepB2) from parSweep points, if a
	// worker is free; 0 disables this. It costs a third more work.
	parSweep int
	// workers bounds the goroutines working at once, the caller's included.
	workers int
	// stairs is the number of values up to which staircases stay in rank
	// mode (see stairs).
	stairs int
	// fronts3, when not 0, has three objectives ranked by the fronts'
	// staircases (fronts3.go), in blocks of at most fronts3 >= 2 points,
	// rather than by divide and conquer, once the points are sorted and
	// their copies collapsed.
	fronts3 int
}

// defaultJFB's thresholds were measured on 100k points, m = 3 and 5: the
// pairwise thresholds matter little between 32 and 64 (A) and 1024 and 4096
// (B), these being a few per cent faster. Rank-mode staircases hold up to
// 1024 values. workers is set by Ranks.
var defaultJFB = jfbConfig{bruteA: 64, bruteB: 4096, parMin: 2048, parSweep: 1 << 14, stairs: 1024, fronts3: 64}

// jfbData is the state shared by the workers.
type jfbData struct {
	cfg jfbConfig
	m1  int // coordinates stored per point: objectives 1..m-1
	// The distinct points are also numbered by c_top, then position: the
	// sets of the top-level helperA are then blocks of consecutive ids, and
	// so are the memory they touch.
	c    []int32 // c[id*m1+k-1] = c_k of the point numbered id, for k >= 1
	rank []int32 // rank[id]
	// The sets: entries pos<<32 | id, so that they compare by position.
	idx []uint64
	tmp []uint64 // scratch for splits and merges, parallel to idx
	// top is m-1. The sets helperA gets for k == top are the points whose
	// c_top lies in an interval; cnt[v] is the number of points with c_top
	// < v, so their median is found by binary search.
	top int
	cnt []int32

	workers []*jfbWorker // workers[0] is the caller's; kept between calls
	mu      sync.Mutex
	free    []*jfbWorker // idle workers
	idle    atomic.Int32 // len(free), readable without the lock
}

// jfbWorker is the state of one goroutine of the divide and conquer.
type jfbWorker struct {
	d     *jfbData
	vals  []int32  // values of one objective over the current sets
	vals2 []int32  // scratch for selectNth
	save  []uint64 // stack of copies of split ranges
	st    stairs
}

// acquire returns an idle worker, or nil.
func (d *jfbData) acquire() *jfbWorker {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.free) == 0 {
		return nil
	}
	w := d.free[len(d.free)-1]
	d.free = d.free[:len(d.free)-1]
	d.idle.Store(int32(len(d.free)))
	return w
}

func (d *jfbData) release(w *jfbWorker) {
	d.mu.Lock()
	d.free = append(d.free, w)
	d.idle.Store(int32(len(d.free)))
	d.mu.Unlock()
}

// rankJFB ranks points with m >= 2 objectives by divide and conquer. n >= 1.
func (r *Ranker) rankJFB(dst []int, points []float64, m int, cfg jfbConfig) int {
	n := len(points) / m
	d := &r.jfb
	d.cfg = cfg
	d.m1 = m - 1
	d.top = m - 1
	nw := max(cfg.workers, 1)

	// Dense ranks per objective, column-major: cols[k*n+i] = c_k(point i),
	// and the points in increasing order of c_0. The objectives are
	// independent: with several workers they are shared out.
	cols := grow(r.cols, n*m)
	r.cols = cols
	order := grow(r.order32, n)
	r.order32 = order
	distinct := grow(r.distinct, m)
	r.distinct = distinct
	sortObjectives := func(ka, kb []keyIdx, first, step int) {
		for k := first; k < m; k += step {
			for i := range ka {
				ka[i] = keyIdx{descKey(points[i*m+k]), int32(i)}
			}
			s := sortKeys(ka, kb)
			col := cols[k*n : (k+1)*n]
			rk := int32(0)
			for p, e := range s {
				if p > 0 && e.k != s[p-1].k {
					rk++
				}
				col[e.i] = rk
			}
			distinct[k] = int(rk) + 1
			if k == 0 {
				for p, e := range s {
					order[p] = e.i
				}
			}
		}
	}
	nsort := 1
	if cfg.parMin > 0 && n >= cfg.parMin {
		nsort = min(nw, m)
	}
	for len(r.keys) < 2*nsort {
		r.keys = append(r.keys, nil)
	}
	for j := range 2 * nsort {
		r.keys[j] = grow(r.keys[j], n)
	}
	if nsort == 1 {
		sortObjectives(r.keys[0], r.keys[1], 0, 1)
	} else {
		var wg sync.WaitGroup
		for j := 1; j < nsort; j++ {
			wg.Go(func() { sortObjectives(r.keys[2*j], r.keys[2*j+1], j, nsort) })
		}
		sortObjectives(r.keys[0], r.keys[1], 0, nsort)
		wg.Wait()
	}

	// Lexicographic order: order is sorted by c_0. Few ties: sort each run
	// of equal c_0 on the other objectives. Many: radix sort again, on the
	// dense ranks of as many leading objectives as fit in 64 bits, and sort
	// the runs of ties on that key on the remaining objectives, if any.
	cmpFrom := func(from int) func(a, b int32) int {
		return func(a, b int32) int {
			for k := from; k < m; k++ {
				if ca, cb := cols[k*n+int(a)], cols[k*n+int(b)]; ca != cb {
					if ca < cb {
						return -1
					}
					return 1
				}
			}
			return 0
		}
	}
	cmpRest := cmpFrom(1)
	ties := 0
	for p := 1; p < n; p++ {
		if cols[order[p]] == cols[order[p-1]] {
			ties++
		}
	}
	sortRuns := func(same func(a, b int32) bool, cmp func(a, b int32) int) {
		for p := 0; p < n; {
			q := p + 1
			for q < n && same(order[p], order[q]) {
				q++
			}
			if q-p > 1 {
				slices.SortFunc(order[p:q], cmp)
			}
			p = q
		}
	}
	switch {
	case ties == 0:
	case ties <= n/32 || n < radixMin:
		sortRuns(func(a, b int32) bool { return cols[a] == cols[b] }, cmpRest)
	default:
		packed, used := 0, 0
		for k := range m {
			b := bits.Len(uint(distinct[k] - 1))
			if used+b > 64 {
				break
			}
			used += b
			packed++
		}
		ka, kb := r.keys[0], r.keys[1]
		for i := range ka {
			key := uint64(0)
			for k := range packed {
				key = key<<bits.Len(uint(distinct[k]-1)) | uint64(cols[k*n+i])
			}
			ka[i] = keyIdx{key, int32(i)}
		}
		s := sortKeys(ka, kb)
		byPoint := ka // the buffer s is not, for the keys by point
		if &s[0] == &ka[0] {
			byPoint = kb
		}
		for p, e := range s {
			order[p] = e.i
			byPoint[e.i].k = e.k
		}
		if packed < m {
			sortRuns(func(a, b int32) bool { return byPoint[a].k == byPoint[b].k }, cmpFrom(packed))
		}
	}

	// Collapse copies: the distinct points get positions 0..np-1 in
	// lexicographic order, and rep[pos] is a point at pos. posOf[i] is the
	// position of point i, until it becomes its id below.
	posOf := grow(r.posOf, n)
	r.posOf = posOf
	rep := grow(r.rep, n)
	r.rep = rep
	np := 0
	for p, i := range order {
		if p > 0 && cols[order[p-1]] == cols[i] && cmpRest(order[p-1], i) == 0 {
			posOf[i] = int32(np - 1)
			continue
		}
		rep[np] = i
		posOf[i] = int32(np)
		np++
	}

	if m == 3 && cfg.fronts3 > 0 {
		return r.rankStairs3(dst, cols, rep[:np], posOf, n, cfg.fronts3)
	}

	// Ids: counting sort of the positions by c_top (stable, so by position
	// within equal c_top). cnt[v] ends as the number of points with c_top
	// < v.
	dTop := distinct[m-1]
	top := cols[(m-1)*n : m*n]
	cnt := grow(d.cnt, dTop+1)
	d.cnt = cnt
	clear(cnt)
	for _, i := range rep[:np] {
		cnt[top[i]+1]++
	}
	for v := 1; v <= dTop; v++ {
		cnt[v] += cnt[v-1]
	}
	idOf := grow(r.idOf, np)
	r.idOf = idOf
	for p, i := range rep[:np] {
		v := top[i]
		idOf[p] = cnt[v]
		cnt[v]++
	}
	for v := dTop; v > 0; v-- {
		cnt[v] = cnt[v-1]
	}
	cnt[0] = 0

	m1 := m - 1
	c := grow(d.c, np*m1)
	d.c = c
	d.idx = grow(d.idx, np)
	for p, i := range rep[:np] {
		id := int(idOf[p])
		row := c[id*m1 : id*m1+m1]
		for k := range row {
			row[k] = cols[(k+1)*n+int(i)]
		}
		d.idx[p] = uint64(p)<<32 | uint64(id)
	}
	for i, p := range posOf {
		posOf[i] = idOf[p]
	}
	d.rank = grow(d.rank, np)
	clear(d.rank)
	d.tmp = grow(d.tmp, np)
	if cfg.parMin == 0 || np < 2*cfg.parMin {
		nw = 1
	}
	for len(d.workers) < nw {
		d.workers = append(d.workers, &jfbWorker{d: d})
	}
	for _, w := range d.workers[:nw] {
		w.vals = grow(w.vals, np)
		w.vals2 = grow(w.vals2, np)
		w.save = w.save[:0]
		w.st.reset(distinct[1], np+1, cfg.stairs)
	}
	d.free = append(d.free[:0], d.workers[1:nw]...)
	d.idle.Store(int32(len(d.free)))

	d.workers[0].helperA(0, np, m-1, 0, int32(dTop-1))

	fronts := int32(0)
	for i := range n {
		rk := d.rank[posOf[i]]
		dst[i] = int(rk)
		fronts = max(fronts, rk)
	}
	return int(fronts) + 1
}

// id returns the id of a set entry.
func id(e uint64) int { return int(uint32(e)) }

// bruteOne raises the rank of point p to one more than the largest rank of
// the points ls that are no worse than it on objectives 1..k. Every point of
// ls precedes p.
//
// For each q the test is branch-free: rank(q) - rank(p) and the differences
// c_j(p) - c_j(q) are ORed together, and the sign of the result says whether
// q both dominates p and raises its rank. Small k get unrolled loops.
func (d *jfbData) bruteOne(e uint64, ls []uint64, k int) {
	c, m1, rank := d.c, d.m1, d.rank
	p := id(e)
	rp := rank[p]
	switch k {
	case 1:
		p1 := c[p*m1]
		for _, f := range ls {
			q := id(f)
			rq := rank[q]
			if (rq-rp)|(p1-c[q*m1]) >= 0 {
				rp = rq + 1
			}
		}
	case 2:
		cp := c[p*m1 : p*m1+2]
		p1, p2 := cp[0], cp[1]
		for _, f := range ls {
			q := id(f)
			cq := c[q*m1 : q*m1+2]
			rq := rank[q]
			if (rq-rp)|(p1-cq[0])|(p2-cq[1]) >= 0 {
				rp = rq + 1
			}
		}
	case 3:
		cp := c[p*m1 : p*m1+3]
		p1, p2, p3 := cp[0], cp[1], cp[2]
		for _, f := range ls {
			q := id(f)
			cq := c[q*m1 : q*m1+3]
			rq := rank[q]
			if (rq-rp)|(p1-cq[0])|(p2-cq[1])|(p3-cq[2]) >= 0 {
				rp = rq + 1
			}
		}
	case 4:
		cp := c[p*m1 : p*m1+4]
		p1, p2, p3, p4 := cp[0], cp[1], cp[2], cp[3]
		for _, f := range ls {
			q := id(f)
			cq := c[q*m1 : q*m1+4]
			rq := rank[q]
			if (rq-rp)|(p1-cq[0])|(p2-cq[1])|(p3-cq[2])|(p4-cq[3]) >= 0 {
				rp = rq + 1
			}
		}
	default:
		cp := c[p*m1 : p*m1+k]
		for _, f := range ls {
			q := id(f)
			cq := c[q*m1 : q*m1+k]
			acc := rank[q] - rp
			for j, v := range cp {
				acc |= v - cq[j]
			}
			if acc >= 0 {
				rp = rank[q] + 1
			}
		}
	}
	rank[p] = rp
}

// helperA's vlo and vhi bound c_k over the set when k == d.top.
func (w *jfbWorker) helperA(lo, hi, k int, vlo, vhi int32) {
	d := w.d
	n := hi - lo
	if n < 2 {
		return
	}
	idx := d.idx
	if n <= d.cfg.bruteA || n == 2 {
		for s := lo + 1; s < hi; s++ {
			d.bruteOne(idx[s], idx[lo:s], k)
		}
		return
	}
	if k == 1 {
		w.sweepA(lo, hi)
		return
	}
	var a, b int
	var med int32
	if k == d.top {
		if vlo == vhi {
			w.helperA(lo, hi, k-1, 0, 0)
			return
		}
		// The smallest v with more than n/2 points at or below it.
		cnt := d.cnt
		t := cnt[vlo] + int32(n/2)
		x, y := vlo, vhi
		for x < y {
			mid := int32(uint32(x+y) >> 1)
			if cnt[mid+1] > t {
				y = mid
			} else {
				x = mid + 1
			}
		}
		med = x
		a, b = d.splitTop(lo, hi, med)
	} else {
		vals, vmin, vmax := w.gather(lo, hi, k, 0)
		if vmin == vmax {
			w.helperA(lo, hi, k-1, 0, 0)
			return
		}
		med = selectNth(vals, w.vals2, n/2, vmin, vmax)
		a, b = d.split(lo, hi, vals, med)
	}
	// The children leave their ranges in any order: restore them from a
	// copy of the split, which stays on the save stack until we return.
	top := len(w.save)
	w.save = append(w.save, idx[lo:hi]...)
	w.helperA(lo, a, k, vlo, med-1)
	copy(idx[lo:a], w.save[top:])
	w.helperB(lo, a, a, b, k-1)
	copy(idx[lo:b], w.save[top:])
	w.helperA(a, b, k-1, 0, 0)
	copy(idx[a:b], w.save[top+a-lo:])
	d.merge(lo, a, b)
	w.helperB(lo, b, b, hi, k-1)
	copy(idx[b:hi], w.save[top+b-lo:])
	w.helperA(b, hi, k, med+1, vhi)
	w.save = w.save[:top]
}

func (w *jfbWorker) helperB(llo, lhi, hlo, hhi, k int) {
	d := w.d
	idx := d.idx
	if llo == lhi || hlo == hhi {
		return
	}
	// No l can dominate an h that precedes it: drop the points of H that
	// precede all of L and those of L that follow all of H.
	for hlo < hhi && idx[hlo] < idx[llo] {
		hlo++
	}
	if hlo == hhi {
		return
	}
	for llo < lhi && idx[lhi-1] > idx[hhi-1] {
		lhi--
	}
	if llo == lhi {
		return
	}
	nl, nh := lhi-llo, hhi-hlo
	if nl == 1 || nh == 1 || nl*nh <= d.cfg.bruteB {
		e := llo
		for _, p := range idx[hlo:hhi] {
			for e < lhi && idx[e] < p {
				e++
			}
			d.bruteOne(p, idx[llo:e], k)
		}
		return
	}
	if k == 1 {
		if d.cfg.parSweep > 0 && nl+nh >= d.cfg.parSweep && d.idle.Load() > 0 {
			if w2 := d.acquire(); w2 != nil {
				w.sweepB2(w2, llo, lhi, hlo, hhi)
				d.release(w2)
				return
			}
		}
		w.sweepB(llo, lhi, hlo, hhi, llo)
		return
	}
	_, lmin, lmax := w.gather(llo, lhi, k, 0)
	_, hmin, hmax := w.gather(hlo, hhi, k, nl)
	vals := w.vals[:nl+nh]
	if lmax <= hmin {
		w.helperB(llo, lhi, hlo, hhi, k-1)
		return
	}
	if lmin > hmax {
		return
	}
	med := selectNth(vals, w.vals2, len(vals)/2, min(lmin, hmin), max(lmax, hmax))
	la, lb := d.split(llo, lhi, vals[:nl], med)
	ha, hb := d.split(hlo, hhi, vals[nl:], med)
	top := len(w.save)
	w.save = append(w.save, idx[llo:lhi]...)
	w.save = append(w.save, idx[hlo:hhi]...)
	var w2 *jfbWorker
	if d.cfg.parMin > 0 && min(la-llo+ha-hlo, lhi-lb+hhi-hb) >= d.cfg.parMin && d.idle.Load() > 0 {
		w2 = d.acquire()
	}
	if w2 != nil {
		var wg sync.WaitGroup
		wg.Go(func() {
			w2.helperB(llo, la, hlo, ha, k)
			d.release(w2)
		})
		w.helperB(lb, lhi, hb, hhi, k)
		wg.Wait()
	} else {
		w.helperB(llo, la, hlo, ha, k)
		w.helperB(lb, lhi, hb, hhi, k)
	}
	copy(idx[llo:lb], w.save[top:])
	copy(idx[ha:hhi], w.save[top+nl+ha-hlo:])
	d.merge(llo, la, lb)
	d.merge(ha, hb, hhi)
	w.helperB(llo, lb, ha, hhi, k-1)
	w.save = w.save[:top]
}

// sweepA is helperA for k == 1: in order of position, each point's rank is
// raised above those of the earlier points with no larger c_1.
func (w *jfbWorker) sweepA(lo, hi int) {
	d := w.d
	c, m1, rank, st := d.c, d.m1, d.rank, &w.st
	for _, e := range d.idx[lo:hi] {
		p := id(e)
		x := int(c[p*m1])
		rp := max(rank[p], st.query(x))
		rank[p] = rp
		st.insert(x, rp+1)
	}
	if !st.empty() {
		for _, e := range d.idx[lo:hi] {
			st.clearKey(int(c[id(e)*m1]))
		}
	}
}

// sweepB is helperB for k == 1: merging L and H by position, the points of
// L go into the staircase and those of H look up the best rank at or below
// their c_1. The points of L before pre are inserted first, whatever H.
func (w *jfbWorker) sweepB(llo, lhi, hlo, hhi, pre int) {
	d := w.d
	c, m1, rank, idx, st := d.c, d.m1, d.rank, d.idx, &w.st
	for _, f := range idx[llo:pre] {
		q := id(f)
		st.insert(int(c[q*m1]), rank[q]+1)
	}
	t := pre
	for _, e := range idx[hlo:hhi] {
		for ; t < lhi && idx[t] < e; t++ {
			q := id(idx[t])
			st.insert(int(c[q*m1]), rank[q]+1)
		}
		p := id(e)
		rank[p] = max(rank[p], st.query(int(c[p*m1])))
	}
	if !st.empty() {
		for _, f := range idx[llo:t] {
			st.clearKey(int(c[id(f)*m1]))
		}
	}
}

// sweepB2 is sweepB on two goroutines, w's and w2's: H is cut by position,
// w sweeps the first part with the points of L before the cut, and w2, after
// inserting those too, sweeps the rest. With f the fraction of H in the
// first part, w does about f(|L|+|H|) steps and w2 f|L| + (1-f)(|L|+|H|)
// (if L and H interleave evenly): f = (|L|+|H|)/(|L|+2|H|) balances them.
func (w *jfbWorker) sweepB2(w2 *jfbWorker, llo, lhi, hlo, hhi int) {
	idx := w.d.idx
	nl, nh := lhi-llo, hhi-hlo
	hm := hlo + nh*(nl+nh)/(nl+2*nh)
	if hm == hlo || hm == hhi {
		w.sweepB(llo, lhi, hlo, hhi, llo)
		return
	}
	cut := idx[hm]
	lm, _ := slices.BinarySearch(idx[llo:lhi], cut)
	lm += llo
	var wg sync.WaitGroup
	wg.Go(func() { w2.sweepB(llo, lhi, hm, hhi, lm) })
	w.sweepB(llo, lm, hlo, hm, llo)
	wg.Wait()
}

// gather writes c_k over the range [lo, hi) of idx into w.vals[at:] and
// returns those values with their minimum and maximum.
func (w *jfbWorker) gather(lo, hi, k, at int) (vals []int32, vmin, vmax int32) {
	c, m1, off := w.d.c, w.d.m1, k-1
	vals = w.vals[at : at+hi-lo]
	vmin, vmax = int32(1<<31-1), int32(-1)
	for j, e := range w.d.idx[lo:hi] {
		v := c[id(e)*m1+off]
		vals[j] = v
		vmin = min(vmin, v)
		vmax = max(vmax, v)
	}
	return vals, vmin, vmax
}

// split partitions the range [lo, hi) of idx stably into the points whose
// value in vals (parallel to the range) is below, equal to and above med:
// [lo, a), [a, b) and [b, hi).
func (d *jfbData) split(lo, hi int, vals []int32, med int32) (a, b int) {
	idx, tmp := d.idx, d.tmp
	vals = vals[:hi-lo]
	// Branch-free: every point is written to all three destinations and
	// only the right one advances. Below, lo <= eq < gt <= hi until the
	// last point, so the writes never clobber a kept point.
	w, eq, gt := lo, lo, hi
	for j, p := range idx[lo:hi] {
		v := vals[j]
		isL, isE, isG := 0, 0, 0
		if v < med {
			isL = 1
		}
		if v == med {
			isE = 1
		}
		if v > med {
			isG = 1
		}
		idx[w] = p
		tmp[gt-1] = p
		tmp[eq] = p
		w += isL
		eq += isE
		gt -= isG
	}
	return d.splitTail(lo, hi, w, eq, gt)
}

// splitTop is split on objective d.top, reading the values from c.
func (d *jfbData) splitTop(lo, hi int, med int32) (a, b int) {
	c, m1, off := d.c, d.m1, d.top-1
	idx, tmp := d.idx, d.tmp
	w, eq, gt := lo, lo, hi
	for _, p := range idx[lo:hi] {
		v := c[id(p)*m1+off]
		isL, isE, isG := 0, 0, 0
		if v < med {
			isL = 1
		}
		if v == med {
			isE = 1
		}
		if v > med {
			isG = 1
		}
		idx[w] = p
		tmp[gt-1] = p
		tmp[eq] = p
		w += isL
		eq += isE
		gt -= isG
	}
	return d.splitTail(lo, hi, w, eq, gt)
}

// splitTail moves the equal and greater parts of a split from tmp[lo:eq]
// and tmp[gt:hi] (reversed) to their place after the lesser part in idx.
func (d *jfbData) splitTail(lo, hi, w, eq, gt int) (a, b int) {
	idx, tmp := d.idx, d.tmp
	a = w
	w += copy(idx[w:], tmp[lo:eq])
	b = w
	for s := hi - 1; s >= gt; s-- {
		idx[w] = tmp[s]
		w++
	}
	return a, b
}

// merge merges the sorted ranges [lo, mid) and [mid, hi) of idx.
func (d *jfbData) merge(lo, mid, hi int) {
	idx := d.idx
	if lo == mid || mid == hi || idx[mid-1] < idx[mid] {
		return
	}
	left := d.tmp[lo:mid]
	copy(left, idx[lo:mid])
	i, j, w := 0, mid, lo
	// Branch-free: the smaller head is written and its side advances.
	for i < len(left) && j < hi {
		x, y := left[i], idx[j]
		takeL := 0
		if x < y {
			takeL = 1
		}
		idx[w] = min(x, y)
		i += takeL
		j += 1 - takeL
		w++
	}
	copy(idx[w:], left[i:])
}

// selectNth returns the value that would be at index nth if v were sorted,
// given that v's values lie in [vmin, vmax]. It leaves v alone and uses
// scratch (len >= len(v)). It is a radix select: each round counts the
// values in 256 buckets of equal width, keeps only those of the bucket
// holding the answer and narrows the range to that bucket, so it takes at
// most 4 rounds over ever fewer values, with no data-dependent branches.
func selectNth(v, scratch []int32, nth int, vmin, vmax int32) int32 {
	var count [256]int32
	for vmin < vmax {
		shift := uint(max(bits.Len32(uint32(vmax-vmin)), 8) - 8)
		clear(count[:])
		for _, x := range v {
			count[uint32(x-vmin)>>shift]++
		}
		b, below := 0, 0
		for ; below+int(count[b]) <= nth; b++ {
			below += int(count[b])
		}
		lo := vmin + int32(b)<<shift
		if shift == 0 {
			return lo
		}
		// Keep the bucket's values, in scratch (in place after the first
		// round: the write index never passes the read index).
		w := 0
		for _, x := range v {
			scratch[w] = x
			if uint32(x-vmin)>>shift == uint32(b) {
				w++
			}
		}
		v = scratch[:w]
		nth -= below
		vmin, vmax = lo, min(vmax, lo+int32(1)<<shift-1)
	}
	return vmin
}
