package diagnose

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// Copies of the engine's test helpers that build configs and computers:
// they need engine's types, and package engine's internal tests cannot
// import a package that imports engine. The trajectories and scorers come
// from enginetest.

func assertFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	testkit.AssertFloats(t, what, got, want)
}

// benchComputer is the pareto computer rewardlens infers for the bench
// data (objectives metadata["o1"]..), or with exprs when given.
func benchComputer(b *testing.B, ts []scoring.Trajectory, method engine.Method, exprs ...string) *engine.RewardComputer {
	b.Helper()
	cfg := setup.Config{Method: string(method)}
	for k, e := range exprs {
		cfg.Objectives = append(cfg.Objectives, setup.ObjectiveConfig{Name: fmt.Sprintf("e%d", k+1), Expr: e})
	}
	inferred, err := cfg.InferObjectives(&ts[0])
	if err != nil {
		b.Fatal(err)
	}
	c, err := engine.New(inferred)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// lexicographicPriority is the priority the tests that run every method
// give lexicographic: the objectives in their order; nil for the others.
func lexicographicPriority(method engine.Method, objs []setup.ObjectiveConfig) []string {
	if method != engine.Lexicographic {
		return nil
	}
	var names []string
	for _, o := range objs {
		names = append(names, o.Name)
	}
	return names
}

// near and assertFloats compare floats within testkit.Tol.
func near(a, b float64) bool { return testkit.Near(a, b) }

// newTestComputer returns a pareto computer on x (max), y (min) and z.
func newTestComputer(t testing.TB) *engine.RewardComputer {
	t.Helper()
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "y", Expr: "y", Goal: "min"}, {Name: "z", Expr: "metadata.z"}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// oneObjective returns a computer of enginetest.OneObjectiveScorer (x,
// maximised) with opts.
func oneObjective(t *testing.T, opts engine.Options) *engine.RewardComputer {
	t.Helper()
	return &engine.RewardComputer{Scorer: enginetest.OneObjectiveScorer(t), Options: opts}
}

// restructureConfig is objectives a (max), b (min), c (max), or with
// sources, math's a and c and code's b and c.
func restructureConfig(sources bool) setup.Config {
	w7, w3, w5 := 0.7, 0.3, 0.5
	a := setup.ObjectiveConfig{Name: "a", Expr: "metadata.a", Weight: &w7}
	b := setup.ObjectiveConfig{Name: "b", Expr: "metadata.b", Goal: "min", Weight: &w3}
	c := setup.ObjectiveConfig{Name: "c", Expr: "metadata.c", Weight: &w5}
	if !sources {
		return setup.Config{Objectives: []setup.ObjectiveConfig{a, b, c}}
	}
	return setup.Config{SourceBy: "src", Sources: map[string]setup.SourceConfig{
		"math": {Objectives: []setup.ObjectiveConfig{a, c}},
		"code": {Objectives: []setup.ObjectiveConfig{b, c}},
	}}
}

// sourceConfig: source a scores x (max, 1) and y (min, 0.5); source b
// scores x (max, weight 2 by its weights table) and z (max, 1).
func sourceConfig(method engine.Method, scope engine.Scope) setup.Config {
	one, half := 1.0, 0.5
	return setup.Config{
		Method: string(method), Scope: string(scope), SourceBy: "src",
		Sources: map[string]setup.SourceConfig{
			"a": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}, {Name: "y", Expr: "y", Goal: "min", Weight: &half}}},
			"b": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}, {Name: "z", Expr: "z", Weight: &one}}, Weights: map[string]float64{"x": 2}},
		},
	}
}

// structureComputer builds the computer of objectives a (max, weight 0.7)
// and b (min, 0.3) with cfg's other settings.
func structureComputer(t *testing.T, cfg setup.Config) *engine.RewardComputer {
	t.Helper()
	w7, w3 := 0.7, 0.3
	cfg.Objectives = []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a", Weight: &w7}, {Name: "b", Expr: "metadata.b", Goal: "min", Weight: &w3}}
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// twoObjectives returns a computer of enginetest.TwoObjectives' scorer (x
// and y, both max) and its trajectories of the given points.
func twoObjectives(t *testing.T, points [][2]float64) (*engine.RewardComputer, []scoring.Trajectory) {
	t.Helper()
	s, ts := enginetest.TwoObjectives(t, points)
	return &engine.RewardComputer{Scorer: s}, ts
}

// evaluateWith evaluates ts with c.
func evaluateWith(c *engine.RewardComputer, ts []scoring.Trajectory) *engine.Evaluation {
	e := c.NewEvaluator()
	e.Add(ts)
	return e.Evaluation()
}
