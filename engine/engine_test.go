package engine

import (
	"encoding/json"
	"errors"
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// oneObjective returns a computer of enginetest.OneObjectiveScorer (x,
// maximised) with opts.
func oneObjective(t *testing.T, opts Options) *RewardComputer {
	t.Helper()
	return &RewardComputer{Scorer: enginetest.OneObjectiveScorer(t), Options: opts}
}

// near and assertFloats compare floats within testkit.Tol.
func near(a, b float64) bool { return testkit.Near(a, b) }

func assertFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	testkit.AssertFloats(t, what, got, want)
}

func rewards(t *testing.T, ts []scoring.Trajectory, opts Options) []float64 {
	t.Helper()
	return oneObjective(t, opts).Compute(ts, opts.Method).Rewards
}

func TestMethodsOnOneGroup(t *testing.T) {
	// Scores 1, 2, 2, 5: mean 2.5, population std 1.5, sample std sqrt(3),
	// average ranks 1, 2.5, 2.5, 4.
	ts := enginetest.Scored(map[string][]float64{"a": {1, 2, 2, 5}}, "a")
	sqrt3 := math.Sqrt(3)
	cases := []struct {
		name string
		opts Options
		want []float64
	}{
		{"absolute raw", Options{Method: Absolute}, []float64{1, 2, 2, 5}},
		{"absolute z", Options{Method: Absolute, Normalize: true}, []float64{-1, -1.0 / 3, -1.0 / 3, 5.0 / 3}},
		{"relative raw", Options{Method: Relative}, []float64{0, 0.5, 0.5, 1}},
		{"relative z", Options{Method: Relative, Normalize: true}, []float64{-math.Sqrt2, 0, 0, math.Sqrt2}},
		{"grpo group", Options{Method: GRPO, Normalize: true, Scale: ScaleGroup},
			[]float64{-1.5 / (sqrt3 + 1e-4), -0.5 / (sqrt3 + 1e-4), -0.5 / (sqrt3 + 1e-4), 2.5 / (sqrt3 + 1e-4)}},
		{"grpo none", Options{Method: GRPO, Normalize: true, Scale: ScaleNone}, []float64{-1.5, -0.5, -0.5, 2.5}},
		{"grpo normalize off", Options{Method: GRPO, Scale: ScaleGroup}, []float64{-1.5, -0.5, -0.5, 2.5}},
		{"rloo", Options{Method: RLOO, Normalize: true}, []float64{-2, -2.0 / 3, -2.0 / 3, 10.0 / 3}},
		{"rloo raw", Options{Method: RLOO}, []float64{-2, -2.0 / 3, -2.0 / 3, 10.0 / 3}},
		// The group is the batch: c = s - 2.5 has mean 0 and sample
		// variance 3; verl whitens by sqrt(var + 1e-8), normalize or not.
		{"rpp-baseline", Options{Method: RPPBaseline}, []float64{-1.5 / math.Sqrt(3+1e-8), -0.5 / math.Sqrt(3+1e-8), -0.5 / math.Sqrt(3+1e-8), 2.5 / math.Sqrt(3+1e-8)}},
		// Only the best, 5, gets its margin over the second, 2.
		{"grpo-passk", Options{Method: GRPOPassK, Normalize: true}, []float64{0, 0, 0, 3 / (sqrt3 + 1e-4)}},
		{"grpo-passk unscaled", Options{Method: GRPOPassK}, []float64{0, 0, 0, 3}},
		// No score is 0: alpha = 4 / 4.
		{"gpg", Options{Method: GPG, Normalize: true}, []float64{-1.5, -0.5, -0.5, 2.5}},
		// rloo's c has mean 0 and sample std 4/3 sqrt(3); TRL adds 1e-4.
		{"rloo-whitened", Options{Method: RLOOWhitened, Normalize: true},
			[]float64{-2 / (4*sqrt3/3 + 1e-4), -2.0 / 3 / (4*sqrt3/3 + 1e-4), -2.0 / 3 / (4*sqrt3/3 + 1e-4), 10.0 / 3 / (4*sqrt3/3 + 1e-4)}},
		// One objective: ranks 2, 1, 1, 0 (the copies share one) of R = 3
		// fronts -> u = 1 - rank / 2.
		{"pareto raw", Options{Method: Pareto}, []float64{0, 0.5, 0.5, 1}},
		// Fronts of one point: crowding +Inf everywhere, so the order is the
		// rank's: worst 1, tied 2.5, best 4 -> relative's u.
		{"pareto-crowding raw", Options{Method: ParetoCrowding}, []float64{0, 0.5, 0.5, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertFloats(t, "rewards", rewards(t, ts, c.opts), c.want)
		})
	}
}

func TestGroupOfOneAndAllEqual(t *testing.T) {
	ts := enginetest.Scored(map[string][]float64{"one": {3}, "eq": {2, 2, 2}}, "one", "eq")
	cases := []struct {
		opts Options
		want []float64
	}{
		{Options{Method: Absolute}, []float64{3, 2, 2, 2}},
		{Options{Method: Absolute, Normalize: true}, []float64{0, 0, 0, 0}},
		{Options{Method: Relative}, []float64{0.5, 0.5, 0.5, 0.5}},
		{Options{Method: Relative, Normalize: true}, []float64{0, 0, 0, 0}},
		{Options{Method: GRPO, Normalize: true, Scale: ScaleGroup}, []float64{0, 0, 0, 0}},
		{Options{Method: RLOO}, []float64{0, 0, 0, 0}},
		{Options{Method: Pareto}, []float64{1, 1, 1, 1}},
		{Options{Method: Pareto, Normalize: true}, []float64{0, 0, 0, 0}},
		{Options{Method: ParetoCrowding}, []float64{0.5, 0.5, 0.5, 0.5}},
		{Options{Method: GDPO, Normalize: true}, []float64{0, 0, 0, 0}},
		// verl's group of one has mean 0: c = 3, 0, 0, 0 over the batch,
		// mean 0.75, sample variance 2.25.
		{Options{Method: RPPBaseline}, []float64{2.25 / math.Sqrt(2.25+1e-8), -0.75 / math.Sqrt(2.25+1e-8), -0.75 / math.Sqrt(2.25+1e-8), -0.75 / math.Sqrt(2.25+1e-8)}},
		// TRL leaves the group of one out (its baseline is 0/0) and the
		// equal group whitens to 0.
		{Options{Method: RLOOWhitened}, []float64{0, 0, 0, 0}},
		// verl refuses a group of one; the equal group's best has no margin.
		{Options{Method: GRPOPassK, Normalize: true}, []float64{0, 0, 0, 0}},
		// verl's group of one has mean 0; no score is 0: alpha 1.
		{Options{Method: GPG}, []float64{3, 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(string(c.opts.Method), func(t *testing.T) {
			assertFloats(t, "rewards", rewards(t, ts, c.opts), c.want)
		})
	}
}

func TestInvalidTrajectoriesGetTheGroupMean(t *testing.T) {
	nan := math.NaN() // enginetest.Scored() turns NaN into a trajectory without x
	ts := enginetest.Scored(map[string][]float64{"a": {1, nan, 3}, "b": {nan}}, "a", "b")
	res := oneObjective(t, Options{}).Compute(ts, Absolute)
	assertFloats(t, "raw rewards", res.Rewards, []float64{1, 2, 3, 0})
	if res.Evaluation.Valid[1] || res.Evaluation.Valid[3] || !res.Evaluation.Valid[0] {
		t.Errorf("valid = %v", res.Evaluation.Valid)
	}
	if got := res.Evaluation.InvalidCounts(); got["x: missing"] != 2 || len(got) != 1 {
		t.Errorf("invalid counts = %v, want x: missing 2", got)
	}
	if res.Ranking.Ranks[1] != -1 || !math.IsNaN(res.Ranking.Crowding[1]) || !math.IsNaN(res.Scores[1]) {
		t.Errorf("invalid row: rank %d crowding %v score %v", res.Ranking.Ranks[1], res.Ranking.Crowding[1], res.Scores[1])
	}
	z := rewards(t, ts, Options{Method: Absolute, Normalize: true})
	assertFloats(t, "normalised", z, []float64{-1, 0, 1, 0})
}

func TestBatchScope(t *testing.T) {
	ts := enginetest.Scored(map[string][]float64{"g1": {1, 2}, "g2": {3, 5}}, "g1", "g2")
	group := rewards(t, ts, Options{Method: Absolute, Normalize: true, Scope: ScopeGroup})
	assertFloats(t, "group scope", group, []float64{-1, 1, -1, 1})
	// Over the batch: mean 2.75, population variance 8.75 / 4.
	std := math.Sqrt(8.75 / 4)
	batch := rewards(t, ts, Options{Method: Absolute, Normalize: true, Scope: ScopeBatch})
	assertFloats(t, "batch scope", batch, []float64{-1.75 / std, -0.75 / std, 0.25 / std, 2.25 / std})

	// GRPO scale batch: group-centred advantages over the batch's sample std.
	std1 := math.Sqrt(8.75 / 3)
	grpo := rewards(t, ts, Options{Method: GRPO, Normalize: true, Scope: ScopeGroup, Scale: ScaleBatch})
	d := std1 + 1e-4
	assertFloats(t, "grpo scale batch", grpo, []float64{-0.5 / d, 0.5 / d, -1 / d, 1 / d})
}

func TestBatchesAreIndependent(t *testing.T) {
	ts := []scoring.Trajectory{enginetest.Traj(1, "g", "x", 10.0), enginetest.Traj(0, "g", "x", 1.0), enginetest.Traj(1, "g", "x", 20.0), enginetest.Traj(0, "g", "x", 3.0)}
	res := oneObjective(t, Options{}).Compute(ts, Absolute)
	res2 := oneObjective(t, Options{Normalize: true}).Compute(ts, Absolute)
	assertFloats(t, "raw", res.Rewards, []float64{10, 1, 20, 3})
	assertFloats(t, "z", res2.Rewards, []float64{-1, -1, 1, 1})
	if len(res.Ranking.Batches) != 2 || res.Ranking.Batches[0].Step != 0 || res.Ranking.Batches[1].Step != 1 {
		t.Fatalf("batches = %+v", res.Ranking.Batches)
	}
	if got := res.Ranking.Batches[1].Members; len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("batch 1 members = %v, want [0 2]", got)
	}
}

// twoObjectives returns a computer of enginetest.TwoObjectives' scorer (x
// and y, both max) and its trajectories of the given points.
func twoObjectives(t *testing.T, points [][2]float64) (*RewardComputer, []scoring.Trajectory) {
	t.Helper()
	s, ts := enginetest.TwoObjectives(t, points)
	return &RewardComputer{Scorer: s}, ts
}

func TestParetoRewards(t *testing.T) {
	// a, b and its duplicate d are the frontier; c is dominated by a; e by all.
	c, ts := twoObjectives(t, [][2]float64{{1, 0}, {0, 1}, {0, 0}, {1, 0}, {-1, -1}})
	c.Options = Options{Method: Pareto}
	res := c.Compute(ts, Pareto)
	wantRanks := []int{0, 0, 1, 0, 2}
	for i, r := range wantRanks {
		if res.Ranking.Ranks[i] != r {
			t.Errorf("rank[%d] = %d, want %d", i, res.Ranking.Ranks[i], r)
		}
	}
	assertFloats(t, "u", res.Rewards, []float64{1, 1, 0.5, 1, 0})
	c.Options.Normalize = true
	// mean 0.7, population std 0.4.
	assertFloats(t, "z(u)", c.Compute(ts, Pareto).Rewards, []float64{0.75, 0.75, -0.5, 0.75, -1.75})
}

func TestParetoCrowdingRewards(t *testing.T) {
	// A front of five points and one dominated point. Crowding, by hand:
	// x sorted 0,1,3,6,10 (range 10): interior 0.3, 0.5, 0.7;
	// y sorted 0,2,4,7,10 (range 10): interior (for x=6,3,1) 0.4, 0.5, 0.6;
	// so (0.3+0.6)/2 = 0.45, (0.5+0.5)/2 = 0.5, (0.7+0.4)/2 = 0.55, ends +Inf.
	c, ts := twoObjectives(t, [][2]float64{{0, 10}, {1, 7}, {3, 4}, {6, 2}, {10, 0}, {0, 0}})
	res := c.Compute(ts, ParetoCrowding)
	inf := math.Inf(1)
	assertFloats(t, "crowding", res.Ranking.Crowding, []float64{inf, 0.45, 0.5, 0.55, inf, inf})
	// Worst to best: (0,0) rank 1; then 0.45, 0.5, 0.55; the two ends tie at 5.5.
	assertFloats(t, "u", res.Rewards, []float64{0.9, 0.2, 0.4, 0.6, 0.9, 0})
}

func TestGDPO(t *testing.T) {
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{
		{Name: "x", Expr: "x", Weight: 0.5},
		{Name: "y", Expr: "y", Weight: 0.5},
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g1", "x", 1.0, "y", 0.0), enginetest.Traj(0, "g1", "x", 0.0, "y", 0.0),
		enginetest.Traj(0, "g2", "x", 1.0, "y", 2.0), enginetest.Traj(0, "g2", "x", 1.0, "y", 4.0),
	}
	c := &RewardComputer{Scorer: s, Options: Options{Normalize: true}}
	// g1: x = 1, 0 (mean 0.5, std1 sqrt(0.5)); y constant -> 0.
	// g2: x constant -> 0; y = 2, 4 (mean 3, std1 sqrt(2)).
	c1 := 0.5 / (math.Sqrt(0.5) + 1e-4)
	c2 := 1 / (math.Sqrt(2) + 1e-4)
	r := []float64{0.5 * c1, -0.5 * c1, -0.5 * c2, 0.5 * c2} // mean 0
	std1 := math.Sqrt((r[0]*r[0] + r[1]*r[1] + r[2]*r[2] + r[3]*r[3]) / 3)
	want := make([]float64, 4)
	for i := range r {
		want[i] = r[i] / (std1 + 1e-4)
	}
	assertFloats(t, "gdpo", c.Compute(ts, GDPO).Rewards, want)
	c.Options.Normalize = false
	assertFloats(t, "gdpo unnormalised", c.Compute(ts, GDPO).Rewards, r)
}

func TestSVRLScorer(t *testing.T) {
	c, err := New(setup.Config{Computer: "svrl", Method: "absolute", Normalize: ptr(false)})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		// task 1, cost 200/1000, efficiency 1 - 4/10: s = 1 - 0.02 + 0.03.
		{Metadata: map[string]any{"accuracy": 1.0, "verification_spent": 200.0, "initial_budget": 1000.0, "max_steps": 10.0}, StepCount: 4},
		// No budget: cost 0; 12 steps of 10: efficiency clamps to 0.
		{Metadata: map[string]any{"accuracy": 0.5, "verification_spent": 200.0, "max_steps": 10.0}, StepCount: 12},
		// No verification_spent, no max_steps.
		{Metadata: map[string]any{"accuracy": 0.25, "initial_budget": 1000.0}},
		{Metadata: map[string]any{"verification_spent": 1.0}},
		{Metadata: map[string]any{"accuracy": "high"}},
		{Metadata: map[string]any{"accuracy": 1.0, "initial_budget": -5.0, "max_steps": 0.0}, StepCount: 3},
	}
	res := c.Compute(ts, Absolute)
	assertFloats(t, "values[0]", res.Evaluation.Row(0), []float64{1, 0.2, 0.6})
	assertFloats(t, "values[1]", res.Evaluation.Row(1), []float64{0.5, 0, 0})
	assertFloats(t, "scores", res.Scores, []float64{1.01, 0.5, 0.25, math.NaN(), math.NaN(), 1})
	want := map[string]int{"task: missing": 1, "task: not a number": 1}
	got := res.Evaluation.InvalidCounts()
	if len(got) != len(want) || got["task: missing"] != 1 || got["task: not a number"] != 1 {
		t.Errorf("invalid counts = %v, want %v", got, want)
	}
}

func TestExpressions(t *testing.T) {
	tr := &scoring.Trajectory{ID: "t1", Batch: 3, Group: "g", StepCount: 4, Done: true,
		Response: json.RawMessage(`"hello world"`),
		Metadata: map[string]any{"acc": 0.5, "id": 99.0, "name": "x", "zero": 0.0, "flag": true}}
	cases := []struct {
		src  string
		want float64
		err  error
	}{
		{"metadata.acc * 2", 1, nil},
		{"acc + step_count", 4.5, nil},
		{"batch / 2", 1.5, nil}, // float division
		{"len(response)", 11, nil},
		{"done ? 1 : 0", 1, nil},
		{"metadata.id", 99, nil},                    // the clashing key stays reachable via metadata
		{"id == 't1' ? 1 : 0", 1, nil},              // bare id is the trajectory's
		{"metadata.missing", 0, scoring.ErrMissing}, // absent key
		{"missing_key", 0, scoring.ErrMissing},
		{"name", 0, scoring.ErrNotNumber},
		{"flag", 1, nil},      // a bool counts 1 or 0 (verl's acc)
		{"acc > 0.9", 0, nil}, // and so does a comparison
		{"!done", 0, nil},
		{"1 / zero", 0, scoring.ErrInf},
		{"zero / zero", 0, scoring.ErrNaN},
		{"missing_key + 1", 0, scoring.ErrEval},
	}
	for _, c := range cases {
		e, err := scoring.CompileExpression("o", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		got, err := e.Eval(tr)
		if !errors.Is(err, c.err) {
			t.Errorf("%s: err = %v, want %v", c.src, err, c.err)
			continue
		}
		if c.err == nil && got != c.want {
			t.Errorf("%s = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestCompileErrorsNameTheExpressionAndPosition(t *testing.T) {
	_, err := scoring.CompileExpression("acc", "metadata.accuracy +* 2")
	var ce *scoring.CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *CompileError", err)
	}
	if ce.Line != 1 || ce.Column != 20 || ce.Source != "metadata.accuracy +* 2" {
		t.Errorf("got %+v", ce)
	}
	if msg := err.Error(); !strings.Contains(msg, `acc = "metadata.accuracy +* 2"`) || !strings.Contains(msg, "column 20") {
		t.Errorf("message %q lacks the expression or position", msg)
	}
	if _, err := scoring.CompileExpression("t", `id + 1`); err == nil {
		t.Error("a type error (string + int) compiled")
	}
}

func TestFactory(t *testing.T) {
	if _, err := New(setup.Config{Method: "best"}); err == nil || !strings.Contains(err.Error(), "absolute, relative, grpo, rloo, pareto, pareto-crowding, gdpo") {
		t.Errorf("unknown method: %v", err)
	}
	if _, err := New(setup.Config{Method: "grop"}); err == nil || !strings.Contains(err.Error(), `unknown method "grop"; did you mean grpo? (valid: `) {
		t.Errorf("a misspelt method: %v", err)
	}
	if _, err := New(setup.Config{Computer: "magic"}); err == nil || !strings.Contains(err.Error(), "pareto, svrl") {
		t.Errorf("unknown computer: %v", err)
	}
	objs := []setup.ObjectiveConfig{{Name: "acc", Expr: "accuracy"}, {Name: "len", Expr: "length"}}
	if _, err := New(setup.Config{Objectives: objs, Weights: map[string]float64{"speed": 1}}); err == nil || !strings.Contains(err.Error(), "acc, len") {
		t.Errorf("unknown weight name: %v", err)
	}
	c, err := New(setup.Config{Objectives: objs, Minimize: []string{"len"}, Weights: map[string]float64{"acc": 0.9}, Scope: "batch"})
	if err != nil {
		t.Fatal(err)
	}
	got := c.Scorer.Objectives()
	if got[0] != (scoring.Objective{Name: "acc", Goal: scoring.Maximize, Weight: 0.9}) || got[1] != (scoring.Objective{Name: "len", Goal: scoring.Minimize, Weight: 0.5}) {
		t.Errorf("objectives = %+v", got)
	}
	if c.Options.Scope != ScopeBatch || c.Options.Method != Pareto || !c.Options.Normalize {
		t.Errorf("options = %+v", c.Options)
	}
}

func TestInferObjectives(t *testing.T) {
	first := enginetest.Traj(0, "", "b", 1.0, "a", 2.0, "name", "x", "nan", math.NaN(), "flag", true)
	cfg, err := setup.Config{}.InferObjectives(&first)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range cfg.Objectives {
		names = append(names, o.Name)
	}
	if strings.Join(names, ",") != "a,b,nan" {
		t.Errorf("inferred %v, want a,b,nan", names)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Scorer.Objectives()[0].Weight; !near(w, 1.0/3) {
		t.Errorf("default weight %v, want 1/3", w)
	}
}

func TestMinimizedObjectiveIsOriented(t *testing.T) {
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "len", Expr: "len", Goal: "min"}}, Normalize: ptr(false), Method: "absolute"})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{enginetest.Traj(0, "", "len", 10.0), enginetest.Traj(0, "", "len", 5.0)}
	res := c.Compute(ts, Absolute)
	assertFloats(t, "scores", res.Scores, []float64{-10, -5})
	if res.Ranking.Ranks[0] != 1 || res.Ranking.Ranks[1] != 0 {
		t.Errorf("ranks = %v: the shorter one must be the frontier", res.Ranking.Ranks)
	}
	assertFloats(t, "raw objective kept", res.Evaluation.Row(0), []float64{10})
}

func ptr[T any](v T) *T { return &v }

// TestScopeBatchScalesAsMethodSettingsSay: under scope batch grpo
// computes with the scale MethodSettings reports, group for a batch
// scale (the group is the batch): the same rewards, a batch of one
// trajectory under --group-of-one score included (s / (1 + epsilon),
// where the batch's undefined std would have given 0).
func TestScopeBatchScalesAsMethodSettingsSay(t *testing.T) {
	for _, ts := range [][]scoring.Trajectory{
		enginetest.Scored(map[string][]float64{"g1": {1, 2}, "g2": {3, 5}}, "g1", "g2"),
		enginetest.Scored(map[string][]float64{"g1": {3}}, "g1"),
	} {
		o := Options{Method: GRPO, Normalize: true, Scope: ScopeBatch, Scale: ScaleBatch, GroupOfOne: GroupOfOneScore}
		if s := o.MethodSettings().Scale; s != ScaleGroup {
			t.Fatalf("scope batch, scale batch: MethodSettings says scale %s, want group", s)
		}
		batch := rewards(t, ts, o)
		o.Scale = ScaleGroup
		assertFloats(t, "scale batch under scope batch", batch, rewards(t, ts, o))
	}
}

// TestGPGCentresAsGRPOUnscaled: gpg's centring (centreOnGroups, which
// rpp-baseline shares) is grpo's unscaled path with verl's group of one,
// so where no score is 0 (alpha 1) gpg's rewards are grpo's under scale
// none and group-of-one score, bit for bit, a group of one and an invalid
// trajectory among them.
func TestGPGCentresAsGRPOUnscaled(t *testing.T) {
	nan := math.NaN() // a trajectory without x
	ts := enginetest.Scored(map[string][]float64{"a": {1, 2, 2, 5.5}, "b": {3}, "c": {-1, nan, 4.25}}, "a", "b", "c")
	gpg := rewards(t, ts, Options{Method: GPG})
	grpo := rewards(t, ts, Options{Method: GRPO, Scale: ScaleNone, Normalize: true, GroupOfOne: GroupOfOneScore})
	if !enginetest.SameBits(gpg, grpo) {
		t.Errorf("gpg %v, grpo unscaled %v", gpg, grpo)
	}
}
