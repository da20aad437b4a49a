package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// TestSwitchMethodsFollowTheCycle: testkit.SwitchMethods, which the
// benchmarks of a switch compute as scripts/bench-dashboard.sh's m
// presses reach them, are the methods the dashboard cycles to from
// pareto (MethodsFor's order), so that a method put among them in
// methodSpecs is measured as the script meets it.
func TestSwitchMethodsFollowTheCycle(t *testing.T) {
	cycle := MethodsFor(Options{Method: Pareto})
	from := slices.Index(cycle, Pareto)
	var want []string
	for k := range testkit.SwitchMethods {
		want = append(want, string(cycle[(from+1+k)%len(cycle)]))
	}
	if !slices.Equal(testkit.SwitchMethods, want) {
		t.Errorf("testkit.SwitchMethods = %q, the cycle from pareto reaches %q", testkit.SwitchMethods, want)
	}
}

func TestEpsilonText(t *testing.T) {
	for eps, want := range map[float64]string{1e-4: "1e-4", 1e-6: "1e-6", 1e-9: "1e-9", 2.5e-5: "2.5e-5", 0.5: "5e-1", 10: "1e1"} {
		if got := epsilonText(eps); got != want {
			t.Errorf("epsilonText(%g) = %q, want %q", eps, got, want)
		}
	}
}

// TestMethodSpecs checks the table: every method has a formula and a
// note, is computed group by group or by batch (not both), and Methods
// and Spec read the table.
func TestMethodSpecs(t *testing.T) {
	if len(AllMethods()) != len(methodSpecs) {
		t.Fatalf("AllMethods has %d methods, the table %d", len(AllMethods()), len(methodSpecs))
	}
	opts := DefaultOptions()
	for i, m := range AllMethods() {
		spec := Spec(m)
		if spec != &methodSpecs[i] || spec.Method != m {
			t.Errorf("Spec(%s) is not the table's entry %d", m, i)
		}
		if spec.Formula == nil || spec.Formula(opts) == "" || spec.Note == nil || spec.Note(opts) == "" {
			t.Errorf("%s has no formula or no note", m)
		}
		if (spec.group == nil) == (spec.batch == nil) {
			t.Errorf("%s must be computed group by group or by batch, one of the two", m)
		}
		if (spec.AsIn == "") != (len(spec.Trainers) == 0) {
			t.Errorf("%s: AsIn %q beside trainers %q: a method says its estimators when, and only when, a trainer computes it", m, spec.AsIn, spec.Trainers)
		}
		for _, tr := range spec.Trainers {
			if !strings.Contains(strings.ToLower(spec.AsIn), string(tr)) {
				t.Errorf("%s: AsIn %q does not name trainer %s", m, spec.AsIn, tr)
			}
		}
	}
	for _, m := range []Method{Absolute, Relative, GRPO, RLOO} {
		if !m.RewardsScore() {
			t.Errorf("%s does not reward the score", m)
		}
	}
	for _, m := range []Method{Pareto, ParetoCrowding, GDPO} {
		if m.RewardsScore() {
			t.Errorf("%s rewards the score", m)
		}
	}
	if Spec("nope") != nil || Method("").RewardsScore() {
		t.Error("an unknown method has a spec")
	}
}

// TestMethodNotesAndFormulas checks the texts the dashboard shows against
// the options they depend on.
func TestMethodNotesAndFormulas(t *testing.T) {
	o := DefaultOptions()
	o.Scope = ScopeGroup
	for _, tc := range []struct {
		m         Method
		normalize bool
		scale     Scale
		want      string
	}{
		{Absolute, true, ScaleGroup, "per group, z-scored"},
		{Pareto, false, ScaleGroup, "per group, not normalised"},
		{GRPO, true, ScaleBatch, "per group, centred, scaled by the batch std"},
		{GRPO, true, ScaleNone, "per group, centred, unscaled"},
		{GRPO, false, ScaleGroup, "per group, centred, unscaled"},
		{RLOO, true, ScaleGroup, "per group, leave-one-out baseline"},
		{GDPO, true, ScaleGroup, "per group, objectives z-scored per group, then over the batch"},
		{GDPO, false, ScaleGroup, "per group, objectives z-scored per group, then centred over the batch"},
	} {
		o.Normalize, o.Scale = tc.normalize, tc.scale
		if got := Spec(tc.m).Note(o); got != tc.want {
			t.Errorf("%s, normalize %v, scale %s: note %q, want %q", tc.m, tc.normalize, tc.scale, got, tc.want)
		}
	}
	// Under scope batch the group is the batch: its std scales either way.
	o.Scope, o.Normalize = ScopeBatch, true
	for _, scale := range []Scale{ScaleGroup, ScaleBatch} {
		o.Scale = scale
		if got, want := Spec(GRPO).Note(o), "per batch, centred, scaled by the batch std"; got != want {
			t.Errorf("grpo, scope batch, scale %s: note %q, want %q", scale, got, want)
		}
	}
	// gdpo's objectives are z-scored over the batch, no group's.
	for _, tc := range []struct {
		normalize bool
		want      string
	}{
		{true, "per batch, objectives z-scored, then their weighted sum z-scored"},
		{false, "per batch, objectives z-scored, then their weighted sum centred"},
	} {
		o.Normalize = tc.normalize
		if got := Spec(GDPO).Note(o); got != tc.want {
			t.Errorf("gdpo, scope batch, normalize %v: note %q, want %q", tc.normalize, got, tc.want)
		}
	}
	o.Normalize = true
	o.Epsilon = 1e-6
	if got, want := Spec(GRPO).Formula(o), "A = (s - mean(s)) / (std1(s) + 1e-6)"; got[:len(want)] != want {
		t.Errorf("grpo's formula %q, want it to start %q", got, want)
	}
	o.Epsilon = 0 // DefaultEpsilon
	if got, want := Spec(GDPO).Formula(o), "g_k = (o'_k - mean) / (std1 + 1e-4) per objective; R = sum_k w_k g_k; A = (R - mean) / (std1(R) + 1e-4) over the batch"; got != want {
		t.Errorf("gdpo's formula %q, want %q", got, want)
	}
}

// RewardsWeighted says what a change of weights does to each method's
// rewards: on five points of two objectives in one group, weights 0.9 and
// 0.1 rather than 0.1 and 0.9 move some reward exactly when it is set.
func TestRewardsWeightedMatchesTheRewards(t *testing.T) {
	c, ts := twoObjectives(t, [][2]float64{{1, 0}, {0, 1}, {0.2, 0.3}, {0.9, 0.5}, {0.4, 0.8}})
	for _, m := range AllMethods() {
		computed := func(w []float64) []float64 {
			c.Options = Options{Method: m, Normalize: true, Scale: ScaleGroup, Weights: w, Priority: []string{"x", "y"}}
			return c.Compute(ts, m).Rewards
		}
		a, b := computed([]float64{0.9, 0.1}), computed([]float64{0.1, 0.9})
		moved := false
		for i := range a {
			moved = moved || !near(a[i], b[i])
		}
		if moved != m.RewardsWeighted() {
			t.Errorf("%s: other weights move the rewards %v, RewardsWeighted %v (%v, %v)", m, moved, m.RewardsWeighted(), a, b)
		}
	}
	if Method("nope").RewardsWeighted() {
		t.Error("an unknown method is weighted")
	}
}

// Two groups of the same members in another order get the same rewards to
// the last bit, under every method: their means and stds are summed in
// ascending order (stats.Ascending), so that rank statistics over the
// rewards see the ties they are. Random groups of two objectives in
// thirds and hundredths (sums that round), an invalid member in every other
// one (its reward the group's mean), each copied shuffled into a second group;
// the two groups' rewards, sorted, compared bit for bit (duplicates in a
// group may trade their crowding, as in pymoo): with the objectives as
// they are and the rewards normalised, and with the objectives z-scored
// per group and the rewards not (whose mean an invalid member gets).
func TestRewardsDoNotDependOnTheMembersOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var points [][2]float64
	var groups []string
	for g := range 30 {
		n := 2 + rng.IntN(30)
		group := make([][2]float64, n)
		for j := range group {
			group[j] = [2]float64{float64(rng.IntN(7)) / 3, float64(rng.IntN(100)) / 100}
		}
		if g%2 == 0 {
			group[0][1] = math.NaN() // no y: invalid
		}
		points = append(points, group...)
		rng.Shuffle(n, func(a, b int) { group[a], group[b] = group[b], group[a] })
		points = append(points, group...)
		for _, name := range []string{"g%d", "g%dcopy"} {
			for range n {
				groups = append(groups, fmt.Sprintf(name, g))
			}
		}
	}
	c, ts := twoObjectives(t, points)
	for i := range ts {
		ts[i].Group = groups[i]
	}
	for i := range ts {
		if math.IsNaN(points[i][1]) {
			delete(ts[i].Metadata, "y")
		}
	}
	for _, norm := range []ObjectiveNorm{NormNone, NormZScore} {
		for _, m := range AllMethods() {
			c.Options = Options{Method: m, Normalize: norm == NormNone, Scale: ScaleGroup, Weights: []float64{0.3, 0.7}, Priority: []string{"x", "y"}, NormalizeObjectives: norm}
			res := c.Compute(ts, m)
			rewards := map[string][]uint64{}
			for i, g := range groups {
				rewards[g] = append(rewards[g], math.Float64bits(res.Rewards[i]))
			}
			for g := range 30 {
				a, b := rewards[fmt.Sprintf("g%d", g)], rewards[fmt.Sprintf("g%dcopy", g)]
				slices.Sort(a)
				slices.Sort(b)
				if !slices.Equal(a, b) {
					t.Errorf("%s, objectives %s: group %d and its shuffled copy get other rewards", m, norm, g)
					break
				}
			}
		}
	}
}

// TestMethodsFor: the options give lexicographic its priorities or it is
// not among the methods they can compute.
func TestMethodsFor(t *testing.T) {
	opts := DefaultOptions()
	if got := MethodsFor(opts); !slices.Equal(got, Methods) {
		t.Errorf("without priorities MethodsFor = %v, want %v", got, Methods)
	}
	opts.Priority = []string{"accuracy"}
	if got := MethodsFor(opts); !slices.Equal(got, AllMethods()) {
		t.Errorf("with priorities MethodsFor = %v, want %v", got, AllMethods())
	}
}

// TestFormulasGiveTheGroupOfOne: grpo's and rloo's formulas say what a
// group of one gets under the options' GroupOfOne, as the rewards do: 0,
// or, with GroupOfOneScore (verl's), s for rloo and mean 0, std1 1 for
// grpo.
func TestFormulasGiveTheGroupOfOne(t *testing.T) {
	for _, tc := range []struct {
		m          Method
		groupOfOne GroupOfOne
		want       string
	}{
		{GRPO, "", "; 0 when n = 1"},
		{GRPO, GroupOfOneZero, "; 0 when n = 1"},
		{GRPO, GroupOfOneScore, "; n = 1: mean 0, std1 1 (a group of one: score)"},
		{RLOO, GroupOfOneZero, "s minus the mean of the others; 0 when n = 1"},
		{RLOO, GroupOfOneScore, "s minus the mean of the others; s when n = 1 (a group of one: score)"},
	} {
		o := DefaultOptions()
		o.Method, o.GroupOfOne = tc.m, tc.groupOfOne
		got := Spec(tc.m).Formula(o)
		if !strings.HasSuffix(got, tc.want) {
			t.Errorf("%s, group of one %q: formula %q, want it to end %q", tc.m, tc.groupOfOne, got, tc.want)
		}
		c, ts := twoObjectives(t, [][2]float64{{1, 0.5}})
		c.Options = o
		if reward := c.Compute(ts, tc.m).Rewards[0]; (reward == 0) != strings.HasSuffix(got, "0 when n = 1") {
			t.Errorf("%s, group of one %q: reward %v, formula %q", tc.m, tc.groupOfOne, reward, got)
		}
	}
}

// TestReadsNormalize: a method that says it reads Options.Normalize gives
// other rewards with it off, and one that says it does not (rloo) the
// same, with the reason to say so.
func TestReadsNormalize(t *testing.T) {
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{
		{Name: "x", Expr: "x", Weight: 0.5},
		{Name: "y", Expr: "y", Weight: 0.5},
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g1", "x", 1.0, "y", 0.0), enginetest.Traj(0, "g1", "x", 0.0, "y", 3.0), enginetest.Traj(0, "g1", "x", 0.5, "y", 1.0),
		enginetest.Traj(0, "g2", "x", 1.0, "y", 2.0), enginetest.Traj(0, "g2", "x", 0.2, "y", 4.0), enginetest.Traj(0, "g2", "x", 0.0, "y", 9.0),
	}
	for _, m := range Methods {
		on := &RewardComputer{Scorer: s, Options: Options{Normalize: true, Scale: ScaleGroup}}
		off := &RewardComputer{Scorer: s, Options: Options{Normalize: false, Scale: ScaleGroup}}
		changes := !slices.Equal(on.Compute(ts, m).Rewards, off.Compute(ts, m).Rewards)
		if changes != m.ReadsNormalize() {
			t.Errorf("%s: normalize changes the rewards %v, ReadsNormalize %v", m, changes, m.ReadsNormalize())
		}
		if why := Spec(m).Unnormalised; m.ReadsNormalize() == (why != "") {
			t.Errorf("%s: ReadsNormalize %v but the reason %q", m, m.ReadsNormalize(), why)
		}
	}
	if RLOO.ReadsNormalize() {
		t.Error("rloo reads normalize")
	}
}
