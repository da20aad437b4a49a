package diagnose

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
)

func TestProject(t *testing.T) {
	c, ts := twoObjectives(t, [][2]float64{{1, 0}, {0, 1}, {0, 0}, {1, 0}})
	ts = append(ts, enginetest.Traj(0, "g"))
	res := c.Compute(ts, engine.Pareto)
	p := Project(res, 0, 0, 1)
	// Sorted by x, then y, then index; the invalid row is hidden.
	wantIdx := []int{2, 1, 0, 3}
	for j, i := range wantIdx {
		if p.Index[j] != i {
			t.Fatalf("Index = %v, want %v", p.Index, wantIdx)
		}
	}
	assertFloats(t, "X", p.X, []float64{0, 0, 1, 1})
	assertFloats(t, "Y", p.Y, []float64{0, 1, 0, 0})
	if p.Hidden != 1 {
		t.Errorf("Hidden = %d, want 1", p.Hidden)
	}
}

// Project's order is the comparison sort's by (X, Y, index), on 20,000
// points of a few hundred X values by a few dozen Y values: many short
// runs tied in X, and ties in both, which keep the index's order.
func TestProjectOrderWithManyTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	points := make([][2]float64, 20_000)
	for i := range points {
		points[i] = [2]float64{float64(rng.IntN(300)), float64(rng.IntN(40)) / 8}
	}
	c, ts := twoObjectives(t, points)
	p := Project(c.Compute(ts, engine.Pareto), 0, 0, 1)
	want := make([]int, len(points))
	for i := range want {
		want[i] = i
	}
	slices.SortFunc(want, func(i, j int) int {
		return cmp.Or(cmp.Compare(points[i][0], points[j][0]), cmp.Compare(points[i][1], points[j][1]), cmp.Compare(i, j))
	})
	if !slices.Equal(p.Index, want) {
		t.Fatal("Index is not in the order of (X, Y, index)")
	}
}
