package pareto

import "slices"

// Hypervolume2D returns the hypervolume of the row-major n×2 matrix points
// with respect to the reference point ref, both objectives maximised: the
// area of the union, over the points p with p[0] > ref[0] and p[1] > ref[1],
// of the boxes [ref[0], p[0]] × [ref[1], p[1]]. Points not strictly better
// than ref on both objectives contribute nothing, and neither do dominated
// points or copies, so points need not be a frontier.
//
// It sorts the points by the first objective and sweeps them, in O(n log n)
// time. The result is exact when the coordinates and the products of the
// differences are exactly representable (small integers, for instance).
//
// Hypervolume2D requires every value of points and ref to be finite. It
// panics if len(points) is odd.
func Hypervolume2D(points []float64, ref [2]float64) float64 {
	if len(points)%2 != 0 {
		panic("pareto: len(points) is not a multiple of m")
	}
	n := len(points) / 2
	ks := make([]keyYIdx, 0, n)
	for i := range n {
		x, y := points[2*i], points[2*i+1]
		if x > ref[0] && y > ref[1] {
			ks = append(ks, keyYIdx{k: descKey(x), y: y, i: int32(i)})
		}
	}
	ks = sortKeysY(ks, make([]keyYIdx, len(ks)))
	// In decreasing x, a point adds the strip between the highest y seen so
	// far and its own y, as wide as itself: every point after it is
	// narrower. Among equal x the order does not matter.
	area, top := 0.0, ref[1]
	for _, e := range ks {
		if e.y > top {
			x := points[2*int(e.i)]
			area += (x - ref[0]) * (e.y - top)
			top = e.y
		}
	}
	return area
}

// Hypervolume3D returns the hypervolume of the row-major n×3 matrix points
// with respect to the reference point ref, all three objectives maximised:
// the volume of the union, over the points p strictly better than ref on
// every objective, of the boxes [ref[0], p[0]] × [ref[1], p[1]] × [ref[2],
// p[2]]. Points not strictly better than ref on every objective contribute
// nothing, and neither do dominated points or copies.
//
// It is the sweep of Beume, Fonseca, López-Ibáñez, Paquete and Vahrenhold
// ("On the complexity of computing the hypervolume indicator", IEEE TEVC
// 13(5), 2009): points are taken in decreasing third objective while the
// area dominated by the projections of those seen so far is kept up to date
// in a staircase ordered by the first objective, a 64-ary bitset tree over
// their ranks. O(n log n) time, O(n) memory. The result is exact when the
// coordinates and the products of their differences are exactly
// representable (small integers, for instance); otherwise the area is
// maintained by additions and subtractions, with the rounding that implies.
//
// Hypervolume3D requires every value of points and ref to be finite. It
// panics if len(points) is not a multiple of 3.
func Hypervolume3D(points []float64, ref [3]float64) float64 {
	if len(points)%3 != 0 {
		panic("pareto: len(points) is not a multiple of m")
	}
	n := len(points) / 3
	var in []int32
	for i := range n {
		p := points[3*i : 3*i+3]
		if p[0] > ref[0] && p[1] > ref[1] && p[2] > ref[2] {
			in = append(in, int32(i))
		}
	}
	if len(in) == 0 {
		return 0
	}
	nin := len(in)
	// Ranks of the first objective in increasing order: equal values share
	// a slot of the staircase. xs[slot] is the value.
	ka := make([]keyIdx, nin)
	kb := make([]keyIdx, nin)
	for j, i := range in {
		ka[j] = keyIdx{^descKey(points[3*i]), int32(j)}
	}
	s := sortKeys(ka, kb)
	slot := make([]int32, nin)
	xs := make([]float64, 0, nin)
	for p, e := range s {
		if p == 0 || e.k != s[p-1].k {
			xs = append(xs, points[3*in[e.i]])
		}
		slot[e.i] = int32(len(xs) - 1)
	}
	// Visiting order: decreasing third objective.
	for j, i := range in {
		ka[j] = keyIdx{descKey(points[3*i+2]), int32(j)}
	}
	order := slices.Clone(sortKeys(ka, kb))

	var st stairs
	st.reset(len(xs), 0, 0)        // only its bitset tree is used
	ys := make([]float64, len(xs)) // y of the staircase point at each slot
	// Staircase: slots in increasing x hold strictly decreasing y. The area
	// is the sum over its points of (x - x of the left neighbour) times
	// (y - ref[1]), the left neighbour of the leftmost being ref[0].
	leftX := func(q int) float64 {
		if q > 0 {
			if l := st.pred(q - 1); l >= 0 {
				return xs[l]
			}
		}
		return ref[0]
	}
	rightY := func(q int) float64 {
		if r := st.succ(q + 1); r >= 0 {
			return ys[r]
		}
		return ref[1]
	}
	vol, area := 0.0, 0.0
	for t, e := range order {
		j := e.i
		i := int(in[j])
		q := int(slot[j])
		y := points[3*i+1]
		// Unless a point with x >= ours and y >= ours covers ours already,
		// remove the points we cover (x <= ours, y <= ours: the nearest
		// ones on our left), each taking away the rectangle only it
		// covered, then add ours.
		if r := st.succ(q); r < 0 || ys[r] < y {
			for {
				d := st.pred(q)
				if d < 0 || ys[d] > y {
					break
				}
				area -= (xs[d] - leftX(d)) * (ys[d] - rightY(d))
				st.unset(d)
			}
			area += (xs[q] - leftX(q)) * (y - rightY(q))
			ys[q] = y
			st.set(q)
		}
		next := ref[2]
		if t+1 < len(order) {
			next = points[3*in[order[t+1].i]+2]
		}
		vol += area * (points[3*i+2] - next)
	}
	return vol
}
