package engine

import (
	"fmt"
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/pareto"
	"github.com/rewardlens/rewardlens/stats"
)

// structureComputer builds the computer of objectives a (max, weight 0.7)
// and b (min, 0.3) with cfg's other settings.
func structureComputer(t *testing.T, cfg setup.Config) *RewardComputer {
	t.Helper()
	w7, w3 := 0.7, 0.3
	cfg.Objectives = []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a", Weight: &w7}, {Name: "b", Expr: "metadata.b", Goal: "min", Weight: &w3}}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// groupsOf returns the indices of ts by (batch, group), or by batch for
// scope batch.
func groupsOf(ts []scoring.Trajectory, scope Scope) [][]int {
	index := map[string]int{}
	var out [][]int
	for i, tr := range ts {
		key := fmt.Sprint(tr.Batch)
		if scope == ScopeGroup {
			key += "/" + tr.Group
		}
		g, ok := index[key]
		if !ok {
			g = len(out)
			index[key] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], i)
	}
	return out
}

// refConstrainedRanks ranks a group by peeling under constrained
// domination, O(n^2) per front.
func refConstrainedRanks(ts []scoring.Trajectory, idx []int) []int {
	type pt struct {
		o    []float64
		feas bool
		v    float64
	}
	pts := make([]pt, len(idx))
	for j, i := range idx {
		v, f := enginetest.RefViolation(&ts[i])
		pts[j] = pt{[]float64{ts[i].Metadata["a"].(float64), -ts[i].Metadata["b"].(float64)}, f, v}
	}
	dominates := func(p, q pt) bool {
		switch {
		case p.feas != q.feas:
			return p.feas
		case !p.feas:
			return p.v < q.v
		}
		return pareto.Dominates(p.o, q.o)
	}
	ranks := make([]int, len(idx))
	for j := range ranks {
		ranks[j] = -1
	}
	for rank, left := 0, len(idx); left > 0; rank++ {
		var front []int
		for j := range pts {
			if ranks[j] >= 0 {
				continue
			}
			dominated := false
			for q := range pts {
				if q != j && ranks[q] < 0 && dominates(pts[q], pts[j]) {
					dominated = true
				}
			}
			if !dominated {
				front = append(front, j)
			}
		}
		for _, j := range front {
			ranks[j] = rank
		}
		left -= len(front)
	}
	return ranks
}

func TestConstrainedAgainstBruteForce(t *testing.T) {
	for seed := range uint64(20) {
		ts := enginetest.StructureData(seed, 60)
		for _, scope := range Scopes {
			c := structureComputer(t, setup.Config{Constraints: enginetest.StructureConstraints, Scope: string(scope)})
			opts := c.Options
			opts.Penalty, opts.Normalize = 0.5, false
			res := c.NewEvaluatorFor(ts).Compute(withMethod(opts, Absolute))
			for _, idx := range groupsOf(ts, scope) {
				want := refConstrainedRanks(ts, idx)
				for j, i := range idx {
					if res.Ranking.Ranks[i] != want[j] {
						t.Fatalf("seed %d scope %s: trajectory %d rank %d, want %d", seed, scope, i, res.Ranking.Ranks[i], want[j])
					}
				}
			}
			for i := range ts {
				v, f := enginetest.RefViolation(&ts[i])
				a, b := ts[i].Metadata["a"].(float64), ts[i].Metadata["b"].(float64)
				score := 0.7*a - 0.3*b - 0.5*v
				if res.Evaluation.Feasible(i) != f || res.Evaluation.ViolationOf(i) != v || !near(res.Scores[i], score) || !near(res.Rewards[i], score) {
					t.Fatalf("seed %d: trajectory %d feasible %v violation %v score %v reward %v, want %v %v %v", seed, i, res.Evaluation.Feasible(i), res.Evaluation.ViolationOf(i), res.Scores[i], res.Rewards[i], f, v, score)
				}
			}
		}
	}
}

// withMethod returns opts with method m.
func withMethod(opts Options, m Method) Options {
	opts.Method = m
	return opts
}

// NewEvaluatorFor evaluates ts with c (a test helper).
func (c *RewardComputer) NewEvaluatorFor(ts []scoring.Trajectory) *Evaluation {
	e := c.NewEvaluator()
	e.Add(ts)
	return e.Evaluation()
}

func TestConstrainedEqualsParetoWhenAllFeasible(t *testing.T) {
	ts := enginetest.StructureData(7, 80)
	plain := structureComputer(t, setup.Config{}).NewEvaluatorFor(ts).Compute(DefaultOptions())
	always := structureComputer(t, setup.Config{Constraints: []string{"a >= 0", "b <= 3"}}).NewEvaluatorFor(ts).Compute(DefaultOptions())
	if !slices.Equal(plain.Ranking.Ranks, always.Ranking.Ranks) || !slices.Equal(plain.Rewards, always.Rewards) {
		t.Fatal("constraints every trajectory meets changed the pareto ranks or rewards")
	}
}

func TestGDPOPenalty(t *testing.T) {
	// gdpo: per group g_k = (o'_k - mean) / (sample std + eps), R = sum_k
	// w_k g_k - lambda v, then (R - mean) / (sample std + eps) over the
	// batch, by hand over the random data.
	ts := enginetest.StructureData(3, 50)
	c := structureComputer(t, setup.Config{Constraints: enginetest.StructureConstraints})
	opts := withMethod(c.Options, GDPO)
	opts.Penalty = 2
	res := c.NewEvaluatorFor(ts).Compute(opts)
	eps := DefaultEpsilon
	r := make([]float64, len(ts))
	for _, idx := range groupsOf(ts, ScopeGroup) {
		if len(idx) < 2 {
			continue
		}
		for k, name := range []string{"a", "b"} {
			x := make([]float64, len(idx))
			for j, i := range idx {
				x[j] = ts[i].Metadata[name].(float64)
				if name == "b" {
					x[j] = -x[j]
				}
			}
			mean, std := stats.Mean(x), stats.SampleStd(x)
			for j, i := range idx {
				r[i] += []float64{0.7, 0.3}[k] * (x[j] - mean) / (std + eps)
			}
		}
	}
	for _, batch := range groupsOf(ts, ScopeBatch) {
		x := make([]float64, len(batch))
		for j, i := range batch {
			v, _ := enginetest.RefViolation(&ts[i])
			x[j] = r[i] - 2*v
		}
		mean, std := stats.Mean(x), stats.SampleStd(x)
		for j, i := range batch {
			if want := (x[j] - mean) / (std + eps); !near(res.Rewards[i], want) {
				t.Fatalf("trajectory %d: gdpo reward %v, want %v", i, res.Rewards[i], want)
			}
		}
	}
}

// refLexicographic ranks a group by its tuples, by counting: r = 1 +
// (worse) + (equal - 1) / 2, u = (r - 1) / (n - 1).
func refLexicographic(ts []scoring.Trajectory, idx []int, tolA float64, constrained bool) []float64 {
	key := func(i int) []float64 {
		var k []float64
		if constrained {
			v, f := enginetest.RefViolation(&ts[i])
			if f {
				k = append(k, 1, 0)
			} else {
				k = append(k, 0, -v)
			}
		}
		a := ts[i].Metadata["a"].(float64)
		if tolA > 0 {
			a = math.Floor(a / tolA)
		}
		return append(k, a, -ts[i].Metadata["b"].(float64))
	}
	n := len(idx)
	u := make([]float64, n)
	if n == 1 {
		u[0] = 0.5
		return u
	}
	for j, i := range idx {
		worse, equal := 0, 0
		for _, q := range idx {
			switch c := slices.Compare(key(q), key(i)); {
			case c < 0:
				worse++
			case c == 0:
				equal++
			}
		}
		r := 1 + float64(worse) + float64(equal-1)/2
		u[j] = (r - 1) / float64(n-1)
	}
	return u
}

func TestLexicographicAgainstSorting(t *testing.T) {
	for seed := range uint64(10) {
		ts := enginetest.StructureData(seed, 60)
		for _, tc := range []struct {
			tol         float64
			constraints []string
		}{{0, nil}, {2, nil}, {0, enginetest.StructureConstraints}} {
			cfg := setup.Config{Method: string(Lexicographic), Priority: []string{"a", "b"}, Constraints: tc.constraints}
			if tc.tol > 0 {
				cfg.PriorityTolerance = map[string]float64{"a": tc.tol}
			}
			c := structureComputer(t, cfg)
			opts := c.Options
			opts.Normalize = false
			res := c.NewEvaluatorFor(ts).Compute(opts)
			for _, idx := range groupsOf(ts, ScopeGroup) {
				want := refLexicographic(ts, idx, tc.tol, tc.constraints != nil)
				for j, i := range idx {
					if !near(res.Rewards[i], want[j]) {
						t.Fatalf("seed %d tol %v constraints %v: trajectory %d reward %v, want %v", seed, tc.tol, tc.constraints, i, res.Rewards[i], want[j])
					}
				}
			}
		}
	}
}

func TestLexicographicOnePriorityIsRelative(t *testing.T) {
	ts := enginetest.StructureData(11, 70)
	w := 1.0
	for _, normalize := range []bool{true, false} {
		cfg := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a", Weight: &w}}, Normalize: &normalize}
		rel, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Method, cfg.Priority = string(Lexicographic), []string{"a"}
		lex, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := rel.Compute(ts, Relative).Rewards
		got := lex.Compute(ts, Lexicographic).Rewards
		assertFloats(t, fmt.Sprintf("lexicographic a vs relative (normalize %v)", normalize), got, want)
	}
}

func TestObjectiveNormalizationByHand(t *testing.T) {
	// One group: a = 1, 2, 2, 5 (max), b = 3, 3, 3, 3 (min, constant: 0).
	var ts []scoring.Trajectory
	for _, a := range []float64{1, 2, 2, 5} {
		ts = append(ts, enginetest.Traj(0, "g", "a", a, "b", 3.0, "flag", true))
	}
	for _, tc := range []struct {
		norm ObjectiveNorm
		want []float64 // N(a)
	}{
		{NormNone, []float64{1, 2, 2, 5}},
		{NormMinMax, []float64{0, 0.25, 0.25, 1}},
		{NormZScore, []float64{-1, -1.0 / 3, -1.0 / 3, 5.0 / 3}}, // mean 2.5, population std 1.5
		{NormRank, []float64{0, 0.5, 0.5, 1}},                    // average ranks 1, 2.5, 2.5, 4
	} {
		c := structureComputer(t, setup.Config{NormalizeObjectives: string(tc.norm)})
		opts := withMethod(c.Options, Absolute)
		opts.Normalize = false
		res := c.NewEvaluatorFor(ts).Compute(opts)
		want := make([]float64, 4)
		for j := range want {
			want[j] = 0.7 * tc.want[j]
			if tc.norm == NormNone {
				want[j] -= 0.3 * 3
			}
		}
		assertFloats(t, string(tc.norm)+" scores", res.Scores, want)
		assertFloats(t, string(tc.norm)+" rewards", res.Rewards, want)
	}
	// A minimised objective's term is -N(x): b = 1, 2, 2, 5 with minmax.
	ts = ts[:0]
	for _, b := range []float64{1, 2, 2, 5} {
		ts = append(ts, enginetest.Traj(0, "g", "a", 0.0, "b", b, "flag", true))
	}
	c := structureComputer(t, setup.Config{NormalizeObjectives: string(NormMinMax)})
	res := c.NewEvaluatorFor(ts).Compute(withMethod(c.Options, Absolute))
	assertFloats(t, "minimised minmax scores", res.Scores, []float64{0, -0.075, -0.075, -0.3})
}

func TestObjectiveNormalizationScope(t *testing.T) {
	// minmax within each group vs over the batch, by hand.
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g1", "a", 0.0, "b", 0.0, "flag", true), enginetest.Traj(0, "g1", "a", 2.0, "b", 0.0, "flag", true),
		enginetest.Traj(0, "g2", "a", 2.0, "b", 0.0, "flag", true), enginetest.Traj(0, "g2", "a", 4.0, "b", 0.0, "flag", true),
	}
	c := structureComputer(t, setup.Config{NormalizeObjectives: string(NormMinMax)})
	ev := c.NewEvaluatorFor(ts)
	opts := withMethod(c.Options, Absolute)
	assertFloats(t, "scope group", ev.Compute(opts).Scores, []float64{0, 0.7, 0, 0.7})
	opts.Scope = ScopeBatch
	assertFloats(t, "scope batch", ev.Compute(opts).Scores, []float64{0, 0.35, 0.35, 0.7})
}

func TestGates(t *testing.T) {
	ts := enginetest.StructureData(5, 60)
	plain := structureComputer(t, setup.Config{}).NewEvaluatorFor(ts)
	always := structureComputer(t, setup.Config{Gates: []string{"a: a >= 0", "b: true"}}).NewEvaluatorFor(ts)
	for _, m := range AllMethods() {
		opts := DefaultOptions()
		opts.Method = m
		if m == Lexicographic {
			opts.Priority = []string{"a"}
		}
		p, a := plain.Compute(opts), always.Compute(opts)
		assertFloats(t, string(m)+" scores with an always-open gate", a.Scores, p.Scores)
		assertFloats(t, string(m)+" rewards with an always-open gate", a.Rewards, p.Rewards)
	}
	// b counts only where flag: s = 0.7 a - 0.3 b flag.
	gated := structureComputer(t, setup.Config{Gates: []string{"b: flag"}}).NewEvaluatorFor(ts)
	res := gated.Compute(withMethod(DefaultOptions(), Absolute))
	for i, tr := range ts {
		want := 0.7 * tr.Metadata["a"].(float64)
		if tr.Metadata["flag"].(bool) {
			want -= 0.3 * tr.Metadata["b"].(float64)
		}
		if !near(res.Scores[i], want) {
			t.Fatalf("trajectory %d: gated score %v, want %v", i, res.Scores[i], want)
		}
	}
	if !slices.Equal(res.Ranking.Ranks, plain.Compute(DefaultOptions()).Ranking.Ranks) {
		t.Fatal("a gate changed the pareto ranks: they see the objectives as they are")
	}
}

func TestAllInfeasibleWarns(t *testing.T) {
	ts := enginetest.StructureData(2, 30)
	ev := structureComputer(t, setup.Config{Constraints: []string{"a > 3"}}).NewEvaluatorFor(ts)
	if w := ev.InfeasibleWarning(); !strings.Contains(w, "every one of the 30 valid trajectories breaks a constraint") {
		t.Fatalf("warning %q", w)
	}
	// The ranks go by violation: 3 - a, every trajectory of a = 3 (violation 0, equality) first.
	res := ev.Compute(DefaultOptions())
	for i, tr := range ts {
		for j, other := range ts {
			if tr.Batch == other.Batch && tr.Group == other.Group {
				if (tr.Metadata["a"].(float64) > other.Metadata["a"].(float64)) != (res.Ranking.Ranks[i] < res.Ranking.Ranks[j]) {
					t.Fatalf("trajectories %d and %d: ranks %d and %d do not follow the violation", i, j, res.Ranking.Ranks[i], res.Ranking.Ranks[j])
				}
			}
		}
	}
}

func TestStructureBadInput(t *testing.T) {
	minusOne := -1.0
	for _, tc := range []struct {
		cfg  setup.Config
		want string
	}{
		{setup.Config{Constraints: []string{"a + 1"}}, `constraint "a + 1" is not a boolean`},
		{setup.Config{Constraints: []string{`"text"`}}, `is not a boolean`},
		{setup.Config{Gates: []string{"aa: flag"}}, `gate "aa: flag": no objective "aa"; did you mean a?`},
		{setup.Config{Gates: []string{"flag"}}, `want 'NAME: EXPR'`},
		{setup.Config{Gates: []string{"a: b * 2"}}, `is not a boolean`},
		{setup.Config{Method: string(Lexicographic)}, "method lexicographic needs --priority"},
		{setup.Config{Method: string(Lexicographic), Priority: []string{"bb"}}, `priority: no objective "bb"; did you mean b?`},
		{setup.Config{Method: string(Lexicographic), Priority: []string{"a"}, PriorityTolerance: map[string]float64{"a": -1}}, "must be a positive finite number"},
		{setup.Config{Method: string(Lexicographic), Priority: []string{"a"}, PriorityTolerance: map[string]float64{"b": 1}}, `"b" is not a priority`},
		{setup.Config{NormalizeObjectives: "quantile"}, "unknown objective normalisation"},
		{setup.Config{Penalty: &minusOne}, "penalty -1"},
	} {
		w7, w3 := 0.7, 0.3
		tc.cfg.Objectives = []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a", Weight: &w7}, {Name: "b", Expr: "metadata.b", Goal: "min", Weight: &w3}}
		_, err := New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.cfg, err, tc.want)
		}
	}
	// A constraint of a field that is no boolean when it runs makes the
	// trajectory invalid, saying why.
	c := structureComputer(t, setup.Config{Constraints: []string{"metadata.a"}})
	res := c.Compute([]scoring.Trajectory{enginetest.Traj(0, "g", "a", 1.0, "b", 1.0)}, Pareto)
	if res.Evaluation.Valid[0] || !strings.Contains(res.Evaluation.Causes[0], "constraint metadata.a: not a boolean") {
		t.Fatalf("valid %v, cause %q", res.Evaluation.Valid[0], res.Evaluation.Causes[0])
	}
}

func TestStructureAppendRecompute(t *testing.T) {
	// Following a run: the evaluation appended to, recomputed, equals the
	// one computed from scratch, constraints, gates and normalisation
	// included.
	ts := enginetest.StructureData(13, 90)
	c := structureComputer(t, setup.Config{Constraints: enginetest.StructureConstraints, Gates: []string{"b: flag"}, NormalizeObjectives: string(NormZScore)})
	for _, m := range []Method{Absolute, GDPO, Pareto} {
		opts := withMethod(c.Options, m)
		ev := Evaluate(c.Scorer, ts[:50])
		res := ev.Compute(opts)
		next := ev.Append(c.Scorer, ts[50:]).Recompute(res)
		want := Evaluate(c.Scorer, ts).Compute(opts)
		assertFloats(t, string(m)+" rewards", next.Rewards, want.Rewards)
		assertFloats(t, string(m)+" scores", next.Scores, want.Scores)
		assertFloats(t, string(m)+" violations", next.Evaluation.Violation, want.Evaluation.Violation)
		if !slices.Equal(next.Ranking.Ranks, want.Ranking.Ranks) || !slices.Equal(next.Evaluation.GateShut, want.Evaluation.GateShut) {
			t.Fatalf("%s: ranks or gates differ after Append", m)
		}
		kept := ev.Append(c.Scorer, ts[50:]).Filter(func(i int) bool { return i%2 == 0 })
		var even []scoring.Trajectory
		for i := 0; i < len(ts); i += 2 {
			even = append(even, ts[i])
		}
		assertFloats(t, string(m)+" filtered rewards", kept.Compute(opts).Rewards, Evaluate(c.Scorer, even).Compute(opts).Rewards)
	}
}

func TestConstraintBudget(t *testing.T) {
	// A constraint goes through the expression sandbox: one that would
	// build a gigabyte is over budget, the trajectory invalid saying so.
	c := structureComputer(t, setup.Config{Constraints: []string{`len(repeat(repeat("x", 100000), 100000)) > 0`}})
	res := c.Compute([]scoring.Trajectory{enginetest.Traj(0, "g", "a", 1.0, "b", 1.0, "flag", true)}, Pareto)
	if res.Evaluation.Valid[0] || !strings.Contains(res.Evaluation.Causes[0], "over the expression's budget") {
		t.Fatalf("valid %v, cause %q", res.Evaluation.Valid[0], res.Evaluation.Causes[0])
	}
}
