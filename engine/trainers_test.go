package engine

import (
	"errors"
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestEpsilonAndGroupOfOne checks grpo, rloo and gdpo against hand-computed
// values with another epsilon and verl's convention for a group of one.
func TestEpsilonAndGroupOfOne(t *testing.T) {
	// Group a: scores 1, -1, 1, 1: mean 0.5, sample std 1. Group b: one
	// score, 3.
	ts := enginetest.Scored(map[string][]float64{"a": {1, -1, 1, 1}, "b": {3}}, "a", "b")
	const eps = 1e-6
	verl := Options{Method: GRPO, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true, Epsilon: eps, GroupOfOne: GroupOfOneScore}
	assertFloats(t, "verl grpo", rewards(t, ts, verl),
		[]float64{0.5 / (1 + eps), -1.5 / (1 + eps), 0.5 / (1 + eps), 0.5 / (1 + eps), 3 / (1 + eps)})

	// Without verl's convention, a group of one gets 0; epsilon 1e-9 is
	// OpenRLHF's.
	openrlhf := verl
	openrlhf.Epsilon, openrlhf.GroupOfOne = 1e-9, GroupOfOneZero
	assertFloats(t, "grpo eps 1e-9", rewards(t, ts, openrlhf),
		[]float64{0.5 / (1 + 1e-9), -1.5 / (1 + 1e-9), 0.5 / (1 + 1e-9), 0.5 / (1 + 1e-9), 0})

	// Unscaled (Dr. GRPO, verl's norm_adv_by_std_in_grpo=False): s - mean,
	// and s for a group of one.
	unscaled := verl
	unscaled.Normalize = false
	assertFloats(t, "verl grpo unscaled", rewards(t, ts, unscaled), []float64{0.5, -1.5, 0.5, 0.5, 3})

	// Scale batch: the batch's sample std of 1, -1, 1, 1, 3 (mean 1, sum
	// of squares 8: std1 sqrt(2)); the group of one has mean 0.
	batch := verl
	batch.Scale = ScaleBatch
	d := math.Sqrt2 + eps
	assertFloats(t, "verl grpo scale batch", rewards(t, ts, batch), []float64{0.5 / d, -1.5 / d, 0.5 / d, 0.5 / d, 3 / d})

	// The default epsilon is TRL's 1e-4, Options{} included.
	def := Options{Method: GRPO, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true}
	assertFloats(t, "grpo default", rewards(t, ts, def),
		[]float64{0.5 / (1 + 1e-4), -1.5 / (1 + 1e-4), 0.5 / (1 + 1e-4), 0.5 / (1 + 1e-4), 0})

	// verl's RLOO: n/(n-1) (s - mean) = 4/3 (s - 0.5); a group of one keeps s.
	rloo := Options{Method: RLOO, Scope: ScopeGroup, GroupOfOne: GroupOfOneScore}
	assertFloats(t, "verl rloo", rewards(t, ts, rloo), []float64{4.0 / 3 * 0.5, 4.0 / 3 * -1.5, 4.0 / 3 * 0.5, 4.0 / 3 * 0.5, 3})
	rloo.GroupOfOne = ""
	assertFloats(t, "rloo", rewards(t, ts, rloo), []float64{4.0 / 3 * 0.5, 4.0 / 3 * -1.5, 4.0 / 3 * 0.5, 4.0 / 3 * 0.5, 0})

	// gdpo with one objective of weight 1: g = (x - 0.5) / (1 + eps) in
	// group a, 0 in b; R over the batch is g; A = (R - mean) / (std1 + eps).
	g := []float64{0.5 / (1 + eps), -1.5 / (1 + eps), 0.5 / (1 + eps), 0.5 / (1 + eps), 0}
	mean := 0.0
	for _, x := range g {
		mean += x
	}
	mean /= 5
	ss := 0.0
	for _, x := range g {
		ss += (x - mean) * (x - mean)
	}
	std1 := math.Sqrt(ss / 4)
	want := make([]float64, 5)
	for i, x := range g {
		want[i] = (x - mean) / (std1 + eps)
	}
	gdpo := Options{Method: GDPO, Scope: ScopeGroup, Normalize: true, Epsilon: eps}
	assertFloats(t, "gdpo eps 1e-6", rewards(t, ts, gdpo), want)
}

// TestNanSum checks TRL's nansum: a missing reward adds nothing, and a
// row without any is invalid and left out of its group's baseline.
func TestNanSum(t *testing.T) {
	two := func(nanSum bool) *RewardComputer {
		yes := nanSum
		c, err := New(setup.Config{Method: "grpo", NanSum: &yes, Objectives: []setup.ObjectiveConfig{
			{Name: "acc", Expr: "acc", Weight: ptr(1.0)}, {Name: "fmt", Expr: "fmt", Weight: ptr(1.0)}}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "p", "acc", 1.0, "fmt", 1.0), // 2
		enginetest.Traj(0, "p", "fmt", 1.0),             // acc missing: 1
		enginetest.Traj(0, "p", "acc", nil, "fmt", 0.0), // acc null: 0
		enginetest.Traj(0, "p"),                         // nothing: invalid
		enginetest.Traj(0, "p", "acc", 1.0, "fmt", "x"), // a string is still invalid
	}
	res := two(true).Compute(ts, GRPO)
	// Valid scores 2, 1, 0: mean 1, sample std 1.
	assertFloats(t, "scores", res.Scores[:3], []float64{2, 1, 0})
	assertFloats(t, "rewards", res.Rewards, []float64{1 / (1 + 1e-4), 0, -1 / (1 + 1e-4), 0, 0})
	if res.Evaluation.Valid[3] || res.Evaluation.Causes[3] != "all objectives: missing" {
		t.Errorf("a row without any reward: valid %v, cause %q", res.Evaluation.Valid[3], res.Evaluation.Causes[3])
	}
	if res.Evaluation.Valid[4] || !strings.Contains(res.Evaluation.Causes[4], "not a number") {
		t.Errorf("a string reward: valid %v, cause %q", res.Evaluation.Valid[4], res.Evaluation.Causes[4])
	}
	// Without nansum, a missing reward makes the row invalid.
	res = two(false).Compute(ts, GRPO)
	if res.Evaluation.Valid[1] || res.Evaluation.Valid[2] {
		t.Errorf("without nansum, missing rewards are valid: %v", res.Evaluation.Valid)
	}
	if _, err := New(setup.Config{Computer: "svrl", NanSum: ptr(true)}); err == nil {
		t.Error("nansum with the svrl computer: no error")
	}
}

// TestConfigEpsilonAndGroupOfOne checks the config keys' checks.
func TestConfigEpsilonAndGroupOfOne(t *testing.T) {
	objs := []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}
	c, err := New(setup.Config{Objectives: objs, Epsilon: ptr(1e-6), GroupOfOne: "score"})
	if err != nil || c.Options.Epsilon != 1e-6 || c.Options.GroupOfOne != GroupOfOneScore {
		t.Fatalf("New: %+v, %v", c, err)
	}
	if c, _ := New(setup.Config{Objectives: objs}); c.Options.Epsilon != DefaultEpsilon || c.Options.GroupOfOne != GroupOfOneZero {
		t.Errorf("defaults: %+v", c.Options)
	}
	for _, bad := range []setup.Config{
		{Objectives: objs, Epsilon: ptr(0.0)},
		{Objectives: objs, Epsilon: ptr(-1e-6)},
		{Objectives: objs, Epsilon: ptr(math.Inf(1))},
		{Objectives: objs, Epsilon: ptr(math.NaN())},
		{Objectives: objs, GroupOfOne: "one"},
		{Objectives: objs, GroupBy: "input +"},
		{Objectives: objs, LoggedAdvantage: "advantage)"},
	} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%+v): no error", bad)
		}
	}
}

// TestRecordFields checks the group, batch and ID set by expression.
func TestRecordFields(t *testing.T) {
	f, err := scoring.NewRecordFields("input", "step", `"s" + string(step) + "-" + pred`)
	if err != nil {
		t.Fatal(err)
	}
	tr := enginetest.Traj(0, "", "input", "What is 2+2?", "step", 3.0, "pred", "4")
	if err := f.Apply(&tr); err != nil {
		t.Fatal(err)
	}
	if tr.Group != "What is 2+2?" || tr.Batch != 3 || tr.ID != "s3-4" {
		t.Errorf("got group %q batch %d id %q", tr.Group, tr.Batch, tr.ID)
	}
	// Numbers and bools as text; a batch of integral value.
	num, _ := scoring.NewRecordFields("p", "b", "i")
	tr = enginetest.Traj(0, "", "p", 0.5, "b", -2.0, "i", true)
	if err := num.Apply(&tr); err != nil || tr.Group != "0.5" || tr.Batch != -2 || tr.ID != "true" {
		t.Errorf("got group %q batch %d id %q, %v", tr.Group, tr.Batch, tr.ID, err)
	}
	// A step written as text, as TRL's completion tables have done.
	tr = enginetest.Traj(0, "", "p", "q", "b", "12", "i", "x")
	if err := num.Apply(&tr); err != nil || tr.Batch != 12 {
		t.Errorf("step as text: batch %d, %v", tr.Batch, err)
	}
	for _, c := range []struct {
		fields *scoring.RecordFields
		tr     scoring.Trajectory
		want   string
	}{
		{f, enginetest.Traj(0, "", "step", 1.0, "pred", "x"), `group_by "input": missing`},
		{f, enginetest.Traj(0, "", "input", nil, "step", 1.0, "pred", "x"), `group_by "input": missing`},
		{f, enginetest.Traj(0, "", "input", "q", "step", 1.5, "pred", "x"), `batch_by "step": must be an integer, found 1.5`},
		{f, enginetest.Traj(0, "", "input", "q", "step", "1.0", "pred", "x"), `batch_by "step": must be an integer, found the string "1.0"`},
		{f, enginetest.Traj(0, "", "input", "q", "step", "one", "pred", "x"), `batch_by "step": must be an integer, found the string "one"`},
		{f, enginetest.Traj(0, "", "input", "q", "step", 1.0), `id_by`},
		{num, enginetest.Traj(0, "", "p", math.NaN(), "b", 1.0, "i", "x"), `group_by "p": must be a string or a finite number`},
	} {
		err := c.fields.Apply(&c.tr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Apply(%v) = %v, want an error with %q", c.tr.Metadata, err, c.want)
		}
	}
	if g, err := scoring.NewRecordFields("", "", ""); g != nil || err != nil {
		t.Errorf("no expression: %v, %v", g, err)
	}
	_, err = scoring.NewRecordFields("input +", "", "")
	var ce *scoring.CompileError
	if !errors.As(err, &ce) || ce.Name != scoring.GroupBySetting || ce.Source != "input +" {
		t.Errorf("a bad expression: %v", err)
	}
}

// TestRecordFieldsStepCount checks the step_count a layout sets by
// expression (Config.StepCountBy): an integer >= 0, with the other record
// fields kept; "" adds nothing.
func TestRecordFieldsStepCount(t *testing.T) {
	f, err := setup.Config{BatchBy: "step", StepCountBy: "n"}.RecordFields()
	if err != nil {
		t.Fatal(err)
	}
	tr := enginetest.Traj(0, "", "step", 2.0, "n", 7.0)
	if err := f.Clone().Apply(&tr); err != nil || tr.Batch != 2 || tr.StepCount != 7 {
		t.Errorf("batch %d, step_count %d, %v", tr.Batch, tr.StepCount, err)
	}
	for n, want := range map[float64]string{-1: `step_count_by "n": must be >= 0, found -1`, 1.5: `step_count_by "n": must be an integer, found 1.5`} {
		tr := enginetest.Traj(0, "", "step", 2.0, "n", n)
		if err := f.Apply(&tr); err == nil || err.Error() != want {
			t.Errorf("n = %v: %v, want %q", n, err, want)
		}
	}
	if g, err := (setup.Config{}).RecordFields(); g != nil || err != nil {
		t.Errorf("no expression: %v, %v", g, err)
	}
	var ce *scoring.CompileError
	if _, err := (setup.Config{StepCountBy: "n +"}).RecordFields(); !errors.As(err, &ce) || ce.Name != scoring.StepCountBySetting {
		t.Errorf("a bad expression: %v", err)
	}
}

// TestGDPONanSum checks gdpo with nansum against TRL's normalize_then_sum
// (trl/trainer/grpo_trainer.py, _generate_and_score_completions, at
// huggingface/trl f2cd577): a missing reward is left out of its
// objective's group mean and std (nanmean, nanstd) and adds 0 (nansum),
// rather than counting as a reward of 0; an evaluation appended to
// (following a run) gives the same.
func TestGDPONanSum(t *testing.T) {
	c, err := New(setup.Config{Method: "gdpo", NanSum: ptr(true), Objectives: []setup.ObjectiveConfig{
		{Name: "acc", Expr: "acc", Weight: ptr(1.0)}, {Name: "fmt", Expr: "fmt", Weight: ptr(1.0)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "p", "acc", 1.0, "fmt", 1.0),
		enginetest.Traj(0, "p", "acc", nil, "fmt", 0.5), // TRL's None
		enginetest.Traj(0, "p", "acc", 0.0, "fmt", 0.0),
		enginetest.Traj(0, "p", "acc", 1.0, "fmt", 0.5),
	}
	const eps = 1e-4
	// acc over rows 0, 2, 3 only: mean 2/3, std1 sqrt(1/3); row 1 adds 0.
	sa := math.Sqrt(1.0 / 3)
	// fmt over all four: mean 0.5, std1 sqrt(1/6).
	sf := math.Sqrt(1.0 / 6)
	r := []float64{
		(1.0/3)/(sa+eps) + 0.5/(sf+eps),
		0 + 0,
		(-2.0/3)/(sa+eps) - 0.5/(sf+eps),
		(1.0/3)/(sa+eps) + 0,
	}
	mean := (r[0] + r[1] + r[2] + r[3]) / 4
	ss := 0.0
	for _, x := range r {
		ss += (x - mean) * (x - mean)
	}
	std1 := math.Sqrt(ss / 3)
	want := make([]float64, 4)
	for i, x := range r {
		want[i] = (x - mean) / (std1 + eps)
	}
	assertFloats(t, "gdpo with a missing reward", c.Compute(ts, GDPO).Rewards, want)

	ev := Evaluate(c.Scorer, ts[:2]).Append(c.Scorer, ts[2:])
	assertFloats(t, "gdpo appended", ev.Compute(Options{Method: GDPO, Normalize: true}).Rewards, want)
	filtered := Evaluate(c.Scorer, append(slices.Clone(ts), enginetest.Traj(1, "q", "acc", nil, "fmt", 1.0))).Filter(func(i int) bool { return i < 4 })
	assertFloats(t, "gdpo filtered", filtered.Compute(Options{Method: GDPO, Normalize: true}).Rewards, want)
}
