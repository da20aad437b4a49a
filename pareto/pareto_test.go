package pareto

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// naiveDominates is the definition of dominance written independently of
// Dominates so the brute-force references do not share its bugs.
func naiveDominates(a, b []float64) bool {
	allGE, someGT := true, false
	for k := range a {
		allGE = allGE && a[k] >= b[k]
		someGT = someGT || a[k] > b[k]
	}
	return allGE && someGT
}

func row(points []float64, m, i int) []float64 { return points[i*m : (i+1)*m] }

// bruteRanks peels fronts off by the definition: in each round the points no
// remaining point dominates get the round's rank and are removed.
func bruteRanks(points []float64, m int) ([]int, int) {
	n := len(points) / m
	ranks := make([]int, n)
	for i := range ranks {
		ranks[i] = -1
	}
	left := n
	rank := 0
	for ; left > 0; rank++ {
		var front []int
		for i := range n {
			if ranks[i] != -1 {
				continue
			}
			dominated := false
			for j := range n {
				if ranks[j] == -1 && naiveDominates(row(points, m, j), row(points, m, i)) {
					dominated = true
					break
				}
			}
			if !dominated {
				front = append(front, i)
			}
		}
		for _, i := range front {
			ranks[i] = rank
		}
		left -= len(front)
	}
	return ranks, rank
}

// bruteCrowding follows the documented definition of Crowding literally.
func bruteCrowding(points []float64, m int, ranks []int) []float64 {
	n := len(points) / m
	dist := make([]float64, n)
	done := make(map[int]bool)
	for _, rk := range ranks {
		if done[rk] {
			continue
		}
		done[rk] = true
		var front []int
		for i := range n {
			if ranks[i] == rk {
				front = append(front, i)
			}
		}
		if len(front) <= 2 {
			for _, i := range front {
				dist[i] = math.Inf(1)
			}
			continue
		}
		for k := range m {
			sorted := slices.Clone(front)
			sort.SliceStable(sorted, func(a, b int) bool {
				return points[sorted[a]*m+k] < points[sorted[b]*m+k]
			})
			v := make([]float64, len(sorted))
			for j, i := range sorted {
				v[j] = points[i*m+k]
			}
			minV, maxV := slices.Min(v), slices.Max(v)
			if minV == maxV {
				continue
			}
			dist[sorted[0]] = math.Inf(1)
			dist[sorted[len(sorted)-1]] = math.Inf(1)
			for j := 1; j < len(sorted)-1; j++ {
				dist[sorted[j]] += (v[j+1] - v[j-1]) / (maxV - minV)
			}
		}
		for _, i := range front {
			dist[i] /= float64(m)
		}
	}
	return dist
}

func bruteFrontier(points []float64, m int) []int {
	ranks, _ := bruteRanks(points, m)
	var front []int
	for i, rk := range ranks {
		if rk == 0 {
			front = append(front, i)
		}
	}
	return front
}

func sameFloat(got, want float64) bool {
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return got == want
	}
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// randomPoints draws an n×m matrix from one of several value distributions,
// most of them full of ties, and sometimes overwrites rows with copies of
// other rows.
func randomPoints(rng *rand.Rand, n, m int) (points []float64, desc string) {
	points = make([]float64, n*m)
	kind := rng.IntN(6)
	levels := []int{1, 2, 3, 4, 6, 10}[rng.IntN(6)]
	constCol := -1
	if rng.IntN(4) == 0 {
		constCol = rng.IntN(m)
	}
	for i := range points {
		var v float64
		switch kind {
		case 0: // small non-negative integers
			v = float64(rng.IntN(levels))
		case 1: // small integers around zero
			v = float64(rng.IntN(7) - 3)
		case 2: // continuous
			v = rng.NormFloat64() * 100
		case 3: // continuous but partly snapped to a coarse grid
			v = rng.Float64()*4 - 2
			if rng.IntN(2) == 0 {
				v = math.Round(v*2) / 2
			}
		case 4: // anti-correlated integers: many points on few fronts
			v = float64(rng.IntN(levels + 3))
			if i%m == m-1 {
				s := 0.0
				for _, w := range points[i-m+1 : i] {
					s += w
				}
				v = float64(levels+3) - s + float64(rng.IntN(3))
			}
		case 5: // tiny and huge magnitudes, signed zeros
			v = []float64{-1e300, -1, math.Copysign(0, -1), 0, 1e-300, 1, 1e300}[rng.IntN(7)]
		}
		if i%m == constCol {
			v = 42
		}
		points[i] = v
	}
	dups := 0
	if n > 1 && rng.IntN(2) == 0 {
		dups = 1 + rng.IntN(n/3+1)
		for range dups {
			src, dst := rng.IntN(n), rng.IntN(n)
			copy(points[dst*m:(dst+1)*m], points[src*m:(src+1)*m])
		}
	}
	return points, fmt.Sprintf("n=%d m=%d kind=%d levels=%d constCol=%d dups=%d", n, m, kind, levels, constCol, dups)
}

// crowdTestConfigs force each path of Crowding: radix sorts of fronts of
// every size, comparison sorts of every size, several goroutines.
var crowdTestConfigs = []crowdConfig{
	{radixMin: 1, workers: 1},
	{radixMin: 1 << 30, workers: 3},
	{radixMin: 3, workers: 2},
}

// jfbTestConfigs force each path of the divide and conquer: the recursion
// all the way down with no pairwise base cases, small base cases, the
// defaults, and pairwise checks only.
var jfbTestConfigs = []jfbConfig{
	{bruteA: 0, bruteB: 0, stairs: 0}, // bitset staircases only
	{bruteA: 0, bruteB: 0, stairs: 2}, // rank mode spilling over
	{bruteA: 3, bruteB: 4, stairs: 16},
	defaultJFB,
	{bruteA: 1 << 30, bruteB: 1 << 30},
	// Goroutines on tiny sets.
	{bruteA: 0, bruteB: 0, parMin: 1, parSweep: 2, workers: 2, stairs: 1},
	{bruteA: 2, bruteB: 2, parMin: 3, parSweep: 8, workers: 3, stairs: 16},
	// The fronts' staircases (m = 3) in blocks of every small size.
	{fronts3: 2},
	{fronts3: 3},
	{fronts3: 5},
}

func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var shared Ranker // reused across every case to catch stale scratch state
	cases := 700
	if testing.Short() {
		cases = 100
	}
	for m := 1; m <= 6; m++ {
		for c := range cases {
			n := rng.IntN(13)
			if c%2 == 1 {
				n = rng.IntN(301)
			}
			points, desc := randomPoints(rng, n, m)
			wantRanks, wantFronts := bruteRanks(points, m)

			check := func(name string, rank func(dst []int) int) {
				t.Helper()
				// A longer dst checks that nothing past n is written.
				dst := make([]int, n+2)
				for i := range dst {
					dst[i] = -7
				}
				got := rank(dst)
				if got != wantFronts {
					t.Fatalf("%s %s: %d fronts, want %d\npoints=%v", name, desc, got, wantFronts, points)
				}
				if !slices.Equal(dst[:n], wantRanks) {
					t.Fatalf("%s %s: ranks\n got %v\nwant %v\npoints=%v", name, desc, dst[:n], wantRanks, points)
				}
				if dst[n] != -7 || dst[n+1] != -7 {
					t.Fatalf("%s %s: wrote past n", name, desc)
				}
			}
			check("Ranks", func(dst []int) int { return Ranks(dst, points, m) })
			check("shared.Ranks", func(dst []int) int { return shared.Ranks(dst, points, m) })
			if n > 0 {
				// Force every algorithm on every m it is valid for,
				// whatever the dispatch in Ranks chooses.
				check("rankGeneral", func(dst []int) int { return shared.rankGeneral(dst, points, m) })
				if m >= 2 {
					for _, cfg := range jfbTestConfigs {
						check(fmt.Sprintf("rankJFB%+v", cfg), func(dst []int) int { return shared.rankJFB(dst, points, m, cfg) })
					}
				}
				switch m {
				case 1:
					check("rank1", func(dst []int) int { return shared.rank1(dst, points) })
				case 2:
					check("rank2", func(dst []int) int { return shared.rank2(dst, points) })
				}
			}

			if got, want := Frontier(points, m), bruteFrontier(points, m); !slices.Equal(got, want) {
				t.Fatalf("Frontier %s: got %v, want %v", desc, got, want)
			}

			wantCrowd := bruteCrowding(points, m, wantRanks)
			crowds := map[string]func([]float64, []int){
				"Crowding":        func(dst []float64, ranks []int) { Crowding(dst, points, m, ranks) },
				"shared.Crowding": func(dst []float64, ranks []int) { shared.Crowding(dst, points, m, ranks) },
			}
			// Force the radix sort and the goroutines, whatever the sizes.
			for _, cfg := range crowdTestConfigs {
				crowds[fmt.Sprintf("crowding%+v", cfg)] = func(dst []float64, ranks []int) { shared.crowding(dst, points, m, ranks, cfg) }
			}
			for name, crowd := range crowds {
				dst := make([]float64, n+1)
				for i := range dst {
					dst[i] = -7 // garbage the implementation must overwrite
				}
				crowd(dst, wantRanks)
				for i := range n {
					if !sameFloat(dst[i], wantCrowd[i]) {
						t.Fatalf("%s %s: point %d got %v, want %v\nranks=%v\npoints=%v",
							name, desc, i, dst[i], wantCrowd[i], wantRanks, points)
					}
				}
				if dst[n] != -7 {
					t.Fatalf("%s %s: wrote past n", name, desc)
				}
			}

			// Only equality of ranks matters to Crowding: spreading the ranks
			// apart (and reversing them) must not change anything.
			if n > 0 {
				spread := make([]int, n)
				for i, rk := range wantRanks {
					spread[i] = n - 1 - rk*(n-1)/max(wantFronts, 1)
				}
				got := make([]float64, n)
				shared.Crowding(got, points, m, spread)
				want := bruteCrowding(points, m, spread)
				for i := range n {
					if !sameFloat(got[i], want[i]) {
						t.Fatalf("Crowding with spread ranks %s: point %d got %v, want %v", desc, i, got[i], want[i])
					}
				}
			}

			// Dominates against the naive definition on some pairs.
			for range min(n*n, 50) {
				a, b := row(points, m, rng.IntN(n)), row(points, m, rng.IntN(n))
				if got, want := Dominates(a, b), naiveDominates(a, b); got != want {
					t.Fatalf("Dominates(%v, %v) = %v, want %v", a, b, got, want)
				}
			}
		}
	}
}

// lexDescLess is the visiting order of rankGeneral.
func lexDescLess(a, b []float64) bool {
	for k := range a {
		if a[k] != b[k] {
			return a[k] > b[k]
		}
	}
	return false
}

// TestDominatorSortsFirst checks the premise of rankGeneral (and, for m == 2,
// of rank2): a dominator strictly precedes what it dominates in descending
// lexicographic order, even among vectors that tie on leading objectives, and
// identical vectors are the only lexicographic ties.
func TestDominatorSortsFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for m := 1; m <= 6; m++ {
		for range 200 {
			points, desc := randomPoints(rng, 40, m)
			for i := range 40 {
				for j := range 40 {
					a, b := row(points, m, i), row(points, m, j)
					if naiveDominates(a, b) && !lexDescLess(a, b) {
						t.Fatalf("%s: %v dominates %v but does not sort first", desc, a, b)
					}
					if !lexDescLess(a, b) && !lexDescLess(b, a) && !slices.Equal(a, b) {
						t.Fatalf("%s: %v and %v tie lexicographically but differ", desc, a, b)
					}
				}
			}
		}
	}
}

func TestDominates(t *testing.T) {
	for _, tc := range []struct {
		a, b []float64
		want bool
	}{
		{[]float64{1, 2}, []float64{1, 1}, true},               // better on one, equal on the other
		{[]float64{2, 2}, []float64{1, 1}, true},               // better on both
		{[]float64{1, 1}, []float64{1, 1}, false},              // identical
		{[]float64{2, 0}, []float64{1, 1}, false},              // trade-off
		{[]float64{1, 1}, []float64{1, 2}, false},              // dominated, not dominating
		{[]float64{-1, -2}, []float64{-1, -3}, true},           // negative values
		{[]float64{0}, []float64{math.Copysign(0, -1)}, false}, // 0 == -0
		{[]float64{3}, []float64{2}, true},
		{[]float64{}, []float64{}, false}, // nothing to be better on
		{[]float64{5, 5, 5, 4}, []float64{5, 5, 5, 5}, false},
		{[]float64{5, 5, 6, 5}, []float64{5, 5, 5, 5}, true},
	} {
		if got := Dominates(tc.a, tc.b); got != tc.want {
			t.Errorf("Dominates(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestRanksHand(t *testing.T) {
	// x →   0 1 2 3
	// y 3     1
	// y 2     7 2,5
	// y 1     4 3   0
	// y 0   6
	//
	// Rank 0: (3,1), (1,3) and both copies of (2,2).
	// Rank 1: (2,1) and (1,2), dominated only by rank-0 points.
	// Rank 2: (1,1), dominated by (2,1) and (1,2).
	// Rank 3: (0,0).
	points2 := []float64{
		3, 1, // 0
		1, 3, // 1
		2, 2, // 2
		2, 1, // 3
		1, 1, // 4
		2, 2, // 5
		0, 0, // 6
		1, 2, // 7
	}
	want2 := []int{0, 0, 0, 1, 2, 0, 3, 1}

	// Three objectives, including a point equal to another on all but one
	// objective, and a trade-off that keeps (0,0,9) on the frontier.
	points3 := []float64{
		1, 1, 1, // 0: dominated by 1 and 2
		1, 1, 2, // 1
		2, 1, 1, // 2
		0, 0, 9, // 3
		1, 1, 0, // 4: dominated by 0
		0, 0, 0, // 5: dominated by 4 (and 3)
		2, 1, 1, // 6: copy of 2
	}
	want3 := []int{1, 0, 0, 0, 2, 3, 0}

	// One objective: rank is the number of distinct larger values.
	points1 := []float64{3, -1, 3, 0, math.Copysign(0, -1), 7}
	want1 := []int{1, 3, 1, 2, 2, 0}

	for _, tc := range []struct {
		points []float64
		m      int
		want   []int
		fronts int
	}{
		{points2, 2, want2, 4},
		{points3, 3, want3, 4},
		{points1, 1, want1, 4},
		{nil, 3, []int{}, 0},
		{[]float64{1, 2, 3}, 3, []int{0}, 1},
	} {
		n := len(tc.points) / tc.m
		dst := make([]int, n)
		if got := Ranks(dst, tc.points, tc.m); got != tc.fronts {
			t.Errorf("Ranks(m=%d) = %d fronts, want %d", tc.m, got, tc.fronts)
		}
		if !slices.Equal(dst, tc.want) {
			t.Errorf("Ranks(m=%d) = %v, want %v", tc.m, dst, tc.want)
		}
		var r Ranker
		if n > 0 {
			clear(dst)
			if got := r.rankGeneral(dst, tc.points, tc.m); got != tc.fronts || !slices.Equal(dst, tc.want) {
				t.Errorf("rankGeneral(m=%d) = %v (%d fronts), want %v (%d)", tc.m, dst, got, tc.want, tc.fronts)
			}
		}
	}
}

// TestFrontierKeepsDuplicates is a regression test: the seed design's numpy
// implementation pushed copies of a frontier point into later fronts.
func TestFrontierKeepsDuplicates(t *testing.T) {
	for _, tc := range []struct {
		points []float64
		m      int
		want   []int
	}{
		{[]float64{1, 1, 1, 1, 0, 2, 2, 0, 0, 0, 1, 1}, 2, []int{0, 1, 2, 3, 5}},
		{[]float64{5, 5, 5, 5, 5, 5, 4, 4, 4, 5, 5, 5}, 3, []int{0, 1, 3}},
		{[]float64{2, 1, 2, 2}, 1, []int{0, 2, 3}},
		{[]float64{7, 7, 7, 7}, 2, []int{0, 1}}, // everything identical
	} {
		if got := Frontier(tc.points, tc.m); !slices.Equal(got, tc.want) {
			t.Errorf("Frontier(%v, %d) = %v, want %v", tc.points, tc.m, got, tc.want)
		}
	}
	if got := Frontier(nil, 2); got != nil {
		t.Errorf("Frontier(nil) = %v, want nil", got)
	}
}

func TestCrowdingHand(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name   string
		points []float64
		m      int
		ranks  []int
		want   []float64
	}{
		{
			// One 5-point front, given out of order.
			//   by x: A(0) B(1) C(3) D(6) E(10), range 10:
			//     B (3-0)/10 = .3, C (6-1)/10 = .5, D (10-3)/10 = .7
			//   by y: E(0) D(2) C(5) B(7) A(10), range 10:
			//     D (5-0)/10 = .5, C (7-2)/10 = .5, B (10-5)/10 = .5
			//   halved: B .4, C .5, D .6; A and E are extremes.
			name: "five-point front",
			points: []float64{
				3, 5, // C
				10, 0, // E
				0, 10, // A
				6, 2, // D
				1, 7, // B
			},
			m:     2,
			ranks: []int{0, 0, 0, 0, 0},
			want:  []float64{0.5, inf, inf, 0.6, 0.4},
		},
		{
			// Fronts of one and two points are all extremes; the front of
			// three points {0,2,3} is by x: 0(0) 3(1) 2(4), range 4: point
			// 3 adds (4-0)/4 = 1; by y: 2(0) 3(2) 0(4), range 4: adds 1;
			// halved: 1.
			name:   "small fronts",
			points: []float64{0, 4, 9, 9, 4, 0, 1, 2, 0, 0, 1, 1},
			m:      2,
			ranks:  []int{0, 1, 0, 0, 2, 2},
			want:   []float64{inf, inf, inf, 1, inf, inf},
		},
		{
			// Objective 2 is constant, so it gives nobody +Inf. By x: 1(0)
			// 2(.5) 0(1), point 2 adds (1-0)/1; by y likewise; point 2 ends
			// with 2/3, the others with +Inf from x and y.
			name:   "constant objective",
			points: []float64{1, 0, 5, 0, 1, 5, 0.5, 0.5, 5},
			m:      3,
			ranks:  []int{0, 0, 0},
			want:   []float64{inf, inf, 2.0 / 3},
		},
		{
			// Three copies: every objective is constant, nobody is an
			// extreme, and every distance is 0.
			name:   "all identical",
			points: []float64{1, 1, 1, 1, 1, 1},
			m:      2,
			ranks:  []int{0, 0, 0},
			want:   []float64{0, 0, 0},
		},
		{
			// Ties are broken by index. By x ascending: 1(0) 0(1) 2(1) 3(1):
			// 1 and 3 are extremes, 0 adds (1-0)/1 = 1, 2 adds (1-1) = 0.
			// By y ascending: 0(0) 2(0) 3(0) 1(1): 0 and 1 are extremes,
			// 2 adds (0-0) = 0, 3 adds (1-0) = 1. So only point 2 is finite,
			// with (0+0)/2 = 0.
			name:   "ties keep index order",
			points: []float64{1, 0, 0, 1, 1, 0, 1, 0},
			m:      2,
			ranks:  []int{0, 0, 0, 0},
			want:   []float64{inf, inf, 0, inf},
		},
	} {
		got := make([]float64, len(tc.want))
		Crowding(got, tc.points, tc.m, tc.ranks)
		for i := range got {
			if !sameFloat(got[i], tc.want[i]) {
				t.Errorf("%s: Crowding = %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		if brute := bruteCrowding(tc.points, tc.m, tc.ranks); !slices.EqualFunc(brute, tc.want, sameFloat) {
			t.Errorf("%s: brute-force reference = %v, want %v", tc.name, brute, tc.want)
		}
	}
}

func TestPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  string
		f    func()
	}{
		{"Dominates mismatch", "length mismatch", func() { Dominates([]float64{1}, []float64{1, 2}) }},
		{"Ranks m=0", "objectives", func() { Ranks(nil, nil, 0) }},
		{"Ranks ragged", "multiple", func() { Ranks(make([]int, 2), []float64{1, 2, 3}, 2) }},
		{"Ranks short dst", "destination", func() { Ranks(make([]int, 1), []float64{1, 2, 3, 4}, 2) }},
		{"Frontier m<0", "objectives", func() { Frontier([]float64{1}, -1) }},
		{"Frontier ragged", "multiple", func() { Frontier([]float64{1, 2, 3}, 2) }},
		{"Crowding short dst", "destination", func() { Crowding(make([]float64, 1), []float64{1, 2}, 1, []int{0, 0}) }},
		{"Crowding short ranks", "ranks too short", func() { Crowding(make([]float64, 2), []float64{1, 2}, 1, []int{0}) }},
		{"Crowding negative rank", "out of range", func() { Crowding(make([]float64, 2), []float64{1, 2}, 1, []int{0, -1}) }},
		{"Crowding rank >= n", "out of range", func() { Crowding(make([]float64, 2), []float64{1, 2}, 1, []int{0, 2}) }},
		{"Crowding ragged", "multiple", func() { Crowding(nil, []float64{1, 2, 3}, 2, nil) }},
	} {
		func() {
			defer func() {
				r := recover()
				if r == nil {
					t.Errorf("%s: no panic", tc.name)
					return
				}
				if s, ok := r.(string); !ok || !strings.Contains(s, tc.msg) {
					t.Errorf("%s: panic %v, want one mentioning %q", tc.name, r, tc.msg)
				}
			}()
			tc.f()
		}()
	}
}

// TestRankerDoesNotAllocate guards the reason Ranker exists: once its buffers
// have grown, ranking many small groups allocates nothing.
func TestRankerDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for m := 1; m <= 5; m++ {
		groups := make([][]float64, 20)
		for g := range groups {
			groups[g], _ = randomPoints(rng, 2+rng.IntN(15), m)
		}
		var r Ranker
		ranks := make([]int, 16)
		crowd := make([]float64, 16)
		run := func() {
			for _, pts := range groups {
				r.Ranks(ranks, pts, m)
				r.Crowding(crowd, pts, m, ranks)
			}
		}
		run() // grow the buffers
		if allocs := testing.AllocsPerRun(20, run); allocs != 0 {
			t.Errorf("m=%d: %v allocations per run of %d groups, want 0", m, allocs, len(groups))
		}
	}
}

// TestLargeAgainstEachOther cross-checks the specialised paths against the
// general one at sizes too large for the brute-force reference.
func TestLargeAgainstEachOther(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{2000, 20000} {
		for _, m := range []int{1, 2, 3} {
			points := make([]float64, n*m)
			for i := range points {
				if n == 2000 {
					points[i] = float64(rng.IntN(30))
				} else {
					points[i] = rng.Float64()
				}
			}
			var r Ranker
			want := make([]int, n)
			got := make([]int, n)
			wf := r.rankGeneral(want, points, m)
			gf := r.Ranks(got, points, m)
			if gf != wf || !slices.Equal(got, want) {
				t.Errorf("n=%d m=%d: specialised path disagrees with rankGeneral (%d vs %d fronts)", n, m, gf, wf)
			}
			if m == 3 {
				// The divide and conquer on two goroutines, which Ranks no
				// longer takes for three objectives.
				cfg := defaultJFB
				cfg.fronts3, cfg.workers = 0, 2
				if gf := r.rankJFB(got, points, m, cfg); gf != wf || !slices.Equal(got, want) {
					t.Errorf("n=%d m=3: the divide and conquer disagrees with rankGeneral (%d vs %d fronts)", n, gf, wf)
				}
			}
		}
	}
}
