package diagnose

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

func TestProject(t *testing.T) {
	c, ts := twoObjectives(t, [][2]float64{{1, 0}, {0, 1}, {0, 0}, {1, 0}})
	ts = append(ts[:2], append([]scoring.Trajectory{enginetest.Traj(0, "g")}, ts[2:]...)...)
	res := c.Compute(ts, engine.Pareto)
	p := Project(res, 0, 0, 1)
	// In index order; the invalid row (index 2) is hidden.
	wantIdx := []int{0, 1, 3, 4}
	if !slices.Equal(p.Index, wantIdx) {
		t.Fatalf("Index = %v, want %v", p.Index, wantIdx)
	}
	assertFloats(t, "X", p.X, []float64{1, 0, 0, 1})
	assertFloats(t, "Y", p.Y, []float64{0, 1, 0, 0})
	if p.Hidden != 1 {
		t.Errorf("Hidden = %d, want 1", p.Hidden)
	}
	// The axes swapped swap the values.
	q := Project(res, 0, 1, 0)
	assertFloats(t, "X", q.X, p.Y)
	assertFloats(t, "Y", q.Y, p.X)
	// The group filter's dropped rows are counted apart, not invalid.
	filtered := res.Evaluation.Without(func(i int) bool { return i == 0 || i == 1 }).Compute(res.Options)
	f := Project(filtered, 0, 0, 1)
	if !slices.Equal(f.Index, []int{3, 4}) || f.Hidden != 1 || f.Dropped != 2 {
		t.Errorf("filtered: Index %v, Hidden %d, Dropped %d; want [3 4], the invalid 1 hidden and 2 dropped", f.Index, f.Hidden, f.Dropped)
	}
}
