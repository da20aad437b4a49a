package pareto

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gridRuns returns n points of one x key whose y values are drawn from
// values: a run as rank2 meets it after its sort by x.
func gridRuns(rng *rand.Rand, n int, values []float64) []keyYIdx {
	a := make([]keyYIdx, n)
	for j := range a {
		a[j] = keyYIdx{k: 77, y: values[rng.IntN(len(values))], i: int32(j)}
	}
	return a
}

// TestSortRunByY checks the run sort, on both sides of its radix threshold,
// against a comparison sort of y descending: signed zeros are one value,
// every other distinct y keeps its order, and k is put back.
func TestSortRunByY(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	grid := make([]float64, 0, 1000)
	for v := range 1000 {
		grid = append(grid, float64(v)/1000)
	}
	kinds := map[string][]float64{
		"grid 1/1000": grid,
		"signed":      {-1e300, -2.5, -1, math.Copysign(0, -1), 0, 5e-324, 1, 3.25, 1e300},
		"one value":   {0.5},
		"two values":  {-0.25, 0.75},
	}
	for name, values := range kinds {
		for _, n := range []int{2, 3, runRadixMin - 1, runRadixMin, runRadixMin + 1, 1000, 5000} {
			a := gridRuns(rng, n, values)
			want := slices.Clone(a)
			slices.SortStableFunc(want, func(p, q keyYIdx) int {
				switch {
				case p.y > q.y:
					return -1
				case p.y < q.y:
					return 1
				}
				return 0
			})
			sortRunByY(a, make([]keyYIdx, n))
			for j := range a {
				if a[j].k != 77 {
					t.Fatalf("%s n=%d: k = %d at %d after the sort, want 77", name, n, a[j].k, j)
				}
				if a[j].y != want[j].y {
					t.Fatalf("%s n=%d: y[%d] = %v, want %v", name, n, j, a[j].y, want[j].y)
				}
			}
			seen := make([]bool, n)
			for _, e := range a {
				seen[e.i] = true
			}
			if slices.Contains(seen, false) {
				t.Fatalf("%s n=%d: the sort lost a point", name, n)
			}
		}
	}
}

// TestRank2LongRunsOnCores ranks, with two objectives, points on a coarse
// grid (runs of equal x of hundreds of points, long enough for the radix
// run sort) and enough of them for the runs to be shared out over
// goroutines, against the general algorithm, which sorts lexicographically
// by comparison.
func TestRank2LongRunsOnCores(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	n := 2 * parallelRunsMin
	points := make([]float64, 2*n)
	for i := range points {
		points[i] = float64(rng.IntN(300)-150) / 100
		if points[i] == 0 && rng.IntN(2) == 0 {
			points[i] = math.Copysign(0, -1)
		}
	}
	var r Ranker
	want := make([]int, n)
	wf := r.rankGeneral(want, points, 2)
	for _, workers := range []int{1, 2, 3} {
		got := make([]int, n)
		gf := r.rank2With(got, points, workers)
		if gf != wf || !slices.Equal(got, want) {
			t.Errorf("%d workers: rank2 gives %d fronts, rankGeneral %d, or the ranks differ", workers, gf, wf)
		}
	}
}
