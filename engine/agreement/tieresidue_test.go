package agreement

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// float32Advantage is the advantage a float32 trainer gives each of n
// equal scores x, its sums reduced by sum (one order of torch's): mean
// fl(sum / n), d = x - mean, the sample std of the n d's, d / (std + eps).
func float32Advantage(x float32, n int, eps float32, sum func([]float32) float32) float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = x
	}
	mean := sum(xs) / float32(n)
	d := x - mean
	for i := range xs {
		xs[i] = d * d
	}
	std := float32(math.Sqrt(float64(sum(xs) / float32(n-1))))
	return d / (std + eps)
}

// sequential sums left to right: the order of the largest error bound.
func sequential(xs []float32) float32 {
	s := float32(0)
	for _, x := range xs {
		s += x
	}
	return s
}

// pairwise sums halves recursively, as torch's cascade sum does.
func pairwise(xs []float32) float32 {
	if len(xs) == 1 {
		return xs[0]
	}
	return pairwise(xs[:len(xs)/2]) + pairwise(xs[len(xs)/2:])
}

// vectorised sums in 8 lanes, then the lanes, as a CPU's vector unit does.
func vectorised(xs []float32) float32 {
	var lanes [8]float32
	for i, x := range xs {
		lanes[i%8] += x
	}
	return pairwise(lanes[:])
}

// TestTieResidueBoundHolds: the advantage of n equal float32 scores,
// computed in float32 with each of three summation orders, is within
// TieResidueBound for every n and score tried; and the bound is tight to
// a factor of 8 from 7 rows on, the sequential order's residue reaching
// an eighth of it (with 2 or 4 rows every order's sum is exact).
func TestTieResidueBoundHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	orders := map[string]func([]float32) float32{"sequential": sequential, "pairwise": pairwise, "vectorised": vectorised}
	for _, n := range []int{2, 3, 4, 7, 8, 16, 33, 64} {
		worst := 0.0
		for range 2000 {
			x := float32(rng.Float64()*4 - 2)
			for _, eps := range []float32{1e-4, 1e-6} {
				bound := TieResidueBound(n, float64(x), float64(eps))
				for name, sum := range orders {
					a := math.Abs(float64(float32Advantage(x, n, eps, sum)))
					if a > bound {
						t.Fatalf("n %d, x %v, eps %v, %s: |advantage| %v above the bound %v", n, x, eps, name, a, bound)
					}
					worst = max(worst, a/bound)
				}
			}
		}
		if n >= 7 && worst < 1.0/8 {
			t.Errorf("n %d: the largest advantage is %.3g of the bound, below an eighth", n, worst)
		}
	}
}

// TestTieResidue checks the values verl's compute_grpo_outcome_advantage
// gives 8 rollouts scoring 0.9 (torch 1.13 CPU: -0.0560341477394104 each,
// epsilon 1e-6) and TRL's GRPO gives 8 sums of 1.2 (0.001190575654618442,
// epsilon 1e-4, testdata constant_format_8): a residue; not when the
// values differ, are beyond the bound, or the group is of one.
func TestTieResidue(t *testing.T) {
	verl := -0.0560341477394104
	trl := 0.001190575654618442
	for _, c := range []struct {
		what    string
		logged  []float64
		n       int
		x, eps  float64
		residue bool
	}{
		{"verl 0.9", []float64{verl, verl, verl, verl, verl, verl, verl, verl}, 8, float64(float32(0.9)), 1e-6, true},
		{"TRL 1.2", []float64{trl, trl, trl}, 8, float64(float32(1.2)), 1e-4, true},
		{"TRL 1.2 under verl's epsilon", []float64{trl, trl}, 8, float64(float32(1.2)), 1e-6, true},
		{"unequal", []float64{trl, -trl}, 8, float64(float32(1.2)), 1e-4, false},
		{"verl's under TRL's epsilon", []float64{verl, verl}, 8, float64(float32(0.9)), 1e-4, false},
		{"score 0", []float64{trl, trl}, 8, 0, 1e-4, false},
		{"group of one", []float64{trl}, 1, float64(float32(1.2)), 1e-4, false},
		{"none logged", nil, 8, float64(float32(1.2)), 1e-4, false},
	} {
		if got := TieResidue(c.logged, c.n, c.x, c.eps); got != c.residue {
			t.Errorf("%s: TieResidue %v, want %v (bound %v)", c.what, got, c.residue, TieResidueBound(c.n, c.x, c.eps))
		}
	}
}

// TestCompareLoggedTieResidue: a group of 8 equal scores of 1.2 whose
// logged advantage is TRL's residue agrees with its rewards of 0 (and is
// counted), the other group compared as ever, the scores summed in
// float32 as the trainer's; the same group logged at 0.01 (beyond the
// bound), or at two values, differs; and so does the residue under a
// method other than grpo (rloo: no std to divide by) or with the scores
// in float64 (a trainer computing in float64 has no such residue).
func TestCompareLoggedTieResidue(t *testing.T) {
	computer := func(precision string) *engine.RewardComputer {
		c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}}, LoggedAdvantage: "adv", ScorePrecision: precision})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// The other group, scores 0 and 1: sample std sqrt(1/2).
	a := 0.5 / (math.Sqrt(0.5) + 1e-4)
	rows := func(tied ...float64) []scoring.Trajectory {
		ts := []scoring.Trajectory{enginetest.Traj(0, "p", "x", 0.0, "adv", -a), enginetest.Traj(0, "p", "x", 1.0, "adv", a)}
		for _, l := range tied {
			ts = append(ts, enginetest.Traj(0, "tie", "x", 1.2, "adv", l))
		}
		return ts
	}
	residue := 0.001190575654618442
	eight := func(l float64) []float64 { return []float64{l, l, l, l, l, l, l, l} }
	for _, k := range []struct {
		what                 string
		precision            string
		method               engine.Method
		tied                 []float64
		differing, residueOf int
	}{
		{"residue", "float32", engine.GRPO, eight(residue), 0, 1},
		{"logged 0", "float32", engine.GRPO, eight(0), 0, 0},
		{"beyond the bound", "float32", engine.GRPO, eight(0.01), 8, 0},
		{"two values", "float32", engine.GRPO, append(eight(residue)[:7], -residue), 8, 0},
		{"rloo (whose rewards of the other group differ too)", "float32", engine.RLOO, eight(residue), 10, 0},
		{"scores in float64 (no float32 trainer)", "float64", engine.GRPO, eight(residue), 8, 0},
	} {
		res := computer(k.precision).Compute(rows(k.tied...), k.method)
		got, _ := CompareLogged(res, &res.Ranking.Batches[0])
		if got.Rows != 10 || got.Differing != k.differing || got.TieResidueGroups != k.residueOf {
			t.Errorf("%s: %+v, want %d differing, %d tie residue groups", k.what, got, k.differing, k.residueOf)
		}
		if m := MatchLogged(res.Evaluation, res.Options); (m.Warning() == "") != (k.differing == 0) {
			t.Errorf("%s: MatchLogged's warning %q", k.what, m.Warning())
		}
	}
}

// partTieRun is a verl-style run (epsilon 1e-6, float32 scores, grpo)
// with groups of size of 8 with spread, then the rows of group "tie" that
// rewardlens holds: a group of 8 in the trainer, 7 scoring 1 and one 0,
// each of the 7 given the real advantage (1 - 7/8) / (std + eps).
func partTieRun(t *testing.T, tie func(real float64) []scoring.Trajectory) (*engine.Result, float64) {
	t.Helper()
	eps := 1e-6
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}}, LoggedAdvantage: "adv", ScorePrecision: "float32", Epsilon: &eps})
	if err != nil {
		t.Fatal(err)
	}
	var ts []scoring.Trajectory
	for _, g := range []string{"a", "b", "c"} {
		for k := range 8 {
			x := float64(k % 2)
			ts = append(ts, enginetest.Traj(0, g, "x", x, "adv", (x-0.5)/(math.Sqrt(2.0/7)+eps)))
		}
	}
	real := 0.125 / (math.Sqrt(1.0/8) + eps)
	ts = append(ts, tie(real)...)
	return c.Compute(ts, engine.GRPO), real
}

// TestTieResidueNotOfPartGroups: the equal advantage of a group's equal
// scores is taken for the float32 residue only when the group is whole
// (every member valid, of the batch's usual size): a group whose other
// scores the trainer saw (a member invalid here, the group cut short)
// logged a real advantage, which differs from the reward 0 here.
func TestTieResidueNotOfPartGroups(t *testing.T) {
	cases := map[string]func(real float64) []scoring.Trajectory{
		"a member invalid": func(real float64) []scoring.Trajectory {
			var ts []scoring.Trajectory
			for range 7 {
				ts = append(ts, enginetest.Traj(0, "tie", "x", 1.0, "adv", real))
			}
			return append(ts, enginetest.Traj(0, "tie", "adv", -7*real)) // no x: invalid here
		},
		"cut short": func(real float64) []scoring.Trajectory {
			var ts []scoring.Trajectory
			for range 4 {
				ts = append(ts, enginetest.Traj(0, "tie", "x", 1.0, "adv", real))
			}
			return ts
		},
	}
	for name, tie := range cases {
		res, real := partTieRun(t, tie)
		got, _ := CompareLogged(res, &res.Ranking.Batches[0])
		if got.TieResidueGroups != 0 || got.Differing == 0 {
			t.Errorf("%s: the rows the trainer gave %.4f agree with 0 (%d residue groups, %d differing)", name, real, got.TieResidueGroups, got.Differing)
		}
	}
}

// wholeTie is the 8 rows of group "tie" for partTieRun, whole: every one
// scoring 1 and logged residue.
func wholeTie(residue float64) func(float64) []scoring.Trajectory {
	return func(float64) []scoring.Trajectory {
		var ts []scoring.Trajectory
		for range 8 {
			ts = append(ts, enginetest.Traj(0, "tie", "x", 1.0, "adv", residue))
		}
		return ts
	}
}

// TestEqualLoggedGroupsOnlyWhole: the weights' fit leaves out a group
// that logged one value, not 0, only when the group is whole: a group
// holding part of the trainer's logged a real advantage, which the fit
// keeps.
func TestEqualLoggedGroupsOnlyWhole(t *testing.T) {
	cases := map[string]struct {
		tie       func(real float64) []scoring.Trajectory
		leftOut   bool
		tieRowsAt int
	}{
		"whole": {wholeTie(2e-7), true, 24},
		"a member invalid": {func(real float64) []scoring.Trajectory {
			var ts []scoring.Trajectory
			for range 7 {
				ts = append(ts, enginetest.Traj(0, "tie", "x", 1.0, "adv", real))
			}
			return append(ts, enginetest.Traj(0, "tie", "adv", -7*real))
		}, false, 24},
		"cut short": {func(real float64) []scoring.Trajectory {
			var ts []scoring.Trajectory
			for range 4 {
				ts = append(ts, enginetest.Traj(0, "tie", "x", 1.0, "adv", real))
			}
			return ts
		}, false, 24},
	}
	for name, k := range cases {
		res, _ := partTieRun(t, k.tie)
		equal := equalLoggedGroups(res)
		if equal == nil {
			equal = make([]bool, len(res.Scores))
		}
		if got := equal[k.tieRowsAt]; got != k.leftOut {
			t.Errorf("%s: the tie's row left out of the fit: %v, want %v", name, got, k.leftOut)
		}
		for i := range k.tieRowsAt {
			if equal[i] {
				t.Errorf("%s: row %d of a group of spread left out of the fit", name, i)
			}
		}
	}
}

// TestTieResidueGroupsOfSubset: a batch given as a subset of its step's
// rows counts only the residue groups holding a row of the subset.
func TestTieResidueGroupsOfSubset(t *testing.T) {
	res, _ := partTieRun(t, wholeTie(2e-7))
	if res.Scores[24] != 1 || res.Evaluation.Logged[24] != 2e-7 {
		t.Fatalf("row 24 is not the tie's first: score %v, logged %v", res.Scores[24], res.Evaluation.Logged[24])
	}
	seq := func(from, to int) []int {
		var rows []int
		for i := from; i < to; i++ {
			rows = append(rows, i)
		}
		return rows
	}
	for _, k := range []struct {
		what    string
		members []int
		groups  int
	}{
		{"group a", seq(0, 8), 0},
		{"group a and the tie", append(seq(0, 8), seq(24, 32)...), 1},
		{"two rows of the tie", []int{25, 30}, 1},
	} {
		sub := engine.Batch{Step: 0, Members: k.members}
		got, _ := CompareLogged(res, &sub)
		if got.TieResidueGroups != k.groups || got.Differing != 0 {
			t.Errorf("%s: %d tie residue groups, %d differing, want %d, 0", k.what, got.TieResidueGroups, got.Differing, k.groups)
		}
	}
}

// BenchmarkCompareLoggedTies compares 200k rows in groups of 8 equal
// scores, each logged the float32 residue, in 100 batches, with the
// scores in float32 (every group a tie residue's) and float64 (none).
func BenchmarkCompareLoggedTies(b *testing.B) {
	var ts []scoring.Trajectory
	for g := range 25_000 {
		prompt := strconv.Itoa(g)
		for range 8 {
			ts = append(ts, enginetest.Traj(int64(g/250), prompt, "x", 1.2, "adv", 0.001190575654618442))
		}
	}
	for _, precision := range []string{"float32", "float64"} {
		c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}}, LoggedAdvantage: "adv", ScorePrecision: precision})
		if err != nil {
			b.Fatal(err)
		}
		res := c.Compute(ts, engine.GRPO)
		res.Finish()
		if all, _ := compareLoggedBatches(res, len(res.Ranking.Batches), nil); precision == "float32" && (all.TieResidueGroups != 25_000 || all.Differing != 0) {
			b.Fatalf("%d tie residue groups, %d rows differing", all.TieResidueGroups, all.Differing)
		}
		b.Run("batches/"+precision, func(b *testing.B) {
			for b.Loop() {
				compareLoggedBatches(res, len(res.Ranking.Batches), nil)
			}
		})
		leftOut := make([]bool, len(res.Scores))
		b.Run("kept/"+precision, func(b *testing.B) {
			for b.Loop() {
				compareLoggedKept(res, allTieResidues(res), leftOut)
			}
		})
	}
}
