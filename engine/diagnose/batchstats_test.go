package diagnose

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
)

func TestBatchStats(t *testing.T) {
	c, ts := twoObjectives(t, [][2]float64{{1, 0}, {0, 1}, {0, 0}, {1, 0}})
	ts = append(ts, enginetest.Traj(0, "h", "x", 2.0, "y", 2.0), enginetest.Traj(0, "h", "x", 2.0, "y", 2.0), enginetest.Traj(0, "h"))
	res := c.Compute(ts, engine.Pareto)
	st := StatsOf(res, &res.Ranking.Batches[0])
	if st.Trajectories != 7 || st.Invalid != 1 || st.Groups != 2 {
		t.Errorf("counts: %+v", st)
	}
	// Group g has fronts {0,1,3} and {2}; group h one front of two copies.
	if st.Fronts != 2 || st.FrontierSize != 5 {
		t.Errorf("fronts %d frontier %d, want 2 and 5", st.Fronts, st.FrontierSize)
	}
	// Group h's scores all equal; group g's do not.
	if st.FracZeroStdGroups != 0.5 {
		t.Errorf("frac_zero_std_groups = %v, want 0.5", st.FracZeroStdGroups)
	}
	// x over valid rows: 1, 0, 0, 1, 2, 2 -> mean 1.
	if st.Objectives[0].Mean != 1 || st.Objectives[0].Count != 6 {
		t.Errorf("x summary %+v", st.Objectives[0].Summary)
	}
	if !near(st.Correlation[0][0], 1) || !near(st.Correlation[0][1], st.Correlation[1][0]) {
		t.Errorf("correlation %v", st.Correlation)
	}
}
