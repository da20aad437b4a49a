package agreement

import (
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// traj builds a trajectory of batch b and group g with the metadata kv
// (name, value, name, value...).
func traj(b int64, g string, kv ...any) scoring.Trajectory {
	md := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		md[kv[i].(string)] = kv[i+1]
	}
	return scoring.Trajectory{Batch: b, Group: g, Done: true, Metadata: md}
}

// oneObjective returns a computer of one objective x, maximised, weight 1.
func oneObjective(t *testing.T, opts engine.Options) *engine.RewardComputer {
	t.Helper()
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: "metadata.x", Goal: scoring.Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return &engine.RewardComputer{Scorer: s, Options: opts}
}

func near(a, b float64) bool { return testkit.Near(a, b) }

func ptr[T any](v T) *T { return &v }

// scored builds trajectories of one objective x in the given groups of
// batch 0, in order; a NaN is a trajectory without x.
func scored(groups map[string][]float64, order ...string) []scoring.Trajectory {
	var ts []scoring.Trajectory
	for _, g := range order {
		for _, x := range groups[g] {
			if math.IsNaN(x) {
				ts = append(ts, traj(0, g))
			} else {
				ts = append(ts, traj(0, g, "x", x))
			}
		}
	}
	return ts
}
