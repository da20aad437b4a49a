package pareto

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// crowdConfig chooses how Crowding works; the distances never depend on it.
type crowdConfig struct {
	// radixMin is the front size from which a front is sorted by radix
	// rather than by comparison.
	radixMin int
	// workers bounds the goroutines working at once, the caller's
	// included.
	workers int
}

// crowdParallelMin is the number of points from which Crowding shares its
// work out: below it the goroutines cost more than they save.
const crowdParallelMin = 1 << 14

// Crowding is the package-level Crowding using r's scratch space.
func (r *Ranker) Crowding(dst []float64, points []float64, m int, ranks []int) {
	cfg := crowdConfig{radixMin: radixMin, workers: 1}
	if len(points) >= crowdParallelMin*m {
		cfg.workers = min(runtime.GOMAXPROCS(0), maxWorkers)
	}
	r.crowding(dst, points, m, ranks, cfg)
}

// crowdTask is one objective of one front of three or more points.
type crowdTask struct {
	front []int
	k     int
}

// crowding is Crowding with the configuration cfg.
//
// The fronts are independent, and within a front each objective sorts the
// front on its own: every (front, objective) pair is a task, which writes
// its share of the distance of the front's points into contrib, one row
// per objective. The shares are then added objective after objective, in
// the order of the definition, so the sums are the same bit for bit
// whichever goroutine ran which task.
func (r *Ranker) crowding(dst []float64, points []float64, m int, ranks []int, cfg crowdConfig) {
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
	fronts := r.frontsOf(ranks[:n])
	tasks := r.crowdTasks[:0]
	for _, front := range fronts {
		if len(front) <= 2 {
			for _, i := range front {
				dst[i] = math.Inf(1)
			}
			continue
		}
		for k := range m {
			tasks = append(tasks, crowdTask{front, k})
		}
	}
	r.crowdTasks = tasks
	contrib := grow(r.contrib, n*m)
	r.contrib = contrib

	nw := max(min(cfg.workers, len(tasks)), 1)
	for len(r.crowdScratch) < nw {
		r.crowdScratch = append(r.crowdScratch, &crowdScratch{})
	}
	if nw == 1 {
		for _, t := range tasks {
			r.crowdScratch[0].share(contrib[t.k*n:(t.k+1)*n], points, m, t, cfg.radixMin)
		}
	} else {
		shareOut(r.crowdScratch[:nw], tasks, contrib, points, m, cfg.radixMin)
	}

	fm := float64(m)
	for _, front := range fronts {
		if len(front) <= 2 {
			continue
		}
		for _, i := range front {
			d := 0.0
			for k := range m {
				d += contrib[k*n+i]
			}
			dst[i] = d / fm
		}
	}
}

// shareOut runs the tasks on one goroutine per scratch space, the
// caller's included, each taking the next task when it is done with one.
func shareOut(scratch []*crowdScratch, tasks []crowdTask, contrib, points []float64, m, radixMin int) {
	n := len(contrib) / m
	var next atomic.Int64
	run := func(s *crowdScratch) {
		for t := next.Add(1) - 1; t < int64(len(tasks)); t = next.Add(1) - 1 {
			k := tasks[t].k
			s.share(contrib[k*n:(k+1)*n], points, m, tasks[t], radixMin)
		}
	}
	var wg sync.WaitGroup
	for _, s := range scratch[1:] {
		wg.Go(func() { run(s) })
	}
	run(scratch[0])
	wg.Wait()
}

// frontsOf returns the members of each front, in increasing index order,
// the fronts in increasing rank order (a counting sort by rank). The
// slices share r's scratch space.
func (r *Ranker) frontsOf(ranks []int) [][]int {
	maxRank := 0
	for _, rk := range ranks {
		if rk < 0 || rk >= len(ranks) {
			panic("pareto: rank out of range")
		}
		maxRank = max(maxRank, rk)
	}
	// After the placement loop bounds[rk] is the end of front rk and
	// bounds[rk-1] its start.
	bounds := grow(r.bounds, maxRank+2)
	r.bounds = bounds
	clear(bounds)
	for _, rk := range ranks {
		bounds[rk+1]++
	}
	for rk := 1; rk < len(bounds); rk++ {
		bounds[rk] += bounds[rk-1]
	}
	byRank := grow(r.byRank, len(ranks))
	r.byRank = byRank
	for i, rk := range ranks {
		byRank[bounds[rk]] = i
		bounds[rk]++
	}
	fronts := r.crowdFronts[:0]
	start := 0
	for rk := 0; rk <= maxRank; rk++ {
		if bounds[rk] > start {
			fronts = append(fronts, byRank[start:bounds[rk]])
		}
		start = bounds[rk]
	}
	r.crowdFronts = fronts
	return fronts
}

// crowdScratch is the sort space of one goroutine of Crowding.
type crowdScratch struct {
	keys, tmp []keyIdx
}

// share writes into contrib[i], for each member i of the task's front, the
// share of objective k in i's crowding distance: +Inf for the first and
// last of the front sorted by value on k, (next - prev) / (max - min) for
// the others, and 0 for all when the objective is constant over the front.
// Fronts of radixMin points and more are sorted by radix, the others by
// comparison.
func (s *crowdScratch) share(contrib, points []float64, m int, t crowdTask, radixMin int) {
	front, k := t.front, t.k
	n := len(front)
	keys := grow(s.keys, n)
	s.keys = keys
	for j, i := range front {
		keys[j] = keyIdx{ascKey(points[i*m+k]), int32(i)}
	}
	// The front is in increasing index order, so ties broken on the index
	// are the order of the definition's stable sort; the radix sort is
	// stable.
	if n < radixMin {
		slices.SortFunc(keys, func(a, b keyIdx) int {
			if c := cmp.Compare(a.k, b.k); c != 0 {
				return c
			}
			return cmp.Compare(a.i, b.i)
		})
	} else {
		s.tmp = grow(s.tmp, n)
		keys = radixSortKeys(keys, s.tmp)
	}
	value := func(j int) float64 { return points[int(keys[j].i)*m+k] }
	lo, hi := value(0), value(n-1)
	if lo == hi {
		for _, i := range front {
			contrib[i] = 0
		}
		return
	}
	// Values from both ends of the float64 range span more than a float64
	// holds: every difference is then taken halved, which fits and leaves
	// the ratios as they are.
	span, halve := hi-lo, math.IsInf(hi-lo, 0)
	if halve {
		span = hi/2 - lo/2
	}
	contrib[keys[0].i] = math.Inf(1)
	contrib[keys[n-1].i] = math.Inf(1)
	for j := 1; j < n-1; j++ {
		next, prev := value(j+1), value(j-1)
		if halve {
			next, prev = next/2, prev/2
		}
		contrib[keys[j].i] = (next - prev) / span
	}
}

// ascKey maps v to a key whose ascending order is v's ascending order, with
// -0 and +0 mapped to the same key, as they compare equal.
func ascKey(v float64) uint64 { return ^descKey(v) }
