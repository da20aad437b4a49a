package follow

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestPartialScopeBatch: a complete last step one row shorter
// than the one before, in a file written before following began, is not
// partial: most of its groups are whole, under scope batch too
// (diagnose.GroupSummaries gives the groups of scope group whatever the
// scope: the batch is not taken for one short group).
func TestPartialScopeBatch(t *testing.T) {
	var ts []scoring.Trajectory
	for i := range 12 + 11 {
		step := int64(i / 12)
		ts = append(ts, scoring.Trajectory{ID: fmt.Sprint(i), Batch: step, Group: fmt.Sprint("g", step, "-", i%12/4), Done: true, Metadata: map[string]any{"a": float64(i % 3)}})
	}
	c, err := engine.New(setup.Config{Method: string(engine.GRPO), Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	ev := engine.Evaluate(c.Scorer, ts)
	for _, scope := range []engine.Scope{engine.ScopeGroup, engine.ScopeBatch} {
		o := c.Options
		o.Scope = scope
		if why := Partial(ev.Compute(o), 1, false); why != "" {
			t.Errorf("scope %s: the last step, of groups of 4, 4 and 3, called partial: %s", scope, why)
		}
	}
}
