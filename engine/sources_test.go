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

// sourceConfig: source a scores x (max, 1) and y (min, 0.5); source b
// scores x (max, weight 2 by its weights table) and z (max, 1).
func sourceConfig(method Method, scope Scope) setup.Config {
	one, half := 1.0, 0.5
	return setup.Config{
		Method: string(method), Scope: string(scope), SourceBy: "src",
		Sources: map[string]setup.SourceConfig{
			"a": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}, {Name: "y", Expr: "y", Goal: "min", Weight: &half}}},
			"b": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}, {Name: "z", Expr: "z", Weight: &one}}, Weights: map[string]float64{"x": 2}},
		},
	}
}

// sourceVector returns trajectory t's oriented objectives and weights
// by its source's definition.
func sourceVector(t *scoring.Trajectory) ([]float64, []float64) {
	x, y, z := t.Metadata["x"].(float64), t.Metadata["y"].(float64), t.Metadata["z"].(float64)
	if t.Metadata["src"] == "a" {
		return []float64{x, -y}, []float64{1, 0.5}
	}
	return []float64{x, z}, []float64{2, 1}
}

// sourceGroups returns the indices of ts by (batch, source, group), or by
// (batch, source) for scope batch.
func sourceGroups(ts []scoring.Trajectory, scope Scope) [][]int {
	index := map[string]int{}
	var out [][]int
	for i, tr := range ts {
		key := fmt.Sprint(tr.Batch, "/", tr.Metadata["src"])
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

func TestSourcesAgainstBruteForce(t *testing.T) {
	for seed := range uint64(10) {
		ts := enginetest.SourceData(seed, 70)
		for _, scope := range Scopes {
			c, err := New(sourceConfig(Relative, scope))
			if err != nil {
				t.Fatal(err)
			}
			opts := c.Options
			res := c.NewEvaluatorFor(ts).Compute(opts)
			for _, idx := range sourceGroups(ts, scope) {
				// Within each group of one source: its own objectives'
				// Pareto ranks and crowding distances, its weighted score,
				// and relative's reward on those scores.
				var points, scores []float64
				for _, i := range idx {
					o, w := sourceVector(&ts[i])
					points = append(points, o...)
					scores = append(scores, w[0]*o[0]+w[1]*o[1])
				}
				ranks := make([]int, len(idx))
				pareto.Ranks(ranks, points, 2)
				crowding := make([]float64, len(idx))
				pareto.Crowding(crowding, points, 2, ranks)
				u := make([]float64, len(idx))
				relative(u, scores, nil)
				stats.ZScores(u, u, nil)
				for j, i := range idx {
					if res.Ranking.Ranks[i] != ranks[j] || !near(res.Scores[i], scores[j]) || !near(res.Rewards[i], u[j]) || !(res.Ranking.Crowding[i] == crowding[j] || near(res.Ranking.Crowding[i], crowding[j])) {
						t.Fatalf("seed %d scope %s trajectory %d (source %s): rank %d score %v reward %v crowding %v, want %d %v %v %v",
							seed, scope, i, res.Evaluation.SourceOf(i), res.Ranking.Ranks[i], res.Scores[i], res.Rewards[i], res.Ranking.Crowding[i], ranks[j], scores[j], u[j], crowding[j])
					}
				}
			}
			// Following a run gives what a computation from scratch gives.
			ev := Evaluate(c.Scorer, ts[:40])
			next := ev.Append(c.Scorer, ts[40:]).Recompute(ev.Compute(opts))
			assertFloats(t, "rewards after Append", next.Rewards, res.Rewards)
			if !slices.Equal(next.Ranking.Ranks, res.Ranking.Ranks) {
				t.Fatal("ranks after Append differ")
			}
		}
	}
}

func TestSourcesBadInput(t *testing.T) {
	one := 1.0
	for _, tc := range []struct {
		cfg  setup.Config
		want string
	}{
		{setup.Config{SourceBy: "src"}, "no [sources.NAME] section"},
		{setup.Config{Sources: map[string]setup.SourceConfig{"a": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}}}}, "sources need the pareto computer and source_by"},
		{setup.Config{SourceBy: "src", Sources: map[string]setup.SourceConfig{
			"a": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}}},
			"b": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Goal: "min"}}},
		}}, "objective x: goal"},
		// A section's own weights name its objectives, as the top level's
		// name theirs.
		{setup.Config{SourceBy: "src", Sources: map[string]setup.SourceConfig{
			"a": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, Weights: map[string]float64{"y": 2}},
		}}, `source a: weight: unknown objective "y" (objectives: x)`},
		{setup.Config{SourceBy: "src", Sources: map[string]setup.SourceConfig{
			"a": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, Weights: map[string]float64{"x": math.NaN()}},
		}}, `source a: weight x: NaN is not a finite number`},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.cfg, err, tc.want)
		}
	}
	// A source without a section and no top-level objectives: invalid,
	// saying why; with top-level objectives, scored by them.
	c, err := New(sourceConfig(Absolute, ScopeGroup))
	if err != nil {
		t.Fatal(err)
	}
	res := c.Compute([]scoring.Trajectory{enginetest.Traj(0, "g", "src", "c", "x", 1.0, "y", 1.0, "z", 1.0), enginetest.Traj(0, "g", "x", 1.0)}, Absolute)
	if res.Evaluation.Valid[0] || !strings.Contains(res.Evaluation.Causes[0], "no [sources.NAME] section") || res.Evaluation.Valid[1] || !strings.Contains(res.Evaluation.Causes[1], "source_by src: missing") {
		t.Fatalf("valid %v, causes %q", res.Evaluation.Valid, res.Evaluation.Causes)
	}
	cfg := sourceConfig(Absolute, ScopeGroup)
	cfg.Objectives = []setup.ObjectiveConfig{{Name: "z", Expr: "z", Weight: &one}}
	c, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res = c.Compute([]scoring.Trajectory{enginetest.Traj(0, "g", "src", "c", "x", 1.0, "y", 1.0, "z", 3.0)}, Absolute)
	if !res.Evaluation.Valid[0] || res.Scores[0] != 3 {
		t.Fatalf("a source of no section, with top-level objectives: valid %v, score %v, want true, 3", res.Evaluation.Valid[0], res.Scores[0])
	}
}

func TestSourcesBatchNormalisation(t *testing.T) {
	// gdpo and grpo --scale batch normalise over the batch's trajectories
	// of one source: by hand, over the random data.
	ts := enginetest.SourceData(8, 80)
	eps := DefaultEpsilon
	for _, method := range []Method{GDPO, GRPO} {
		cfg := sourceConfig(method, ScopeGroup)
		cfg.Scale = string(ScaleBatch)
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res := c.Compute(ts, method)
		r := make([]float64, len(ts))
		if method == GDPO {
			for _, idx := range sourceGroups(ts, ScopeGroup) {
				if len(idx) < 2 {
					continue
				}
				for k := range 2 {
					x := make([]float64, len(idx))
					var w float64
					for j, i := range idx {
						o, ws := sourceVector(&ts[i])
						x[j], w = o[k], ws[k]
					}
					mean, std := stats.Mean(x), stats.SampleStd(x)
					for j, i := range idx {
						r[i] += w * (x[j] - mean) / (std + eps)
					}
				}
			}
		} else {
			for i := range ts {
				o, w := sourceVector(&ts[i])
				r[i] = w[0]*o[0] + w[1]*o[1]
			}
		}
		for _, batch := range sourceGroups(ts, ScopeBatch) {
			x := make([]float64, len(batch))
			for j, i := range batch {
				x[j] = r[i]
			}
			std := stats.SampleStd(x)
			if method == GDPO {
				mean := stats.Mean(x)
				for j, i := range batch {
					if want := (x[j] - mean) / (std + eps); !near(res.Rewards[i], want) {
						t.Fatalf("gdpo: trajectory %d reward %v, want %v", i, res.Rewards[i], want)
					}
				}
				continue
			}
			// grpo, scale batch: (s - the group's mean) / (the source's batch std + eps).
			for _, idx := range sourceGroups(ts, ScopeGroup) {
				if ts[idx[0]].Batch != ts[batch[0]].Batch || ts[idx[0]].Metadata["src"] != ts[batch[0]].Metadata["src"] {
					continue
				}
				s := make([]float64, len(idx))
				for j, i := range idx {
					s[j] = r[i]
				}
				mean := stats.Mean(s)
				for j, i := range idx {
					if want := (s[j] - mean) / (std + eps); !near(res.Rewards[i], want) {
						t.Fatalf("grpo: trajectory %d reward %v, want %v", i, res.Rewards[i], want)
					}
				}
			}
		}
	}
}

// TestObjectiveWeight: with sources, an objective's weight over the batch
// is the one its sources agree on, NaN when they differ (x: 1 in a, 2 in
// b), its source's when one source has it (y, z); without sources, the
// objective's own.
func TestObjectiveWeight(t *testing.T) {
	c, err := New(sourceConfig(Absolute, ScopeGroup))
	if err != nil {
		t.Fatal(err)
	}
	ev := c.NewEvaluatorFor(enginetest.SourceData(1, 20))
	want := map[string]float64{"x": math.NaN(), "y": 0.5, "z": 1}
	for k, o := range ev.Objectives {
		if got := ev.ObjectiveWeight(k, o.Weight); !(got == want[o.Name] || math.IsNaN(got) && math.IsNaN(want[o.Name])) {
			t.Errorf("%s: weight %v, want %v", o.Name, got, want[o.Name])
		}
	}
	cfg := sourceConfig(Absolute, ScopeGroup)
	cfg.Sources["b"] = setup.SourceConfig{Objectives: cfg.Sources["b"].Objectives} // x weighs 1 in both
	if c, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	if ev := c.NewEvaluatorFor(enginetest.SourceData(1, 20)); ev.ObjectiveWeight(0, math.NaN()) != 1 {
		t.Errorf("x weighs 1 in both sources: weight %v, want 1", ev.ObjectiveWeight(0, math.NaN()))
	}
	plain := Evaluate(enginetest.OneObjectiveScorer(t), enginetest.Scored(map[string][]float64{"g": {1, 2}}, "g"))
	if got := plain.ObjectiveWeight(0, 0.25); got != 0.25 {
		t.Errorf("without sources: weight %v, want the objective's 0.25", got)
	}
}

// TestSourcesNanSum: with sources and nansum, a missing objective of the
// trajectory's source counts 0 in its score and is missing (Absent), as
// without sources, not a 0; a trajectory missing every objective of its
// source is invalid and missing them all; another source's column is not
// missing (it is not the trajectory's). Following gives the same.
func TestSourcesNanSum(t *testing.T) {
	cfg := sourceConfig(Absolute, ScopeGroup)
	cfg.NanSum = ptr(true)
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Columns x, y (a's), z (b's).
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "src", "a", "x", 1.0, "y", nil), // score 1
		enginetest.Traj(0, "g", "src", "a"),                     // nothing: invalid
		enginetest.Traj(0, "g", "src", "b", "x", 2.0),           // score 2*2
		enginetest.Traj(0, "g", "src", "b", "x", 1.0, "z", 1.0),
	}
	wantMissing := [][]bool{{false, true, false}, {true, true, false}, {false, false, true}, {false, false, false}}
	check := func(what string, ev *Evaluation) {
		t.Helper()
		for i, want := range wantMissing {
			for k := range want {
				if ev.Missing(i, k) != want[k] {
					t.Errorf("%s: trajectory %d objective %s missing %v, want %v", what, i, ev.Objectives[k].Name, ev.Missing(i, k), want[k])
				}
			}
		}
		if ev.Valid[1] || ev.Causes[1] != "all objectives: missing" {
			t.Errorf("%s: a row without any value: valid %v, cause %q", what, ev.Valid[1], ev.Causes[1])
		}
	}
	res := c.Compute(ts, Absolute)
	check("computed", res.Evaluation)
	if !res.Evaluation.Valid[0] || res.Scores[0] != 1 || res.Scores[2] != 4 || res.Scores[3] != 3 {
		t.Errorf("valid %v, scores %v, want trajectory 0 valid, scores 1, NaN, 4, 3", res.Evaluation.Valid, res.Scores)
	}
	check("followed", Evaluate(c.Scorer, ts[:2]).Append(c.Scorer, ts[2:]))
}

// TestSourcesColumnsInDeclaredOrder: the columns are the sources'
// objectives in the order the config declares the sources (SourceOrder),
// those it does not order after, by name; by name without it.
func TestSourcesColumnsInDeclaredOrder(t *testing.T) {
	for _, c := range []struct {
		order []string
		want  []string
	}{
		{nil, []string{"x", "y", "z"}},
		{[]string{"b", "a"}, []string{"x", "z", "y"}},
		{[]string{"b"}, []string{"x", "z", "y"}},
		{[]string{"gone", "b", "b"}, []string{"x", "z", "y"}},
	} {
		cfg := sourceConfig(GRPO, ScopeGroup)
		cfg.SourceOrder = c.order
		rc, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, o := range rc.Scorer.Objectives() {
			names = append(names, o.Name)
		}
		if !slices.Equal(names, c.want) {
			t.Errorf("order %v: columns %v, want %v", c.order, names, c.want)
		}
	}
}

// TestSourcesEvaluatedInParallel checks that wide sources (six objectives
// a source) evaluated on two goroutines at once, each with its copy of
// the scorer and its rows, give every trajectory the values, absent
// columns, validity and cause it has evaluated alone, bit for bit; and
// that its group is its source's and group value's. The scorer is used
// once first, as a followed session's is before it is copied: a copy
// sharing the original's rows races (the race run says so).
func TestSourcesEvaluatedInParallel(t *testing.T) {
	ts := enginetest.SourceData(3, 3*evalChunk)
	for i := range ts {
		switch i % 7 {
		case 1:
			delete(ts[i].Metadata, "y")
		case 2:
			ts[i].Metadata["z"] = math.NaN()
		case 3:
			ts[i].Metadata["x"] = "not scored"
		}
	}
	for _, nanSum := range []bool{false, true} {
		cfg := wideSourceConfig()
		cfg.NanSum = &nanSum
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		Evaluate(c.Scorer, ts[:1]) // the scorer's own rows made
		ev := Evaluate(c.Scorer, ts)
		groups := map[[2]string]int32{}
		for i := range ts {
			alone := Evaluate(c.Scorer, ts[i:i+1])
			for k := range ev.M {
				got, want := ev.Values[i*ev.M+k], alone.Values[k]
				if math.Float64bits(got) != math.Float64bits(want) || ev.Missing(i, k) != alone.Missing(0, k) {
					t.Fatalf("nansum %v, trajectory %d, column %d: %v (absent %v), alone %v (%v)", nanSum, i, k, got, ev.Missing(i, k), want, alone.Missing(0, k))
				}
			}
			if ev.Valid[i] != alone.Valid[0] || ev.Causes[i] != alone.Causes[0] {
				t.Fatalf("nansum %v, trajectory %d: valid %v (%q), alone %v (%q)", nanSum, i, ev.Valid[i], ev.Causes[i], alone.Valid[0], alone.Causes[0])
			}
			key := [2]string{ev.SourceOf(i), ts[i].Group}
			if g, ok := groups[key]; !ok {
				groups[key] = ev.groupOf[i]
			} else if g != ev.groupOf[i] {
				t.Fatalf("trajectory %d of source %s, group %s: group %d, its source's and value's is %d", i, key[0], key[1], ev.groupOf[i], g)
			}
		}
		if len(groups) != len(ev.groupNames) {
			t.Errorf("nansum %v: %d groups, want one a source and group value: %d", nanSum, len(ev.groupNames), len(groups))
		}
	}
}

// TestSourceGroupKnownAllocatesNothing checks that finding the group of a
// trajectory whose source and group value came before allocates nothing.
func TestSourceGroupKnownAllocatesNothing(t *testing.T) {
	c, err := New(sourceConfig(Relative, ScopeGroup))
	if err != nil {
		t.Fatal(err)
	}
	e := c.NewEvaluator()
	e.Add(enginetest.SourceData(1, 20))
	src, g := e.ev.sourceOf[0], e.ev.GroupOf(0)
	if n := testing.AllocsPerRun(100, func() { e.sourceGroup(src, g) }); n != 0 {
		t.Errorf("a known group of a source: %v allocations, want 0", n)
	}
}
