package engine

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// benchComputer is the pareto computer rewardlens infers for the bench
// data (objectives metadata["o1"]..), or with exprs when given.
func benchComputer(b *testing.B, ts []scoring.Trajectory, method Method, exprs ...string) *RewardComputer {
	b.Helper()
	cfg := setup.Config{Method: string(method)}
	for k, e := range exprs {
		cfg.Objectives = append(cfg.Objectives, setup.ObjectiveConfig{Name: fmt.Sprintf("e%d", k+1), Expr: e})
	}
	inferred, err := cfg.InferObjectives(&ts[0])
	if err != nil {
		b.Fatal(err)
	}
	c, err := New(inferred)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkEvaluate1M evaluates 1M trajectories on two objectives read
// from metadata (the inferred metadata["KEY"] form).
func BenchmarkEvaluate1M(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 2)
	c := benchComputer(b, ts, Pareto)
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(c.Scorer, ts)
	}
}

// BenchmarkEvaluate1MExpr is BenchmarkEvaluate1M with expressions that
// need expr's VM.
func BenchmarkEvaluate1MExpr(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 2)
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
	ts := enginetest.BenchTrajectories(1_000_000, 2)
	c := benchComputer(b, ts, Pareto)
	b.ReportAllocs()
	for b.Loop() {
		c.Compute(ts, Pareto)
	}
}

// BenchmarkRankCompute1M2D is BenchmarkCompute1M2D without the evaluation:
// partition, ranking and rewards.
func BenchmarkRankCompute1M2D(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 2)
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
	ts := enginetest.BenchTrajectories(100_000, 3)
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

// BenchmarkEvaluate1MFailing is BenchmarkEvaluate1MExpr with nine rows in
// ten failing the second expression alike (arithmetic on a text value):
// one cause, whose reason only the first row's message gives.
func BenchmarkEvaluate1MFailing(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 2)
	for i := range ts {
		if i%10 != 0 {
			ts[i].Metadata["o2"] = "not scored: the judge timed out"
		}
	}
	c := benchComputer(b, ts, Pareto, "o1 * 2 - step_count / 16", "metadata.o2 * 2 + 1")
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(c.Scorer, ts)
	}
}

// BenchmarkSwitch1M is the engine's part of a method switch on the
// dashboard at scale: 1M trajectories of one batch in groups of 8, two
// objectives, the ranking cached; each sub-benchmark computes one of the
// methods the dashboard's script cycles through.
func BenchmarkSwitch1M(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 2)
	c := benchComputer(b, ts, Pareto)
	ev := Evaluate(c.Scorer, ts)
	ev.Ranking(ScopeGroup)
	for _, m := range testkit.SwitchMethods {
		b.Run(m, func(b *testing.B) {
			opts := c.Options
			opts.Method = Method(m)
			b.ReportAllocs()
			cpu := testkit.CPUTime()
			for b.Loop() {
				ev.Compute(opts)
			}
			testkit.ReportCPU(b, testkit.CPUTime()-cpu)
		})
	}
}

// wideSourceConfig has sources a and b of six objectives each (their
// fields x, y and z read twice, x and y under names both share), eight
// columns in all: a source's row is wider than a small one on the stack.
func wideSourceConfig() setup.Config {
	objs := func(names ...string) []setup.ObjectiveConfig {
		var out []setup.ObjectiveConfig
		for k, name := range names {
			out = append(out, setup.ObjectiveConfig{Name: name, Expr: []string{"x", "y", "z"}[k%3]})
		}
		return out
	}
	return setup.Config{
		Method: string(Pareto), SourceBy: "src",
		Sources: map[string]setup.SourceConfig{
			"a": {Objectives: objs("x", "y", "a1", "a2", "a3", "a4")},
			"b": {Objectives: objs("x", "y", "b1", "b2", "b3", "b4")},
		},
	}
}

// BenchmarkEvaluateSources100k evaluates 100k trajectories of two sources
// (sourceConfig's two objectives a source, wideSourceConfig's six), with
// and without nansum, which also marks the absent columns.
func BenchmarkEvaluateSources100k(b *testing.B) {
	ts := enginetest.SourceData(1, 100_000)
	for _, tc := range []struct {
		name string
		cfg  setup.Config
	}{
		{"objectives=2", sourceConfig(Pareto, ScopeGroup)},
		{"objectives=6", wideSourceConfig()},
	} {
		for _, nanSum := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/nansum=%v", tc.name, nanSum), func(b *testing.B) {
				cfg := tc.cfg
				cfg.NanSum = &nanSum
				c, err := New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					Evaluate(c.Scorer, ts)
				}
			})
		}
	}
}

// BenchmarkEvaluate1MGroupRuns evaluates BenchmarkEvaluate1M's
// trajectories (125k groups of 8) grouped by value and, as TRL's layout
// groups them, by runs cut every 8 rows (GroupRuns), each through the
// computer's Evaluator: the cost of the runs' bookkeeping is their ratio.
func BenchmarkEvaluate1MGroupRuns(b *testing.B) {
	ts := enginetest.BenchTrajectories(1_000_000, 2)
	c := benchComputer(b, ts, Pareto)
	for _, runs := range []int{0, 8} {
		b.Run(fmt.Sprintf("runs=%d", runs), func(b *testing.B) {
			c.GroupRuns = runs
			b.ReportAllocs()
			for b.Loop() {
				e := c.NewEvaluator()
				e.Reserve(len(ts))
				e.Add(ts)
			}
		})
	}
}
