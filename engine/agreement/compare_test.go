package agreement

import (
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
)

func TestCompareRewards(t *testing.T) {
	// One group x = 1, 2, 3 plus an invalid row. absolute (normalize off)
	// gives 1, 2, 3; rloo gives 3/2 (s - 2) = -1.5, 0, 1.5.
	ts := scored(map[string][]float64{"g": {1, 2, 3, math.NaN()}}, "g")
	ev := engine.Evaluate(oneObjective(t, engine.Options{}).Scorer, ts)
	a := ev.Compute(engine.Options{Method: engine.Absolute, Scope: engine.ScopeGroup})
	b := ev.Compute(engine.Options{Method: engine.RLOO, Scope: engine.ScopeGroup})
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
