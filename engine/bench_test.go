package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

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

// benchComputer is the pareto computer rewardlens infers for the bench
// data (objectives metadata["o1"]..), or with exprs when given.
func benchComputer(b *testing.B, ts []scoring.Trajectory, method Method, exprs ...string) *RewardComputer {
	b.Helper()
	cfg := Config{Method: string(method)}
	for k, e := range exprs {
		cfg.Objectives = append(cfg.Objectives, ObjectiveConfig{Name: fmt.Sprintf("e%d", k+1), Expr: e})
	}
	c, err := New(cfg.InferObjectives(&ts[0]))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkEvaluate1M evaluates 1M trajectories on two objectives read
// from metadata (the inferred metadata["KEY"] form).
func BenchmarkEvaluate1M(b *testing.B) {
	ts := benchTrajectories(1_000_000, 2)
	c := benchComputer(b, ts, Pareto)
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(c.Scorer, ts)
	}
}

// BenchmarkEvaluate1MExpr is BenchmarkEvaluate1M with expressions that
// need expr's VM.
func BenchmarkEvaluate1MExpr(b *testing.B) {
	ts := benchTrajectories(1_000_000, 2)
	c := benchComputer(b, ts, Pareto, "o1 * 2 - step_count / 16", "metadata.o2 + (done ? 0 : 1)")
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(c.Scorer, ts)
	}
}

// BenchmarkCompute1M2D is the engine's part of `rewardlens compute` on 1M
// trajectories in 125k groups of 8 with two objectives: evaluation,
// partition, Pareto ranking and crowding, and the pareto method's rewards.
func BenchmarkCompute1M2D(b *testing.B) {
	ts := benchTrajectories(1_000_000, 2)
	c := benchComputer(b, ts, Pareto)
	b.ReportAllocs()
	for b.Loop() {
		c.Compute(ts, Pareto)
	}
}

// BenchmarkRankCompute1M2D is BenchmarkCompute1M2D without the evaluation:
// partition, ranking and rewards.
func BenchmarkRankCompute1M2D(b *testing.B) {
	ts := benchTrajectories(1_000_000, 2)
	c := benchComputer(b, ts, Pareto)
	ev := Evaluate(c.Scorer, ts)
	b.ReportAllocs()
	for b.Loop() {
		ev.rankings = nil
		ev.Compute(c.Options)
	}
}

// BenchmarkRecompute100k is the engine's part of a method switch on the
// dashboard: 100k trajectories of one batch, groups of 8, three
// objectives, the ranking cached; each iteration computes the next method.
func BenchmarkRecompute100k(b *testing.B) {
	ts := benchTrajectories(100_000, 3)
	c := benchComputer(b, ts, Pareto)
	ev := Evaluate(c.Scorer, ts)
	ev.Ranking(ScopeGroup)
	opts := c.Options
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		opts.Method = Methods[i%len(Methods)]
		ev.Compute(opts)
		i++
	}
}
