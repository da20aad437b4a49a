package invalid

import (
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestNoValidWithHidden: an objective whose field no record has, hidden
// behind an earlier objective that is null everywhere (a trajectory counts
// its first invalid objective only), is named first with its suggestion;
// an objective whose fields are there adds nothing.
func TestNoValidWithHidden(t *testing.T) {
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "accuracy", nil, "safety", 0.5),
		enginetest.Traj(0, "g", "accuracy", nil, "safety", 0.7),
	}
	for _, c := range []struct {
		exprs []scoring.ObjectiveExpr
		want  string
	}{
		{[]scoring.ObjectiveExpr{{Name: "acc", Expr: "metadata.accuracy", Weight: 1}, {Name: "safe", Expr: "metadata.safty", Weight: 1}},
			"all 2 trajectories are invalid: objective safe = metadata.safty: no trajectory has field safty; did you mean safety?; also objective acc = metadata.accuracy: accuracy is null or absent in every trajectory"},
		{[]scoring.ObjectiveExpr{{Name: "acc", Expr: "metadata.accuracy", Weight: 1}, {Name: "safe", Expr: "metadata.safety", Weight: 1}},
			"all 2 trajectories are invalid: objective acc = metadata.accuracy: accuracy is null or absent in every trajectory"},
	} {
		s, err := scoring.NewParetoScorer(c.exprs)
		if err != nil {
			t.Fatal(err)
		}
		res := engine.Evaluate(s, ts).Compute(engine.DefaultOptions())
		nv := NoValid(res, s, scoring.FieldNames(&ts[0])).(*NoValidError)
		if got := nv.WithHidden(s).Error(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.exprs[1].Expr, got, c.want)
		}
	}
}
