package engine

import (
	"math"
	"testing"
)

func TestCompareRewards(t *testing.T) {
	// One group x = 1, 2, 3 plus an invalid row. absolute (normalize off)
	// gives 1, 2, 3; rloo gives 3/2 (s - 2) = -1.5, 0, 1.5.
	ts := scored(map[string][]float64{"g": {1, 2, 3, math.NaN()}}, "g")
	ev := Evaluate(oneObjective(t, Options{}).Scorer, ts)
	a := ev.Compute(Options{Method: Absolute, Scope: ScopeGroup})
	b := ev.Compute(Options{Method: RLOO, Scope: ScopeGroup})
	c := CompareRewards(a, b, 0)
	if c.N != 3 || !near(c.Spearman, 1) || !near(c.Kendall, 1) {
		t.Errorf("N %d spearman %v kendall %v, want 3, 1, 1", c.N, c.Spearman, c.Kendall)
	}
	if c.PosNeg != 1 || c.NegPos != 0 {
		t.Errorf("sign disagreements %d, %d, want 1, 0", c.PosNeg, c.NegPos)
	}
	// k = ceil(0.3) = 1: the third trajectory tops both.
	if c.TopK != 1 || c.TopShared != 1 || c.TopOverlap != 1 {
		t.Errorf("top overlap %d of %d = %v, want 1 of 1 = 1", c.TopShared, c.TopK, c.TopOverlap)
	}
}

func TestProject(t *testing.T) {
	c, ts := twoObjectives(t, [][2]float64{{1, 0}, {0, 1}, {0, 0}, {1, 0}})
	ts = append(ts, traj(0, "g"))
	res := c.Compute(ts, Pareto)
	p := res.Project(0, 0, 1)
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
