package chart

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDensityCountsEachCell(t *testing.T) {
	g := Grid{X: Fit(0, 9, 10, Options{MinGap: 1}), Y: Fit(0, 4, 5, Options{MinGap: 1})}
	xs := []float64{0, 0, 9, 9, 9, 100}
	ys := []float64{0, 0, 4, 4, 4, 0}
	class := []int32{2, 1, 3, 0, 5, 0}
	dst := make([]int32, 50)
	best := make([]int32, 50)
	Density(dst, best, g, xs, ys, class, []bool{true, true, true, true, false, true})
	c0, r0, _ := g.Cell(0, 0)
	c9, r4, _ := g.Cell(9, 4)
	if got := dst[r0*10+c0]; got != 2 || best[r0*10+c0] != 1 {
		t.Errorf("cell of (0, 0): %d points, best %d; want 2, 1", got, best[r0*10+c0])
	}
	if got := dst[r4*10+c9]; got != 2 || best[r4*10+c9] != 0 {
		t.Errorf("cell of (9, 4): %d points (one of three dropped by keep), best %d; want 2, 0", got, best[r4*10+c9])
	}
	total := int32(0)
	for _, n := range dst {
		total += n
	}
	if total != 4 {
		t.Errorf("%d points counted, want 4 (one dropped, one outside)", total)
	}
}

func TestLevel(t *testing.T) {
	for _, tc := range []struct {
		count, most int32
		want        int
	}{{0, 10, -1}, {1, 1000, 0}, {2, 1000, 1}, {1000, 1000, 3}, {31, 1000, 2}, {5, 5, 3}} {
		if got := Level(tc.count, tc.most, 4); got != tc.want {
			t.Errorf("Level(%d, %d, 4) = %d, want %d", tc.count, tc.most, got, tc.want)
		}
	}
}

// TestNearestMatchesBruteForce checks Nearest against the distances
// computed one by one, with ties resolved to the first point.
func TestNearestMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs, ys := make([]float64, 200), make([]float64, 200)
	keep := make([]bool, 200)
	for j := range xs {
		xs[j], ys[j], keep[j] = float64(rng.IntN(20)), float64(rng.IntN(20)), rng.IntN(3) > 0
	}
	for range 500 {
		x, y := rng.Float64()*20, rng.Float64()*20
		got := Nearest(xs, ys, keep, x, y, 1, 2)
		want, wantD := -1, math.Inf(1)
		for j := range xs {
			if d := math.Hypot(xs[j]-x, 2*(ys[j]-y)); keep[j] && d < wantD {
				want, wantD = j, d
			}
		}
		if got != want {
			t.Fatalf("Nearest(%v, %v) = %d, want %d", x, y, got, want)
		}
	}
	if got := Nearest(xs, ys, make([]bool, 200), 1, 1, 1, 1); got != -1 {
		t.Errorf("Nearest with nothing kept = %d, want -1", got)
	}
}

func TestBucketsIsAStableCountingSort(t *testing.T) {
	class := []int32{2, 0, 2, 1, 0, 2}
	order, start := make([]int32, 6), make([]int32, 4)
	Buckets(order, start, class, 3)
	want := []int32{1, 4, 3, 0, 2, 5}
	wantStart := []int32{0, 2, 3, 6}
	if !slices.Equal(order, want) || !slices.Equal(start, wantStart) {
		t.Errorf("Buckets = %v, %v; want %v, %v", order, start, want, wantStart)
	}
}

// DensityCounter's sum of points added on several goroutines' counts, in
// any split, is Density of them all: random points on a coarse grid (many
// per cell, classes tied), some outside it, split among 1 to 4 workers.
func TestDensityCounterIsDensity(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	g := Grid{X: Fit(0, 1, 12, Options{MinGap: 1}), Y: Fit(0, 1, 7, Options{MinGap: 1})}
	n := 5000
	xs, ys, class := make([]float64, n), make([]float64, n), make([]int32, n)
	for j := range n {
		xs[j], ys[j], class[j] = rng.Float64()*1.2-0.1, rng.Float64()*1.2-0.1, int32(rng.IntN(4))
	}
	cells := g.X.Cells * g.Y.Cells
	want, wantBest := make([]int32, cells), make([]int32, cells)
	Density(want, wantBest, g, xs, ys, class, nil)
	for workers := 1; workers <= 4; workers++ {
		d := NewDensityCounter(g, workers)
		for lo := 0; lo < n; lo += 700 {
			hi := min(lo+700, n)
			d.Add(rng.IntN(workers), xs[lo:hi], ys[lo:hi], class[lo:hi])
		}
		if counts, best := d.Sum(); !slices.Equal(counts, want) || !slices.Equal(best, wantBest) {
			t.Errorf("%d workers: the counts or best classes differ from Density's", workers)
		}
	}
}

// Density counts each point in the cell Grid.Cell gives it, and only
// those Grid.Cell says lie in the grid: points on the cells' edges (a
// half cell from a value shown), just inside and outside the grid's
// ends, NaN, ±Inf and values far off, on axes whose Min is not 0.
func TestDensityCountsWhereCellSays(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	g := Grid{X: Fit(-3.7, 11.2, 37, Options{MinGap: 1}), Y: Fit(0.013, 0.29, 19, Options{MinGap: 1})}
	edges := func(a Axis) []float64 {
		var vs []float64
		for c := -2; c <= a.Cells+2; c++ {
			edge := a.Value(float64(c) - 0.5)
			vs = append(vs, edge, math.Nextafter(edge, math.Inf(-1)), math.Nextafter(edge, math.Inf(1)), a.Value(float64(c)))
		}
		return append(vs, math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, math.MaxFloat64)
	}
	xEdges, yEdges := edges(g.X), edges(g.Y)
	var xs, ys []float64
	var class []int32
	for range 20000 {
		xs = append(xs, xEdges[rng.IntN(len(xEdges))])
		ys = append(ys, yEdges[rng.IntN(len(yEdges))])
		class = append(class, int32(rng.IntN(3)))
	}
	cells := g.X.Cells * g.Y.Cells
	want, wantBest := make([]int32, cells), make([]int32, cells)
	for c := range wantBest {
		wantBest[c] = math.MaxInt32
	}
	for j := range xs {
		// The axes' own cells, not Grid.Cell, which counts by the same
		// inside as Density.
		col, row := g.X.Cell(xs[j]), g.Y.Cell(ys[j])
		if col >= 0 && col < g.X.Cells && row >= 0 && row < g.Y.Cells {
			want[row*g.X.Cells+col]++
			wantBest[row*g.X.Cells+col] = min(wantBest[row*g.X.Cells+col], class[j])
		}
	}
	got, gotBest := make([]int32, cells), make([]int32, cells)
	Density(got, gotBest, g, xs, ys, class, nil)
	if !slices.Equal(got, want) || !slices.Equal(gotBest, wantBest) {
		t.Errorf("Density's counts or best classes differ from those of the axes' cells")
	}
}

// BenchmarkDensity1M counts a million points, spread over their ranges,
// on the Compare tab's grid at 140x45.
func BenchmarkDensity1M(b *testing.B) {
	rng := rand.New(rand.NewPCG(12, 13))
	g := Grid{X: Fit(-2, 2, 96, Options{MinGap: 1}), Y: Fit(-2, 2, 38, Options{MinGap: 1})}
	n := 1_000_000
	xs, ys, class := make([]float64, n), make([]float64, n), make([]int32, n)
	for j := range n {
		xs[j], ys[j], class[j] = rng.NormFloat64()*0.6, rng.NormFloat64()*0.6, int32(rng.IntN(3))
	}
	cells := g.X.Cells * g.Y.Cells
	dst, best := make([]int32, cells), make([]int32, cells)
	for b.Loop() {
		Density(dst, best, g, xs, ys, class, nil)
	}
}
