package pareto

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// TestStairs checks the staircase against a plain map, in rank mode, in
// bitset mode and across the switch, with 1 to 4 levels of bitsets.
func TestStairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var s stairs
	for _, u := range []int{1, 2, 63, 64, 65, 4095, 4096, 4097, 300000} {
		for _, limit := range []int{0, 1, 2, 16, 1000} {
			s.reset(u, 40, limit)
			for round := range 20 {
				model := map[int]int32{} // the staircase's keys and values
				var inserted []int
				ops := 1 + rng.IntN(200)
				for range ops {
					x := rng.IntN(u)
					if round%2 == 1 && u > 64 {
						x = rng.IntN(64) * (u / 64) // clustered and far apart
					}
					want := int32(0)
					for k, v := range model {
						if k <= x {
							want = max(want, v)
						}
					}
					if got := s.query(x); got != want {
						t.Fatalf("u=%d limit=%d: query(%d) = %d, want %d (model %v)", u, limit, x, got, want, model)
					}
					v := int32(1 + rng.IntN(40))
					if round%4 >= 2 {
						v = int32(30 + rng.IntN(8)) // few values, far from 1
					}
					if v > want {
						for k, w := range model {
							if k >= x && w <= v {
								delete(model, k)
							}
						}
						model[x] = v
					}
					s.insert(x, v)
					inserted = append(inserted, x)
				}
				// The invariant: larger keys, larger values.
				keys := make([]int, 0, len(model))
				for k := range model {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for j := 1; j < len(keys); j++ {
					if model[keys[j]] <= model[keys[j-1]] {
						t.Fatalf("model broke the staircase invariant: %v", model)
					}
				}
				if !s.empty() {
					for _, x := range inserted {
						s.clearKey(x)
					}
				}
				for _, x := range []int{0, u / 2, u - 1} {
					if got := s.query(x); got != 0 {
						t.Fatalf("u=%d limit=%d: query(%d) = %d after emptying", u, limit, x, got)
					}
				}
				for l, words := range s.lv {
					for w, bits := range words {
						if bits != 0 {
							t.Fatalf("u=%d limit=%d: level %d word %d = %x after emptying", u, limit, l, w, bits)
						}
					}
				}
			}
		}
	}
}

func TestSelectNth(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 2000 {
		n := 1 + rng.IntN(600)
		span := []int{1, 2, 3, 255, 256, 257, 1 << 20, 1 << 30}[rng.IntN(8)]
		v := make([]int32, n)
		base := int32(rng.IntN(1000))
		for i := range v {
			v[i] = base + int32(rng.IntN(span))
		}
		vmin, vmax := slices.Min(v), slices.Max(v)
		nth := rng.IntN(n)
		orig := slices.Clone(v)
		got := selectNth(v, make([]int32, n), nth, vmin, vmax)
		if !slices.Equal(v, orig) {
			t.Fatal("selectNth modified its input")
		}
		slices.Sort(orig)
		if got != orig[nth] {
			t.Fatalf("selectNth(n=%d, nth=%d, span=%d) = %d, want %d", n, nth, span, got, orig[nth])
		}
	}
}

// TestJFBAgainstENS compares the divide and conquer with ENS-BS at sizes too
// large for the brute-force reference, sequential and on goroutines.
func TestJFBAgainstENS(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 1500
	}
	rng := rand.New(rand.NewPCG(15, 16))
	gens := []struct {
		name string
		gen  func(m int) []float64
	}{
		{"uniform", func(m int) []float64 { return uniformPoints(n, m) }},
		{"fewfronts", func(m int) []float64 { return fewFrontPoints(n, m) }},
		{"dups", func(m int) []float64 { return dupPoints(n, m) }},
		{"grid", func(m int) []float64 {
			p := make([]float64, n*m)
			for i := range p {
				p[i] = float64(rng.IntN(6))
			}
			return p
		}},
		{"chain", func(m int) []float64 { // many fronts
			p := make([]float64, n*m)
			for i := range n {
				base := rng.Float64() * 100
				for k := range m {
					p[i*m+k] = base + rng.Float64()
				}
			}
			return p
		}},
		{"mixed", func(m int) []float64 { p, _ := randomPoints(rng, n, m); return p }},
	}
	var r Ranker
	// The divide and conquer even for three objectives, on two goroutines.
	noFronts3 := defaultJFB
	noFronts3.fronts3, noFronts3.workers = 0, 2
	for _, m := range []int{3, 4, 5} {
		for _, g := range gens {
			points := g.gen(m)
			want := make([]int, n)
			wf := r.rankGeneral(want, points, m)
			for _, cfg := range []jfbConfig{
				defaultJFB,
				noFronts3,
				{bruteA: 0, bruteB: 0, stairs: 0},
				{bruteA: 8, bruteB: 64, parMin: 16, parSweep: 64, workers: 2, stairs: 4},
			} {
				got := make([]int, n)
				gf := r.rankJFB(got, points, m, cfg)
				if gf != wf || !slices.Equal(got, want) {
					t.Errorf("m=%d %s cfg=%+v: JFB disagrees with ENS-BS (%d vs %d fronts)", m, g.name, cfg, gf, wf)
				}
			}
			got := make([]int, n)
			if gf := Ranks(got, points, m); gf != wf || !slices.Equal(got, want) {
				t.Errorf("m=%d %s: Ranks disagrees with ENS-BS", m, g.name)
			}
		}
	}
}

// TestJFBDeterministic runs the parallel divide and conquer repeatedly on
// goroutines with small thresholds.
func TestJFBDeterministic(t *testing.T) {
	n, m := 20000, 4
	if testing.Short() {
		n = 4000
	}
	points := fewFrontPoints(n, m)
	var r Ranker
	want := make([]int, n)
	r.rankJFB(want, points, m, jfbConfig{bruteA: 32, bruteB: 1024, stairs: 16})
	for w := 2; w <= 4; w++ {
		got := make([]int, n)
		r.rankJFB(got, points, m, jfbConfig{bruteA: 8, bruteB: 64, parMin: 64, parSweep: 256, workers: w, stairs: 16})
		if !slices.Equal(got, want) {
			t.Fatalf("workers=%d: ranks differ from the sequential run", w)
		}
	}
}

// TestJFBWideRanges covers what only happens with more than 2^16 distinct
// values on an objective (several rounds of selectNth over the union of
// helperB's sets, 3-level staircases), against ENS-BS. Uniform data is the
// one where a wrong split shows (on correlated data it hardly matters).
func TestJFBWideRanges(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	const n, m = 70000, 4
	points := uniformPoints(n, m)
	var r Ranker
	want := make([]int, n)
	wf := r.rankGeneral(want, points, m)
	for _, cfg := range []jfbConfig{defaultJFB, {bruteA: 4, bruteB: 16, parMin: 1024, parSweep: 4096, workers: 2, stairs: 0}} {
		got := make([]int, n)
		if gf := r.rankJFB(got, points, m, cfg); gf != wf || !slices.Equal(got, want) {
			t.Errorf("cfg=%+v: JFB disagrees with ENS-BS (%d vs %d fronts)", cfg, gf, wf)
		}
	}
}

// TestJFBLexOrder covers the ways rankJFB puts the points in lexicographic
// order: no ties on the first objective, few, and many, with all the other
// objectives packed in one radix key or (m = 6, 13 bits each) not all.
func TestJFBLexOrder(t *testing.T) {
	const n = 5000
	rng := rand.New(rand.NewPCG(19, 20))
	var r Ranker
	for _, m := range []int{3, 6} {
		for _, firstLevels := range []int{0, 2000, 3} { // 0: continuous
			points := make([]float64, n*m)
			for i := range points {
				points[i] = rng.Float64()
				if i%m == 0 && firstLevels > 0 {
					points[i] = float64(rng.IntN(firstLevels))
				}
			}
			want := make([]int, n)
			wf := r.rankGeneral(want, points, m)
			got := make([]int, n)
			if gf := r.rankJFB(got, points, m, defaultJFB); gf != wf || !slices.Equal(got, want) {
				t.Errorf("m=%d firstLevels=%d: JFB disagrees with ENS-BS (%d vs %d fronts)", m, firstLevels, gf, wf)
			}
		}
	}
	// m = 6: half the points continuous (13 bits per objective, so only 4
	// objectives fit in the key), half sharing their first 5 objectives with
	// one of 20 rows: runs of equal keys ordered on objectives 4 and 5.
	const m = 6
	rows := make([]float64, 20*m)
	for i := range rows {
		rows[i] = rng.Float64()
	}
	points := make([]float64, n*m)
	for i := range n {
		p := points[i*m : (i+1)*m]
		for k := range p {
			p[k] = rng.Float64()
		}
		if i%2 == 0 {
			copy(p[:5], rows[rng.IntN(20)*m:])
		}
	}
	want := make([]int, n)
	wf := r.rankGeneral(want, points, m)
	got := make([]int, n)
	if gf := r.rankJFB(got, points, m, defaultJFB); gf != wf || !slices.Equal(got, want) {
		t.Errorf("m=6 shared rows: JFB disagrees with ENS-BS (%d vs %d fronts)", gf, wf)
	}
}

// TestStaircaseSearches checks the branch-free binary searches of the
// staircases against sort.Search, on ascending arrays with repeats, for
// every length up to a few blocks and values around every element.
func TestStaircaseSearches(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for n := range 200 {
		a := make([]int32, n)
		blk := make([]stair, n)
		for i := range a {
			if i > 0 {
				a[i] = a[i-1] + int32(rng.IntN(3)) // repeats and gaps
			}
			blk[i] = stair{y: a[i], z: -a[i]}
		}
		for v := int32(-1); n == 0 && v <= 1 || n > 0 && v <= a[n-1]+1; v++ {
			if got, want := lastAtMost(a, v), sort.Search(n, func(i int) bool { return a[i] > v })-1; got != want {
				t.Fatalf("lastAtMost(%v, %d) = %d, want %d", a, v, got, want)
			}
			if got, want := firstStairAtLeast(blk, v), sort.Search(n, func(i int) bool { return a[i] >= v }); got != want {
				t.Fatalf("firstStairAtLeast(%v, %d) = %d, want %d", a, v, got, want)
			}
		}
	}
}
