package chart

import "math"

// Grid is a chart's plotting area: X's cells across, Y's up.
type Grid struct{ X, Y Axis }

// Cell returns the column and row (row 0 at the bottom) of (x, y), and
// whether they lie in the grid.
func (g Grid) Cell(x, y float64) (col, row int, ok bool) {
	if col, row, ok := g.inside(x, y); ok {
		return col, row, true
	}
	return g.X.Cell(x), g.Y.Cell(y), false
}

// inside is Cell for the points in the grid: a position below 0 (or NaN)
// has its cell below 0, one from Cells up its cell from Cells up, so a
// point lies in the grid iff both its positions are in [0, Cells), and
// then its cells are their integer parts.
func (g *Grid) inside(x, y float64) (col, row int, ok bool) {
	px, py := (x-g.X.Min)/g.X.Unit+0.5, (y-g.Y.Min)/g.Y.Unit+0.5 // Axis.Pos, without copying the axes
	if !(px >= 0 && px < float64(g.X.Cells) && py >= 0 && py < float64(g.Y.Cells)) {
		return 0, 0, false
	}
	return int(px), int(py), true
}

// Density counts, for each cell of g, the points (xs[j], ys[j]) that fall
// in it and, among them, the lowest class[j]: dst[row×X.Cells + col] and
// best[row×X.Cells + col]. A point whose keep[j] is false, or that falls
// outside g, is not counted; a nil keep keeps every point; a nil class
// leaves best alone. dst and best must have X.Cells × Y.Cells elements;
// Density zeroes dst and sets best to math.MaxInt32 first. It runs in
// O(len(xs)) and allocates nothing. It panics if xs and ys differ in
// length.
func Density(dst, best []int32, g Grid, xs, ys []float64, class []int32, keep []bool) {
	clear(dst)
	for i := range best {
		best[i] = math.MaxInt32
	}
	AddDensity(dst, best, g, xs, ys, class, keep)
}

// AddDensity is Density without the zeroing: it adds the points to the
// counts in dst and lowers best to their classes, so that parts of the
// points counted apart (on several goroutines) add up.
func AddDensity(dst, best []int32, g Grid, xs, ys []float64, class []int32, keep []bool) {
	if len(xs) != len(ys) {
		panic("chart: AddDensity: xs and ys differ in length")
	}
	ys = ys[:len(xs)]
	cols := g.X.Cells
	for j, x := range xs {
		if keep != nil && !keep[j] {
			continue
		}
		col, row, ok := g.inside(x, ys[j])
		if !ok {
			continue
		}
		c := row*cols + col
		dst[c]++
		if class != nil && class[j] < best[c] {
			best[c] = class[j]
		}
	}
}

// Level returns which of levels shades a cell of count points, in a grid
// whose fullest cell holds most: 0 for one point, levels−1 for most, the
// ones between by log(count) / log(most), so that a cell of 10 points
// stands out among cells of 1 as one of 1000 does among cells of 100.
// count < 1 returns −1.
func Level(count, most int32, levels int) int {
	if count < 1 {
		return -1
	}
	if count == 1 || most <= 1 {
		return 0
	}
	f := math.Log(float64(count)) / math.Log(float64(most))
	return min(1+int(f*float64(levels-1)), levels-1)
}

// Nearest returns the j whose point (xs[j], ys[j]) lies nearest (x, y) on
// screen, where a unit of x spans sx columns and a unit of y sy columns
// (a row is about two columns tall): it minimises
// ((xs[j] − x)·sx)² + ((ys[j] − y)·sy)² over the j with keep[j] (every j
// when keep is nil). It returns −1 when there is no such j. O(len(xs)).
func Nearest(xs, ys []float64, keep []bool, x, y, sx, sy float64) int {
	best, bestD := -1, math.Inf(1)
	for j, px := range xs {
		if keep != nil && !keep[j] {
			continue
		}
		dx, dy := (px-x)*sx, (ys[j]-y)*sy
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD = j, d
		}
	}
	return best
}

// Buckets sorts 0, 1, …, len(class)−1 by class, stably: on return the j
// of class c are order[start[c]:start[c+1]], in ascending order. class
// values must lie in [0, k); start must have k+1 elements and order
// len(class). A counting sort: O(len(class) + k), no allocation.
func Buckets(order, start, class []int32, k int) {
	clear(start)
	for _, c := range class {
		start[c+1]++
	}
	for c := range k {
		start[c+1] += start[c]
	}
	// start[c] walks bucket c while it fills, ending on start[c+1]'s
	// value; a shift by one then restores the starts.
	for j, c := range class {
		order[start[c]] = int32(j)
		start[c]++
	}
	copy(start[1:], start[:k])
	start[0] = 0
}

// DensityCounter is Density counted on several goroutines, each adding
// its points to counts of its own (Add), added up at the end (Sum): a
// pass over a million points on every core, or fused into a pass of the
// caller's over them.
type DensityCounter struct {
	grid         Grid
	counts, best [][]int32
}

// NewDensityCounter returns the counts of workers goroutines on grid g,
// as Density starts them.
func NewDensityCounter(g Grid, workers int) *DensityCounter {
	cells := g.X.Cells * g.Y.Cells
	d := &DensityCounter{grid: g, counts: make([][]int32, workers), best: make([][]int32, workers)}
	for w := range workers {
		d.counts[w], d.best[w] = make([]int32, cells), make([]int32, cells)
		for c := range d.best[w] {
			d.best[w][c] = math.MaxInt32
		}
	}
	return d
}

// Add counts the points (xs[j], ys[j]) of classes class (nil for none) on
// goroutine w's counts (AddDensity). Goroutines add on their own w only.
func (d *DensityCounter) Add(w int, xs, ys []float64, class []int32) {
	AddDensity(d.counts[w], d.best[w], d.grid, xs, ys, class, nil)
}

// Sum returns the counts and best classes of every point added, as
// Density gives them, once every goroutine is done; they reuse the first
// goroutine's arrays.
func (d *DensityCounter) Sum() (counts, best []int32) {
	for w := 1; w < len(d.counts); w++ {
		for c, n := range d.counts[w] {
			d.counts[0][c] += n
			d.best[0][c] = min(d.best[0][c], d.best[w][c])
		}
	}
	return d.counts[0], d.best[0]
}
