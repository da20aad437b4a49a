package diagnose

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// TestMissingLeftOutOfSourceStats: under nansum a None value (null), 0 in
// the score, is left out of a source's objective summary and counted in
// Missing, in stats' split by source (SourceStatsOf) as in the dashboard's
// (SourceBatchStats), whose correlation takes the rows with both values.
// Source math's a is 1, null, 3 and c 1, 1, 0: a's count 2, missing 1,
// mean 2, std 1, min 1, max 3 (mean 4/3, min 0 with the null as 0); the
// correlation of a and c over the first and last is -1 (-0.94 with the 0).
func TestMissingLeftOutOfSourceStats(t *testing.T) {
	yes := true
	cfg := setup.Config{NanSum: &yes, SourceBy: "src", Sources: map[string]setup.SourceConfig{
		"math": {Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "c", Expr: "metadata.c"}}},
		"code": {Objectives: []setup.ObjectiveConfig{{Name: "b", Expr: "metadata.b"}, {Name: "c", Expr: "metadata.c"}}},
	}}
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	row := func(id, src string, md map[string]any) scoring.Trajectory {
		md["src"] = src
		return scoring.Trajectory{ID: id, Group: "p", Metadata: md}
	}
	ts := []scoring.Trajectory{
		row("m1", "math", map[string]any{"a": 1.0, "c": 1.0}),
		row("m2", "math", map[string]any{"a": nil, "c": 1.0}),
		row("m3", "math", map[string]any{"a": 3.0, "c": 0.0}),
		row("k1", "code", map[string]any{"b": 1.0, "c": 0.0}),
		row("k2", "code", map[string]any{"b": 2.0, "c": 1.0}),
	}
	res := c.Compute(ts, engine.Absolute)
	// The evaluation of sources does not mark what nansum counted 0 (its
	// scorer is not a ParetoScorer: engine's marksAbsent): marked here as a
	// ParetoScorer's evaluation marks it.
	ev := res.Evaluation
	a := slices.IndexFunc(ev.Objectives, func(o scoring.Objective) bool { return o.Name == "a" })
	if ev.Absent == nil {
		ev.Absent = make([]bool, len(ev.Values))
	}
	ev.Absent[1*ev.M+a] = true
	b := &res.Ranking.Batches[0]
	// index returns the position of objective name in objs.
	index := func(objs []ObjectiveStats, name string) int {
		return slices.IndexFunc(objs, func(o ObjectiveStats) bool { return o.Name == name })
	}
	check := func(what string, objs []ObjectiveStats) {
		t.Helper()
		if len(objs) != 2 || index(objs, "a") < 0 || index(objs, "c") < 0 {
			t.Fatalf("%s: objectives %+v, want a and c", what, objs)
		}
		if o := objs[index(objs, "c")]; o.Count != 3 || o.Missing != 0 {
			t.Errorf("%s: %+v, want c of count 3, missing 0", what, o)
		}
		if o := objs[index(objs, "a")]; o.Count != 2 || o.Missing != 1 || o.Mean != 2 || o.Std != 1 || o.Min != 1 || o.Max != 3 {
			t.Errorf("%s: %+v, want a of count 2, missing 1, mean 2, std 1, min 1, max 3", what, o)
		}
	}
	split := SourceStatsOf(res, b)
	math := -1
	for src, ss := range split {
		if ss.Source == "math" {
			math = src
			check("SourceStatsOf", ss.Objectives)
		}
	}
	if math < 0 {
		t.Fatalf("no source math: %+v", split)
	}
	st := SourceBatchStats(res, b, math)
	check("SourceBatchStats", st.Objectives)
	if r := st.Correlation[index(st.Objectives, "a")][index(st.Objectives, "c")]; r != -1 {
		t.Errorf("correlation of a and c %v, want -1 over the rows with both", r)
	}
}
