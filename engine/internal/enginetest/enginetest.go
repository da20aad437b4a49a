// Package enginetest builds the trajectories and scorers that the tests
// of engine and of the packages above it (engine/diagnose,
// engine/agreement, engine/invalid) share. It imports only engine/scoring,
// so that package engine's internal tests can import it without a cycle;
// helpers that need engine's types (configs, computers) stay beside the
// tests that use them.
package enginetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// Traj builds a trajectory of batch b and group g with the metadata kv
// (name, value, name, value...).
func Traj(b int64, g string, kv ...any) scoring.Trajectory {
	md := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		md[kv[i].(string)] = kv[i+1]
	}
	return scoring.Trajectory{Batch: b, Group: g, Done: true, Metadata: md}
}

// Scored builds trajectories of one objective x in the given groups of
// batch 0, in order; a NaN is a trajectory without x.
func Scored(groups map[string][]float64, order ...string) []scoring.Trajectory {
	var ts []scoring.Trajectory
	for _, g := range order {
		for _, x := range groups[g] {
			if math.IsNaN(x) {
				ts = append(ts, Traj(0, g))
			} else {
				ts = append(ts, Traj(0, g, "x", x))
			}
		}
	}
	return ts
}

// RandomTrajectories draws batches of groups with objectives x, y, z from
// small integer sets (many ties and duplicates); about one in ten lacks z.
func RandomTrajectories(rng *rand.Rand, n int) []scoring.Trajectory {
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		md := map[string]any{"x": float64(rng.IntN(4)), "y": float64(rng.IntN(3) - 1)}
		if rng.IntN(10) > 0 {
			md["z"] = float64(rng.IntN(5)) / 2
		}
		ts[i] = scoring.Trajectory{ID: fmt.Sprint(i), Batch: int64(rng.IntN(3)), Group: fmt.Sprint("g", rng.IntN(4)), Metadata: md}
	}
	return ts
}

// ManyBatches draws n trajectories over batches steps of groups of about
// 8, with ties and some invalid ones (RandomTrajectories' values).
func ManyBatches(rng *rand.Rand, n, batches int) []scoring.Trajectory {
	ts := RandomTrajectories(rng, n)
	for i := range ts {
		ts[i].Batch = int64(rng.IntN(batches))
		ts[i].Group = fmt.Sprint("g", rng.IntN(max(n/8, 1)))
	}
	return ts
}

// BenchTrajectories returns n trajectories of one batch in groups of 8,
// with m uniform objectives o1..om in their metadata and a short response,
// shaped like the whole-process benchmark's input.
func BenchTrajectories(n, m int) []scoring.Trajectory {
	rng := rand.New(rand.NewPCG(1, 2))
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		md := make(map[string]any, m)
		for k := range m {
			md[fmt.Sprintf("o%d", k+1)] = rng.Float64()
		}
		ts[i] = scoring.Trajectory{
			ID:        fmt.Sprintf("t%d", i),
			Group:     fmt.Sprintf("g%d", i/8),
			StepCount: int64(rng.IntN(16)),
			Response:  []byte(fmt.Sprintf("%q", fmt.Sprintf("The answer is %d.", i%97))),
			Done:      true,
			Metadata:  md,
		}
	}
	return ts
}

// RestructureData returns n random trajectories over 3 batches, 4 groups
// and 2 sources, with metadata a, b in 0..3 (ties), a flag, a field x
// missing from some (a constraint on it makes them invalid), an objective
// field c missing from a few (invalid by its objectives) and step_count
// 0..3. Their Format lets DropBody make them lean.
func RestructureData(seed uint64, n int) []scoring.Trajectory {
	rng := rand.New(rand.NewPCG(seed, 25))
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		kv := []any{"a", float64(rng.IntN(4)), "b", float64(rng.IntN(4)), "flag", rng.IntN(3) > 0,
			"src", []string{"math", "code"}[rng.IntN(2)]}
		if rng.IntN(5) > 0 {
			kv = append(kv, "x", float64(rng.IntN(3)))
		}
		if rng.IntN(10) > 0 {
			kv = append(kv, "c", float64(rng.IntN(3)))
		}
		ts[i] = Traj(int64(rng.IntN(3)), fmt.Sprintf("g%d", rng.IntN(4)), kv...)
		ts[i].StepCount = int64(rng.IntN(4))
		ts[i].ID, ts[i].Format = fmt.Sprint(i), "jsonl"
	}
	return ts
}

// SourceData returns n random trajectories of sources a and b over 2
// batches and 3 groups, with integer x, y, z in 0..3 (ties).
func SourceData(seed uint64, n int) []scoring.Trajectory {
	rng := rand.New(rand.NewPCG(seed, 5))
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = Traj(int64(rng.IntN(2)), fmt.Sprintf("g%d", rng.IntN(3)),
			"src", []string{"a", "b"}[rng.IntN(2)], "x", float64(rng.IntN(4)), "y", float64(rng.IntN(4)), "z", float64(rng.IntN(4)))
	}
	return ts
}

// StructureData returns n random trajectories over 2 batches and 3 groups
// with integer metadata a and b in 0..3 (ties) and a boolean flag.
func StructureData(seed uint64, n int) []scoring.Trajectory {
	rng := rand.New(rand.NewPCG(seed, 25))
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = Traj(int64(rng.IntN(2)), fmt.Sprintf("g%d", rng.IntN(3)),
			"a", float64(rng.IntN(4)), "b", float64(rng.IntN(4)), "flag", rng.IntN(3) > 0)
	}
	return ts
}

// StructureConstraints are the constraints RefViolation measures, over
// StructureData's fields.
var StructureConstraints = []string{"a >= 2", "b < 2", "flag"}

// RefViolation is the violation of StructureConstraints (a >= 2, b < 2 and
// flag) by the definition: max(0, 2 - a) + max(0, b - 2) + (flag false: 1),
// feasible when a >= 2 and b < 2 and flag.
func RefViolation(tr *scoring.Trajectory) (float64, bool) {
	a, b, flag := tr.Metadata["a"].(float64), tr.Metadata["b"].(float64), tr.Metadata["flag"].(bool)
	v := max(0, 2-a) + max(0, b-2)
	if !flag {
		v++
	}
	return v, a >= 2 && b < 2 && flag
}

// SameBits reports whether a and b hold the same floats bit for bit, any
// NaN matching any NaN.
func SameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	})
}

// OneObjectiveScorer is the pareto scorer of one objective, metadata x,
// maximised, weight 1.
func OneObjectiveScorer(t testing.TB) *scoring.ParetoScorer {
	t.Helper()
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: "metadata.x", Goal: scoring.Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TwoObjectives returns the pareto scorer over metadata x and y (both max,
// weight 0.5) and trajectories of one group with the given points (x, y).
func TwoObjectives(t testing.TB, points [][2]float64) (*scoring.ParetoScorer, []scoring.Trajectory) {
	t.Helper()
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{
		{Name: "x", Expr: "x", Goal: scoring.Maximize, Weight: 0.5},
		{Name: "y", Expr: "y", Goal: scoring.Maximize, Weight: 0.5},
	})
	if err != nil {
		t.Fatal(err)
	}
	var ts []scoring.Trajectory
	for _, p := range points {
		ts = append(ts, Traj(0, "g", "x", p[0], "y", p[1]))
	}
	return s, ts
}
