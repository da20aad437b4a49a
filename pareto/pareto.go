// Package pareto implements Pareto dominance, non-dominated sorting, the
// NSGA-II crowding distance and the hypervolume of sets of objective
// vectors.
//
// Every vector is oriented: larger is better on every objective. Callers that
// minimise an objective negate it before calling in.
//
// A set of n points with m objectives is passed as a row-major n×m matrix
// flattened into a []float64, point i occupying points[i*m : (i+1)*m].
//
// All values must be finite. NaN breaks the total order the sorting
// algorithms rely on and ±Inf makes objective ranges meaningless, so neither
// is checked for: results for such input are unspecified (but the functions
// do not panic because of them).
//
// The package-level functions allocate their scratch space on every call. A
// caller ranking many groups should keep a Ranker and call its methods, which
// reuse the scratch space of earlier calls.
package pareto

import "runtime"

// Dominates reports whether a dominates b, that is whether a[k] >= b[k] for
// every k and a[k] > b[k] for at least one k. Identical vectors, and vectors
// of length zero, do not dominate each other.
//
// Dominates panics if len(a) != len(b).
func Dominates(a, b []float64) bool {
	if len(a) != len(b) {
		panic("pareto: slice length mismatch")
	}
	strict := false
	for k, ak := range a {
		bk := b[k]
		if ak < bk {
			return false
		}
		if ak > bk {
			strict = true
		}
	}
	return strict
}

// Ranks writes into dst[i] the non-dominated rank of point i of the row-major
// n×m matrix points, n = len(points)/m, and returns the number of fronts,
// which is one more than the largest rank and 0 when n == 0.
//
// Rank 0 holds the points no other point dominates; rank r holds the points
// not dominated by any point once the points of ranks below r are removed.
// Identical vectors never dominate each other, so they always share a rank.
//
// Algorithms, all in O(n m) memory: one objective, a sort; two objectives, a
// sort and a sweep, O(n log n); three or more, Efficient Non-dominated Sort
// (ENS-BS) below 256 points; above that, for three, a sweep in
// lexicographic order with a binary search over the fronts' staircases,
// O(n log^2 n), and for more, the divide and conquer of Jensen, Fortin et
// al. and Buzdalov and Shalyto, O(n log^(m-1) n). For large inputs the
// sorting and the divide and conquer run on up to min(GOMAXPROCS, 8)
// goroutines; the ranks never depend on their schedule.
//
// Ranks requires every value of points to be finite. It panics if m < 1, if
// len(points) is not a multiple of m, or if len(dst) < n.
func Ranks(dst []int, points []float64, m int) int {
	var r Ranker
	return r.Ranks(dst, points, m)
}

// Frontier returns, in ascending order, the indices of the rank-0 points of
// the row-major n×m matrix points (see Ranks): the points no other point
// dominates. Copies of a frontier point are all on the frontier. Frontier
// returns nil when points is empty.
//
// Frontier requires every value of points to be finite. It panics if m < 1 or
// if len(points) is not a multiple of m.
func Frontier(points []float64, m int) []int {
	n := dims(points, m)
	if n == 0 {
		return nil
	}
	var r Ranker
	ranks := make([]int, n)
	r.Ranks(ranks, points, m)
	// Compacting in place is safe: the write position never passes the read
	// position.
	front := ranks[:0]
	for i, rk := range ranks {
		if rk == 0 {
			front = append(front, i)
		}
	}
	return front
}

// Crowding writes into dst[i] the NSGA-II crowding distance of point i of the
// row-major n×m matrix points within its front, ranks being the fronts as
// computed by Ranks. The definition, matching pymoo's calc_crowding_distance,
// applies to each front separately, its points taken in increasing index
// order:
//
//   - a front of one or two points gets +Inf for every point;
//   - otherwise, for each objective k the front is stably sorted by value on k
//     in ascending order. If that objective is constant over the front it
//     contributes nothing, not even to the extremes. Else the first and last
//     points of the sorted order get +Inf and the point at sorted position i
//     in between adds (v[i+1] - v[i-1]) / (max - min);
//   - each point's sum is finally divided by m (+Inf stays +Inf).
//
// Ranks need not be contiguous: only equality of ranks matters.
//
// Crowding requires every value of points to be finite. It panics if m < 1, if
// len(points) is not a multiple of m, if len(dst) < n or len(ranks) < n, or if
// a rank is outside [0, n).
func Crowding(dst []float64, points []float64, m int, ranks []int) {
	var r Ranker
	r.Crowding(dst, points, m, ranks)
}

// Ranker computes ranks and crowding distances like the package-level Ranks
// and Crowding, keeping its scratch space between calls so that ranking many
// small groups does not allocate once the buffers have grown to the largest
// group. The zero value is ready to use. A Ranker must not be used by several
// goroutines at once.
type Ranker struct {
	// Ranks, m == 1 and m == 2.
	p1       []point1
	kya, kyb []keyYIdx
	// Ranks, largest y of each front for m == 2.
	frontMaxY []float64
	// Ranks, m >= 3 and n < jfbMinN (ENS-BS): lexicographic order, rows
	// copied in that order, and the members (positions in that order) of
	// each front. fronts keeps the slices of earlier calls beyond the
	// current front count so their capacity is reused.
	order  []int
	rows   []float64
	fronts [][]int
	// Ranks, m >= 3 and n >= jfbMinN (divide and conquer, jfb.go): dense
	// ranks by objective, sort buffers (two per goroutine sorting), the
	// number of distinct values of each objective, the lexicographic order,
	// each point's id, the point standing for each position and each
	// position's id; then the state of the divide and conquer.
	cols     []int32
	keys     [][]keyIdx
	distinct []int
	order32  []int32
	posOf    []int32
	rep      []int32
	idOf     []int32
	jfb      jfbData
	// Ranks, m == 3 and n >= jfbMinN (fronts3.go): each position's rank,
	// each front's staircase, the points in the order of the sweep, and
	// blocks of staircases to reuse.
	rankOfPos     []int32
	stairFronts   []staircase
	stairsInOrder []stair
	freeBlocks    [][]stair

	// Crowding: the counting sort by rank, the fronts, the tasks, each
	// objective's share of the distances (one row of n per objective) and
	// each goroutine's sort space.
	bounds       []int
	byRank       []int
	crowdFronts  [][]int
	crowdTasks   []crowdTask
	contrib      []float64
	crowdScratch []*crowdScratch
}

// Ranks is the package-level Ranks using r's scratch space.
func (r *Ranker) Ranks(dst []int, points []float64, m int) int {
	n := dims(points, m)
	if len(dst) < n {
		panic("pareto: destination too short")
	}
	switch {
	case n == 0:
		return 0
	case m == 1:
		return r.rank1(dst, points)
	case m == 2:
		return r.rank2(dst, points)
	case n < jfbMinN:
		return r.rankGeneral(dst, points, m)
	default:
		cfg := defaultJFB
		cfg.workers = min(runtime.GOMAXPROCS(0), maxWorkers)
		return r.rankJFB(dst, points, m, cfg)
	}
}

// maxWorkers bounds the goroutines of one Ranks call: each needs O(n)
// scratch space, and the divide and conquer has little more parallelism to
// offer anyway.
const maxWorkers = 8

// jfbMinN is the size from which Ranks uses the divide and conquer for
// m >= 3. Measured (BenchmarkCrossover, m = 3 and 5): ENS-BS is faster on
// uniform data up to about 200 (m = 5) to 400 (m = 3) points and on heavily
// duplicated data well beyond 1000, but it is quadratic when most points
// share a few fronts, where the divide and conquer is faster from about 100
// points (3.7 times at 256, 9 times at 1024). At 256 neither is more than
// about 3 times slower than the other.
const jfbMinN = 256

// dims validates the shape of a row-major matrix and returns its row count.
func dims(points []float64, m int) int {
	if m < 1 {
		panic("pareto: number of objectives < 1")
	}
	if len(points)%m != 0 {
		panic("pareto: len(points) is not a multiple of m")
	}
	return len(points) / m
}

// grow returns s resliced to length n, reallocating only when its capacity is
// too small. The contents are unspecified.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
