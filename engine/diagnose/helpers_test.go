package diagnose

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// The engine's test helpers that these tests share with it.

func assertFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	testkit.AssertFloats(t, what, got, want)
}

// benchComputer is the pareto computer rewardlens infers for the bench
// data (objectives metadata["o1"]..), or with exprs when given.
func benchComputer(b *testing.B, ts []scoring.Trajectory, method engine.Method, exprs ...string) *engine.RewardComputer {
	b.Helper()
	cfg := engine.Config{Method: string(method)}
	for k, e := range exprs {
		cfg.Objectives = append(cfg.Objectives, engine.ObjectiveConfig{Name: fmt.Sprintf("e%d", k+1), Expr: e})
	}
	c, err := engine.New(cfg.InferObjectives(&ts[0]))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// benchTrajectories returns n trajectories of one batch in groups of 8,
// with m uniform objectives o1..om in their metadata and a short response,
// shaped like the whole-process benchmark's input.
func benchTrajectories(n, m int) []scoring.Trajectory {
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

// lexicographicPriority is the priority the tests that run every method
// give lexicographic: the objectives in their order; nil for the others.
func lexicographicPriority(method engine.Method, objs []engine.ObjectiveConfig) []string {
	if method != engine.Lexicographic {
		return nil
	}
	var names []string
	for _, o := range objs {
		names = append(names, o.Name)
	}
	return names
}

// manyBatches draws n trajectories over batches steps of groups of about
// 8, with ties and some invalid ones (randomTrajectories' values).
func manyBatches(rng *rand.Rand, n, batches int) []scoring.Trajectory {
	ts := randomTrajectories(rng, n)
	for i := range ts {
		ts[i].Batch = int64(rng.IntN(batches))
		ts[i].Group = fmt.Sprint("g", rng.IntN(max(n/8, 1)))
	}
	return ts
}

// near and assertFloats compare floats within testkit.Tol.
func near(a, b float64) bool { return testkit.Near(a, b) }

// newTestComputer returns a pareto computer on x (max), y (min) and z.
func newTestComputer(t testing.TB) *engine.RewardComputer {
	t.Helper()
	c, err := engine.New(engine.Config{Objectives: []engine.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "y", Expr: "y", Goal: "min"}, {Name: "z", Expr: "metadata.z"}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func oneObjective(t *testing.T, opts engine.Options) *engine.RewardComputer {
	t.Helper()
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: "metadata.x", Goal: scoring.Maximize, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return &engine.RewardComputer{Scorer: s, Options: opts}
}

// randomTrajectories draws batches of groups with objectives x, y, z from
// small integer sets (many ties and duplicates); about one in ten lacks z.
func randomTrajectories(rng *rand.Rand, n int) []scoring.Trajectory {
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

// refViolation is the violation of a >= 2, b < 2 and flag, by the
// definition: max(0, 2 - a) + max(0, b - 2) + (flag false: 1), feasible
// when a >= 2 and b < 2 and flag.
func refViolation(tr *scoring.Trajectory) (float64, bool) {
	a, b, flag := tr.Metadata["a"].(float64), tr.Metadata["b"].(float64), tr.Metadata["flag"].(bool)
	v := max(0, 2-a) + max(0, b-2)
	if !flag {
		v++
	}
	return v, a >= 2 && b < 2 && flag
}

// restructureConfig is objectives a (max), b (min), c (max), or with
// sources, math's a and c and code's b and c.
func restructureConfig(sources bool) engine.Config {
	w7, w3, w5 := 0.7, 0.3, 0.5
	a := engine.ObjectiveConfig{Name: "a", Expr: "metadata.a", Weight: &w7}
	b := engine.ObjectiveConfig{Name: "b", Expr: "metadata.b", Goal: "min", Weight: &w3}
	c := engine.ObjectiveConfig{Name: "c", Expr: "metadata.c", Weight: &w5}
	if !sources {
		return engine.Config{Objectives: []engine.ObjectiveConfig{a, b, c}}
	}
	return engine.Config{SourceBy: "src", Sources: map[string]engine.SourceConfig{
		"math": {Objectives: []engine.ObjectiveConfig{a, c}},
		"code": {Objectives: []engine.ObjectiveConfig{b, c}},
	}}
}

// restructureData returns n random trajectories over 3 batches, 4 groups
// and 2 sources, with metadata a, b in 0..3 (ties), a flag, a field x
// missing from some (a constraint on it makes them invalid), an objective
// field c missing from a few (invalid by its objectives) and step_count
// 0..3. Their Format lets DropBody make them lean.
func restructureData(seed uint64, n int) []scoring.Trajectory {
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
		ts[i] = traj(int64(rng.IntN(3)), fmt.Sprintf("g%d", rng.IntN(4)), kv...)
		ts[i].StepCount = int64(rng.IntN(4))
		ts[i].ID, ts[i].Format = fmt.Sprint(i), "jsonl"
	}
	return ts
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	})
}

// scored builds trajectories of one objective x in the given groups of batch 0.
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

// sourceConfig: source a scores x (max, 1) and y (min, 0.5); source b
// scores x (max, weight 2 by its weights table) and z (max, 1).
func sourceConfig(method engine.Method, scope engine.Scope) engine.Config {
	one, half := 1.0, 0.5
	return engine.Config{
		Method: string(method), Scope: string(scope), SourceBy: "src",
		Sources: map[string]engine.SourceConfig{
			"a": {Objectives: []engine.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}, {Name: "y", Expr: "y", Goal: "min", Weight: &half}}},
			"b": {Objectives: []engine.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}, {Name: "z", Expr: "z", Weight: &one}}, Weights: map[string]float64{"x": 2}},
		},
	}
}

// sourceData returns n random trajectories of sources a and b over 2
// batches and 3 groups, with integer x, y, z in 0..3 (ties).
func sourceData(seed uint64, n int) []scoring.Trajectory {
	rng := rand.New(rand.NewPCG(seed, 5))
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = traj(int64(rng.IntN(2)), fmt.Sprintf("g%d", rng.IntN(3)),
			"src", []string{"a", "b"}[rng.IntN(2)], "x", float64(rng.IntN(4)), "y", float64(rng.IntN(4)), "z", float64(rng.IntN(4)))
	}
	return ts
}

// structureComputer builds the computer of objectives a (max, weight 0.7)
// and b (min, 0.3) with cfg's other settings.
func structureComputer(t *testing.T, cfg engine.Config) *engine.RewardComputer {
	t.Helper()
	w7, w3 := 0.7, 0.3
	cfg.Objectives = []engine.ObjectiveConfig{{Name: "a", Expr: "metadata.a", Weight: &w7}, {Name: "b", Expr: "metadata.b", Goal: "min", Weight: &w3}}
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var structureConstraints = []string{"a >= 2", "b < 2", "flag"}

// structureData returns n random trajectories over 2 batches and 3 groups
// with integer metadata a and b in 0..3 (ties) and a boolean flag.
func structureData(seed uint64, n int) []scoring.Trajectory {
	rng := rand.New(rand.NewPCG(seed, 25))
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		ts[i] = traj(int64(rng.IntN(2)), fmt.Sprintf("g%d", rng.IntN(3)),
			"a", float64(rng.IntN(4)), "b", float64(rng.IntN(4)), "flag", rng.IntN(3) > 0)
	}
	return ts
}

// traj builds a trajectory of batch b and group g with metadata kv pairs.
func traj(b int64, g string, kv ...any) scoring.Trajectory {
	md := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		md[kv[i].(string)] = kv[i+1]
	}
	return scoring.Trajectory{Batch: b, Group: g, Done: true, Metadata: md}
}

// twoObjectives builds a pareto computer over metadata x and y (both max,
// weight 0.5) and trajectories of one group with the given points.
func twoObjectives(t *testing.T, points [][2]float64) (*engine.RewardComputer, []scoring.Trajectory) {
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
		ts = append(ts, traj(0, "g", "x", p[0], "y", p[1]))
	}
	return &engine.RewardComputer{Scorer: s}, ts
}

// evaluateWith evaluates ts with c.
func evaluateWith(c *engine.RewardComputer, ts []scoring.Trajectory) *engine.Evaluation {
	e := c.NewEvaluator()
	e.Add(ts)
	return e.Evaluation()
}
