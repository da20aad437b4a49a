package diagnose

import (
	"math"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// xyBatches returns two batches over objectives x (max) and y (min),
// weights 1/2: batch 0 has group a with (x, y) = (1, 1), (2, 3), (3, 4)
// and group b with (4, 2); batch 1 has (2, 2), (5, 5) and a trajectory
// without x.
func xyBatches(t *testing.T, scope engine.Scope) *engine.Result {
	t.Helper()
	c, err := engine.New(setup.Config{
		Scope: string(scope),
		Objectives: []setup.ObjectiveConfig{
			{Name: "x", Expr: "metadata.x"},
			{Name: "y", Expr: "metadata.y", Goal: "min"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	point := func(b int64, g string, x, y float64, steps int64) scoring.Trajectory {
		tr := enginetest.Traj(b, g, "x", x, "y", y)
		tr.StepCount = steps
		return tr
	}
	invalid := enginetest.Traj(1, "a", "y", 1.0)
	invalid.StepCount = 100
	ts := []scoring.Trajectory{
		point(0, "a", 1, 1, 2), point(0, "a", 2, 3, 4), point(0, "a", 3, 4, 6), point(0, "b", 4, 2, 8),
		point(1, "a", 2, 2, 1), point(1, "a", 5, 5, 3), invalid,
	}
	return c.Compute(ts, engine.Absolute)
}

func TestTrendsByHand(t *testing.T) {
	res := xyBatches(t, engine.ScopeGroup)
	if ref := DefaultHVRef(res); ref[0] != 1 || ref[1] != 4 {
		t.Fatalf("default reference %v, want the worst of batch 0: x 1, y 4", ref)
	}
	tr := Trends(res, nil)
	// Oriented points (x, -y) against (1, -4): in batch 0 only (4, -2)
	// adds to the box of (2, -3), and covers it: 3 x 2. In batch 1,
	// (5, -5) is not above -4: (2, -2) alone, 1 x 2.
	check := func(what string, got, want float64) {
		t.Helper()
		if !near(got, want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("hypervolume 0", tr[0].Hypervolume, 6)
	check("hypervolume 1", tr[1].Hypervolume, 2)
	// step_count of the valid trajectories only (not the invalid 100).
	check("mean step_count 0", tr[0].MeanStepCount, 5)
	check("mean step_count 1", tr[1].MeanStepCount, 2)
	// Scores 0.5 x - 0.5 y: group a 0, -0.5, -0.5 (std sqrt(1/18)), group b
	// 1 (std 0).
	check("score group std 0", tr[0].ScoreGroupStd, math.Sqrt(1.0/18)/2)
	check("frac at max 0", tr[0].FracAtMax, 0.25)
	check("frac at max 1", tr[1].FracAtMax, 1)
	check("reward std 1", tr[1].Reward.Std, 0)
	if tr[0].FrontierSize != 4 {
		t.Errorf("frontier size %d, want 4 (a's three and b's one)", tr[0].FrontierSize)
	}
}

func TestTrendsGivenReference(t *testing.T) {
	// Against (0, -5): (4, -2) covers 4 x 3, (1, -1) adds 1 x 1 above it.
	tr := Trends(xyBatches(t, engine.ScopeGroup), []float64{0, 5})
	if !near(tr[0].Hypervolume, 13) {
		t.Errorf("hypervolume %v, want 13", tr[0].Hypervolume)
	}
}

func TestTrendsScopeBatch(t *testing.T) {
	tr := Trends(xyBatches(t, engine.ScopeBatch), nil)
	// The frontier differs ((1, -1) and (4, -2)), its hypervolume not.
	if !near(tr[0].Hypervolume, 6) || tr[0].FrontierSize != 2 {
		t.Errorf("hypervolume %v, frontier %d; want 6 and 2", tr[0].Hypervolume, tr[0].FrontierSize)
	}
	// One group: the std of 0, -0.5, -0.5, 1, sqrt(0.375).
	if !near(tr[0].ScoreGroupStd, math.Sqrt(0.375)) {
		t.Errorf("score group std %v, want sqrt(0.375)", tr[0].ScoreGroupStd)
	}
}

func TestTrendsHypervolume3D(t *testing.T) {
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{
		{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b"}, {Name: "c", Expr: "metadata.c"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{enginetest.Traj(0, "", "a", 2.0, "b", 2.0, "c", 2.0), enginetest.Traj(0, "", "a", 1.0, "b", 3.0, "c", 1.0)}
	// Against (0, 0, 0): the 2x2x2 cube and the 1x3x1 bar share 1x2x1.
	tr := Trends(c.Compute(ts, engine.Pareto), []float64{0, 0, 0})
	if !near(tr[0].Hypervolume, 9) {
		t.Errorf("hypervolume %v, want 8 + 3 - 2 = 9", tr[0].Hypervolume)
	}
}

func TestTrendsHypervolumeNeedsTwoOrThreeObjectives(t *testing.T) {
	c := oneObjective(t, engine.DefaultOptions())
	tr := Trends(c.Compute([]scoring.Trajectory{enginetest.Traj(0, "", "x", 1.0)}, engine.Pareto), nil)
	if !math.IsNaN(tr[0].Hypervolume) {
		t.Errorf("hypervolume %v of one objective, want NaN", tr[0].Hypervolume)
	}
}

// TestScoreSharesByHand: each objective's share of the weighted scores'
// variance, on one group of a (max, weight 0.5) = 0, 1, 0, 1 and b (min,
// weight 0.2) = 100, 300, 500, 900. On the raw values b's part -0.2 b has
// variance 0.04 x 87500 = 3500 against a's 0.25 x 0.25; with minmax
// normalisation, b becomes 0, 0.25, 0.5, 1 (variance 0.13671875, its
// part 0.00546875) and a stays: a carries 0.0625 / 0.06796875.
func TestScoreSharesByHand(t *testing.T) {
	a, b := []float64{0, 1, 0, 1}, []float64{100, 300, 500, 900}
	var ts []scoring.Trajectory
	for i := range a {
		ts = append(ts, enginetest.Traj(0, "g", "a", a[i], "b", b[i]))
	}
	half, fifth := 0.5, 0.2
	for _, tc := range []struct {
		norm string
		want []float64
	}{
		{"", []float64{0.0625 / 3500.0625, 3500 / 3500.0625}},
		{"minmax", []float64{0.0625 / 0.06796875, 0.00546875 / 0.06796875}},
	} {
		c, err := engine.New(setup.Config{NormalizeObjectives: tc.norm, Objectives: []setup.ObjectiveConfig{
			{Name: "a", Expr: "metadata.a", Weight: &half},
			{Name: "b", Expr: "metadata.b", Goal: "min", Weight: &fifth},
		}})
		if err != nil {
			t.Fatal(err)
		}
		got := Trends(c.Compute(ts, engine.GRPO), nil)[0].ScoreShares
		if len(got) != 2 || !near(got[0], tc.want[0]) || !near(got[1], tc.want[1]) {
			t.Errorf("normalisation %q: shares %v, want %v", tc.norm, got, tc.want)
		}
	}
}

// TestHypervolumeLeavesOutOtherSourcesObjectives: with sources, the
// default reference and the hypervolume read an objective only where the
// row's source has it (the engine's 0 for another source's is no value).
// Source a has x (max) and y (min), b x alone. The reference is x's worst
// over both, 0.2, and y's over a's rows, -1 (b's 0 would be worse); the
// points are a's, oriented (1, 1) and (0.5, 2) against (0.2, 1): the
// first adds nothing, the second 0.3 x 1.
func TestHypervolumeLeavesOutOtherSourcesObjectives(t *testing.T) {
	one := 1.0
	c, err := engine.New(setup.Config{Method: string(engine.Pareto), SourceBy: "src", Sources: map[string]setup.SourceConfig{
		"a": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}, {Name: "y", Expr: "y", Goal: "min", Weight: &one}}},
		"b": {Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: &one}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "p", "src", "a", "x", 1.0, "y", -1.0),
		enginetest.Traj(0, "p", "src", "a", "x", 0.5, "y", -2.0),
		enginetest.Traj(0, "q", "src", "b", "x", 0.2),
		enginetest.Traj(0, "q", "src", "b", "x", 5.0),
	}
	res := c.Compute(ts, engine.Pareto)
	if ref := DefaultHVRef(res); !slices.Equal(ref, []float64{0.2, -1}) {
		t.Errorf("reference %v, want [0.2 -1]", ref)
	}
	if tr := Trends(res, nil); !near(tr[0].Hypervolume, 0.3) {
		t.Errorf("hypervolume %v, want 0.3", tr[0].Hypervolume)
	}
	if why := NoHypervolume(res); why != "" {
		t.Errorf("NoHypervolume %q, want none: source a has both", why)
	}
}

// TestNoHypervolumeWithoutASourceOfEveryObjective: with sources of which
// none has every objective (math a and c, code b and c), no point has a
// value of each: the hypervolume is NaN, and NoHypervolume says why.
func TestNoHypervolumeWithoutASourceOfEveryObjective(t *testing.T) {
	cfg := restructureConfig(true)
	cfg.Method = string(engine.Pareto)
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "p", "src", "math", "a", 1.0, "c", 2.0),
		enginetest.Traj(0, "p", "src", "math", "a", 2.0, "c", 1.0),
		enginetest.Traj(0, "q", "src", "code", "b", 1.0, "c", 2.0),
	}
	res := c.Compute(ts, engine.Pareto)
	if tr := Trends(res, nil); !math.IsNaN(tr[0].Hypervolume) {
		t.Errorf("hypervolume %v, want NaN", tr[0].Hypervolume)
	}
	if why, want := NoHypervolume(res), "no source has all 3 objectives, which its points need"; why != want {
		t.Errorf("NoHypervolume %q, want %q", why, want)
	}
}
