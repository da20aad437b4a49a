package pareto

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gridVolume is the reference: it cuts space along every coordinate of the
// points and of ref, and adds up the cells of that grid inside at least one
// box [ref, p] of a point strictly better than ref everywhere. O(n^(m+1)).
func gridVolume(points []float64, ref []float64) float64 {
	m := len(ref)
	n := len(points) / m
	var in [][]float64
	for i := range n {
		p := points[i*m : (i+1)*m]
		ok := true
		for k := range m {
			ok = ok && p[k] > ref[k]
		}
		if ok {
			in = append(in, p)
		}
	}
	cuts := make([][]float64, m)
	for k := range m {
		cuts[k] = []float64{ref[k]}
		for _, p := range in {
			cuts[k] = append(cuts[k], p[k])
		}
		slices.Sort(cuts[k])
		cuts[k] = slices.Compact(cuts[k])
	}
	vol := 0.0
	cell := make([]int, m)
	var walk func(k int)
	walk = func(k int) {
		if k == m {
			// The cell's upper corner is inside a box iff the box reaches it.
			for _, p := range in {
				inside := true
				for j := range m {
					inside = inside && p[j] >= cuts[j][cell[j]+1]
				}
				if inside {
					v := 1.0
					for j := range m {
						v *= cuts[j][cell[j]+1] - cuts[j][cell[j]]
					}
					vol += v
					return
				}
			}
			return
		}
		for c := 0; c+1 < len(cuts[k]); c++ {
			cell[k] = c
			walk(k + 1)
		}
	}
	walk(0)
	return vol
}

// inclusionExclusion is a second reference for tiny n: the sum over
// non-empty subsets of (-1)^(|S|+1) times the volume of the intersection of
// their boxes, whose upper corner is their componentwise minimum.
func inclusionExclusion(points []float64, ref []float64) float64 {
	m := len(ref)
	n := len(points) / m
	total := 0.0
	for mask := 1; mask < 1<<n; mask++ {
		corner := make([]float64, m)
		for k := range corner {
			corner[k] = math.Inf(1)
		}
		bits := 0
		for i := range n {
			if mask&(1<<i) != 0 {
				bits++
				for k := range m {
					corner[k] = min(corner[k], points[i*m+k])
				}
			}
		}
		v := 1.0
		for k := range m {
			v *= max(corner[k]-ref[k], 0)
		}
		if bits%2 == 1 {
			total += v
		} else {
			total -= v
		}
	}
	return total
}

func TestHypervolumeHand(t *testing.T) {
	// Two boxes 2×1 and 1×2 from the origin overlap in 1×1: 3.
	if got := Hypervolume2D([]float64{2, 1, 1, 2}, [2]float64{0, 0}); got != 3 {
		t.Errorf("2D = %v, want 3", got)
	}
	// A dominated point, a copy, a point on the reference line and one
	// below it change nothing.
	if got := Hypervolume2D([]float64{2, 1, 1, 2, 1, 1, 2, 1, 5, 0, -1, 9}, [2]float64{0, 0}); got != 3 {
		t.Errorf("2D with extras = %v, want 3", got)
	}
	if got := Hypervolume2D(nil, [2]float64{0, 0}); got != 0 {
		t.Errorf("2D empty = %v, want 0", got)
	}
	// The boxes (2,1,1), (1,2,1) and (1,1,2) of volume 2 overlap pairwise
	// and all three in the unit cube: 2+2+2 - 1-1-1 + 1 = 4.
	if got := Hypervolume3D([]float64{2, 1, 1, 1, 2, 1, 1, 1, 2}, [3]float64{0, 0, 0}); got != 4 {
		t.Errorf("3D = %v, want 4", got)
	}
	// Reference point away from the origin, negative values.
	if got := Hypervolume3D([]float64{-1, -1, -1}, [3]float64{-3, -2, -4}); got != 2*1*3 {
		t.Errorf("3D shifted = %v, want 6", got)
	}
	if got := Hypervolume3D([]float64{1, 1, 0}, [3]float64{0, 0, 0}); got != 0 {
		t.Errorf("3D on the reference plane = %v, want 0", got)
	}
}

func TestHypervolumeAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for c := range 3000 {
		n := rng.IntN(9)
		if c%3 == 0 {
			n = rng.IntN(40)
		}
		levels := []int{2, 3, 5, 8}[rng.IntN(4)]
		for _, m := range []int{2, 3} {
			points := make([]float64, n*m)
			for i := range points {
				points[i] = float64(rng.IntN(levels) - 1)
			}
			if c%5 == 0 { // non-integer coordinates: compare with a tolerance
				for i := range points {
					points[i] += float64(rng.IntN(3)) / 4
				}
			}
			// Copies.
			for range rng.IntN(3) {
				if n > 1 {
					a, b := rng.IntN(n), rng.IntN(n)
					copy(points[a*m:(a+1)*m], points[b*m:(b+1)*m])
				}
			}
			ref := make([]float64, m)
			for k := range ref {
				ref[k] = float64(rng.IntN(3) - 2)
			}
			want := gridVolume(points, ref)
			var got float64
			if m == 2 {
				got = Hypervolume2D(points, [2]float64{ref[0], ref[1]})
			} else {
				got = Hypervolume3D(points, [3]float64{ref[0], ref[1], ref[2]})
			}
			if got != want {
				t.Fatalf("m=%d ref=%v points=%v: got %v, want %v", m, ref, points, got, want)
			}
			if n <= 10 {
				if ie := inclusionExclusion(points, ref); math.Abs(ie-want) > 1e-9 {
					t.Fatalf("references disagree: inclusion-exclusion %v, grid %v", ie, want)
				}
			}
		}
	}
}

// TestHypervolume3DLarge checks the staircase bookkeeping on larger random
// sets against the grid count, with a hundred and fifty points on few levels
// (many ties) and on a fine grid.
func TestHypervolume3DLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, levels := range []int{4, 16, 0} {
		n := 150
		points := make([]float64, n*3)
		for i := range points {
			if levels == 0 {
				points[i] = math.Round(rng.Float64()*1024) / 1024
			} else {
				points[i] = float64(rng.IntN(levels))
			}
		}
		ref := []float64{-0.5, -0.25, 0}
		want := gridVolume(points, ref)
		got := Hypervolume3D(points, [3]float64{ref[0], ref[1], ref[2]})
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("levels=%d: got %v, want %v", levels, got, want)
		}
		// The frontier alone has the same hypervolume.
		var front []float64
		for _, i := range Frontier(points, 3) {
			front = append(front, points[3*i:3*i+3]...)
		}
		if f := Hypervolume3D(front, [3]float64{ref[0], ref[1], ref[2]}); math.Abs(f-want) > 1e-9*want {
			t.Errorf("levels=%d: frontier only %v, want %v", levels, f, want)
		}
	}
}

func TestHypervolumePanics(t *testing.T) {
	for name, f := range map[string]func(){
		//lint:ignore SA5012 an odd number of coordinates is what the test passes
		"2D": func() { Hypervolume2D([]float64{1, 2, 3}, [2]float64{}) },
		"3D": func() { Hypervolume3D([]float64{1, 2}, [3]float64{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
