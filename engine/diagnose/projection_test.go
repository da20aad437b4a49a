package diagnose

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
)

func TestProject(t *testing.T) {
	c, ts := twoObjectives(t, [][2]float64{{1, 0}, {0, 1}, {0, 0}, {1, 0}})
	ts = append(ts, traj(0, "g"))
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
