package agreement

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/testkit"
)

// trlAdvantages32 returns the advantages of a batch as TRL's
// GRPOTrainer._generate_and_score_completions computes them with
// multi_objective_aggregation="sum_then_normalize" (trl f2cd577,
// grpo_trainer.py: rewards = (rewards_per_func * reward_weights).nansum,
// advantages = rewards - mean_grouped_rewards, divided by std_rewards +
// 1e-4 unless scale_rewards="none", std_rewards nanstd's of the group or
// the batch), in float32 throughout as TRL's tensors are.
func trlAdvantages32(groups [][][]float64, weights []float64, scale engine.Scale) [][]float64 {
	mean := func(x []float32) float32 {
		var s float32
		for _, v := range x {
			s += v
		}
		return s / float32(len(x))
	}
	// nanstd (trl/trainer/utils.py): the mean square deviation times
	// n / (n - 1).
	nanstd := func(x []float32) float32 {
		m := mean(x)
		var v float32
		for _, r := range x {
			v += (r - m) * (r - m)
		}
		v /= float32(len(x))
		v *= float32(len(x)) / float32(len(x)-1)
		return float32(math.Sqrt(float64(v)))
	}
	rewards := make([][]float32, len(groups))
	var all []float32
	for gi, g := range groups {
		for _, row := range g {
			var r float32
			for k, x := range row {
				r += float32(x) * float32(weights[k])
			}
			rewards[gi] = append(rewards[gi], r)
		}
		all = append(all, rewards[gi]...)
	}
	batchStd := nanstd(all)
	out := make([][]float64, len(groups))
	for gi, r := range rewards {
		m, std := mean(r), nanstd(r)
		if scale == engine.ScaleBatch {
			std = batchStd
		}
		for _, x := range r {
			a := x - m
			if scale != engine.ScaleNone {
				a /= std + 1e-4
			}
			out[gi] = append(out[gi], float64(a))
		}
	}
	return out
}

// trlRewardBatches returns steps 1 and 2 of 4 prompts of 4 completions
// each, two rewards of the values a TRL accuracy and format reward give
// (seeded), a's times aScale.
func trlRewardBatches(seed uint64, aScale float64) map[int64][][][]float64 {
	return trlRewardBatchesOf(seed, aScale, 4, 4)
}

// trlRewardBatchesOf is trlRewardBatches of prompts prompts of n
// completions each.
func trlRewardBatchesOf(seed uint64, aScale float64, prompts, n int) map[int64][][][]float64 {
	return trlRewardColumns(seed, aScale, prompts, n, 2)
}

// trlRewardValues are the values each reward function gives: a TRL
// accuracy reward, a format reward, a length reward.
var trlRewardValues = [][]float64{{0, 1, 1, 0.5}, {0, 1, 0.25}, {0.2, 0.35, 0.6, 0.85, 1}}

// trlRewardColumns is trlRewardBatchesOf of the first columns reward
// functions of trlRewardValues (objectives a, b, c).
func trlRewardColumns(seed uint64, aScale float64, prompts, n, columns int) map[int64][][][]float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	batches := map[int64][][][]float64{}
	for _, step := range []int64{1, 2} {
		for range prompts {
			var g [][]float64
			for range n {
				row := make([]float64, columns)
				for k, values := range trlRewardValues[:columns] {
					row[k] = values[rng.IntN(len(values))]
				}
				row[0] *= aScale
				g = append(g, row)
			}
			batches[step] = append(batches[step], g)
		}
	}
	return batches
}

// trlLogged returns the trajectories of batches (objectives a and b,
// group gi named "p<gi>") with the advantage TRL logs under weights and
// scale (trlAdvantages32).
func trlLogged(batches map[int64][][][]float64, weights []float64, scale engine.Scale) []scoring.Trajectory {
	return loggedBy(batches, func(groups [][][]float64) [][]float64 { return trlAdvantages32(groups, weights, scale) })
}

// loggedBy returns the trajectories of batches (objectives a, b and c
// of the columns, group gi named "p<gi>") with the advantage of
// advantages, rounded to float32 as TRL logs it.
func loggedBy(batches map[int64][][][]float64, advantages func([][][]float64) [][]float64) []scoring.Trajectory {
	var ts []scoring.Trajectory
	for _, step := range []int64{1, 2} {
		adv := advantages(batches[step])
		for gi, g := range batches[step] {
			key := fmt.Sprintf("p%d", gi)
			for j, row := range g {
				kv := []any{"adv", float64(float32(adv[gi][j]))}
				for k, x := range row {
					kv = append(kv, string(rune('a'+k)), x)
				}
				ts = append(ts, enginetest.Traj(step, key, kv...))
			}
		}
	}
	return ts
}

// TestMatchLoggedRecoversTRLRewardWeights logs TRL's advantages of
// reward_weights under each scale_rewards, and under
// multi_objective_aggregation="normalize_then_sum", of rewards whose std
// is far above TRL's epsilon (so that the weights' common factor shows
// only through it), and checks that --match-logged finds those very
// weights: not a multiple that reproduces the log within 1e-5 (2.964,
// 0.9881 for [3, 1]), nor the direction rounded with the largest weight 1
// (0.3333).
func TestMatchLoggedRecoversTRLRewardWeights(t *testing.T) {
	type logs func(groups [][][]float64, weights []float64) [][]float64
	scaled := func(scale engine.Scale) logs {
		return func(groups [][][]float64, weights []float64) [][]float64 {
			return trlAdvantages32(groups, weights, scale)
		}
	}
	for _, setting := range []struct {
		name, flag string
		advantages logs
	}{
		{"scale group", "", scaled(engine.ScaleGroup)},
		{"scale batch", "--scale batch", scaled(engine.ScaleBatch)},
		{"scale none", "--scale none", scaled(engine.ScaleNone)},
		{"normalize_then_sum", "--method gdpo", func(groups [][][]float64, weights []float64) [][]float64 {
			return refAdvantages(groups, refSettings{method: engine.GDPO, eps: 1e-4, weights: weights})
		}},
	} {
		for _, weights := range [][]float64{{2, 1}, {3, 1}, {1, 3}, {10, 1}, {1, 0.5}, {0.5, 0.5}, {1, -0.5}} {
			for seed := range uint64(3) {
				t.Run(fmt.Sprintf("%v %s seed %d", weights, setting.name, seed), func(t *testing.T) {
					ts := loggedBy(trlRewardBatches(seed, 1), func(groups [][][]float64) [][]float64 { return setting.advantages(groups, weights) })
					c := trlComputer(t, true)
					ev := evaluateWith(c, ts)
					m := MatchLogged(ev, c.Options)
					if m.Found == nil {
						t.Fatalf("nothing found; closest %v off by %g", m.Closest.Changes, m.Closest.Overall.MaxAbsDiff)
					}
					want := []string{fmt.Sprintf("--weight a=%g --weight b=%g", weights[0], weights[1])}
					if setting.flag != "" {
						want = append([]string{setting.flag}, want...)
					}
					if !slices.Equal(m.Found.Changes, want) {
						t.Errorf("found %q (to %.3g), want %q", m.Found.Changes, m.Found.Overall.MaxAbsDiff, want)
					}
					// Under scale batch epsilon against one std over the batch
					// tells the factor of weights fitted too weakly to trust
					// (TestScaleBatchFactorIsAGuess): the warning says so
					// (not of equal weights, 1/m, among the trainers' own).
					if w := m.Warning(); strings.Contains(w, "common factor") != ((setting.name == "scale batch" || setting.name == "normalize_then_sum") && m.Found.fitted) {
						t.Errorf("the factor is told by epsilon (but under scale batch, hardly), yet the warning says otherwise: %q", w)
					}
				})
			}
		}
	}
}

// TestScaleBatchFactorIsAGuess logs TRL's advantages (float32) of
// reward_weights [2, 1] under scale_rewards="batch" over 16 prompts:
// the weights found reproduce the log but are [2.02, 1.01], a common
// factor off the trainer's, which one std over the batch leaves to
// epsilon alone to tell; the warning and --match-logged's note say that
// the factor is a guess. Under scale group, which many groups' stds
// tell, the same rewards give [2, 1] and no such clause.
// TRL's normalize_then_sum (gdpo) ends with the same division by one std
// over the batch: weights fitted under it get the same clause, naming gdpo.
func TestScaleBatchFactorIsAGuess(t *testing.T) {
	const scaleBatchClause = "; under scale batch the log tells the weights' ratios but hardly their common factor (epsilon against one std over the batch): that is a guess"
	const gdpoClause = "; under gdpo, normalised over the batch last, the log tells the weights' ratios but hardly their common factor (epsilon against one std over the batch): that is a guess"
	scaled := func(scale engine.Scale) func([][][]float64) [][]float64 {
		return func(g [][][]float64) [][]float64 { return trlAdvantages32(g, []float64{2, 1}, scale) }
	}
	for _, tc := range []struct {
		name       string
		advantages func([][][]float64) [][]float64
		clause     string
	}{
		{"scale batch", scaled(engine.ScaleBatch), scaleBatchClause},
		{"scale group", scaled(engine.ScaleGroup), ""},
		{"normalize_then_sum", func(g [][][]float64) [][]float64 {
			return refAdvantages(g, refSettings{method: engine.GDPO, eps: 1e-4, weights: []float64{2, 1}})
		}, gdpoClause},
	} {
		ts := loggedBy(trlRewardColumns(2, 1, 16, 8, 2), tc.advantages)
		c := trlComputerOf(t, "a", "b")
		ev := evaluateWith(c, ts)
		m := MatchLogged(ev, c.Options)
		if m.Found == nil {
			t.Fatalf("%s: nothing found", tc.name)
		}
		w := m.Found.Options.Weights
		if tc.name == "scale batch" && (slices.Equal(w, []float64{2, 1}) || math.Abs(w[0]/w[1]-2) > 1e-9) {
			t.Errorf("%s: found %v: the ratio of [2, 1] with another factor was expected of this log", tc.name, w)
		}
		for _, clause := range []string{scaleBatchClause, gdpoClause} {
			want := clause == tc.clause
			if note := m.Warning(); strings.Contains(note, clause) != want {
				t.Errorf("%s: warning %q; the clause %q %v", tc.name, note, clause, want)
			}
			if _, applied := m.applied(c.Options); strings.Contains(applied.Text, clause) != want {
				t.Errorf("%s: --match-logged's note %+v; the clause %q %v", tc.name, applied, clause, want)
			}
		}
	}
}

// TestMatchLoggedRecoversDecimalRewardWeights logs TRL's advantages of
// reward_weights that are short decimals in a normalisation other than a
// largest weight of 1 (a sum of 1: 0.45 and 0.55, whose largest-1
// direction 0.8182 times 0.55 is 0.45001), or whose direction and factor
// are long apart (0.7071 and 0.25: 1 and 0.3536 times 0.7071), and checks
// that --match-logged finds those very weights.
func TestMatchLoggedRecoversDecimalRewardWeights(t *testing.T) {
	for _, weights := range [][]float64{{0.45, 0.55}, {0.3, 0.7}, {0.65, 0.35}, {1.5, -0.3}, {0.7071, 0.25}, {1.4142, 0.35}} {
		for seed := range uint64(3) {
			ts := trlLogged(trlRewardBatches(seed, 1), weights, engine.ScaleGroup)
			c := trlComputer(t, true)
			m := MatchLogged(evaluateWith(c, ts), c.Options)
			if m.Found == nil {
				t.Errorf("%v seed %d: nothing found; closest %v off by %g", weights, seed, m.Closest.Changes, m.Closest.Overall.MaxAbsDiff)
				continue
			}
			if got := m.Found.Options.Weights; !slices.Equal(got, weights) {
				t.Errorf("%v seed %d: found %v (to %.3g)", weights, seed, got, m.Found.Overall.MaxAbsDiff)
			}
		}
	}
}

// TestMatchLoggedWeightsOfMixedSpreads logs TRL's advantages of a reward
// in the thousands beside one under 1, so that groups whose large reward
// is equal have a std thousands of times under the others': epsilon, and
// the weights' factor, show in those groups only, and the fit finds the
// weights (not 0.27 and 0.09 for 0.3 and 0.1, nor nothing for 4 and 2).
func TestMatchLoggedWeightsOfMixedSpreads(t *testing.T) {
	for _, tc := range []struct {
		seed    uint64
		weights []float64
	}{
		{0, []float64{0.3, 0.1}},
		{1, []float64{0.3, 0.1}},
		{2, []float64{4, 2}},
	} {
		ts := trlLogged(trlRewardBatches(tc.seed, 1000), tc.weights, engine.ScaleGroup)
		c := trlComputer(t, true)
		m := MatchLogged(evaluateWith(c, ts), c.Options)
		if m.Found == nil {
			t.Errorf("%v, seed %d: nothing found", tc.weights, tc.seed)
			continue
		}
		if got := m.Found.Options.Weights; !slices.Equal(got, tc.weights) {
			t.Errorf("%v, seed %d: found %v", tc.weights, tc.seed, got)
		}
	}
}

// TestMatchLoggedScaleFree logs TRL's advantages under scale group of a
// reward in the thousands (a length): epsilon is lost in the std, twice
// or half the weights reproduce the log as well, and --match-logged says
// so, computing with the simplest multiple, of a largest weight of 1
// among those, rather than a precise-looking factor: [1, 0.5] for [2, 1]
// (not 2 and 1, as simple), [1, 3] for [1, 3] (not 0.3333 and 1).
func TestMatchLoggedScaleFree(t *testing.T) {
	for _, tc := range []struct {
		seed          uint64
		weights, want []float64
	}{
		{7, []float64{2, 1}, []float64{1, 0.5}},
		{0, []float64{1, 3}, []float64{1, 3}},
	} {
		ts := trlLogged(trlRewardBatches(tc.seed, 5000), tc.weights, engine.ScaleGroup)
		c := trlComputer(t, true)
		ev := evaluateWith(c, ts)
		check := CheckTrainer(c, ev)
		if !slices.Equal(check.Options.Weights, tc.want) {
			t.Errorf("%v: computing with weights %v, want %v", tc.weights, check.Options.Weights, tc.want)
		}
		const said = "the log tells the weights' ratios but not their common factor"
		if len(check.Notes) != 1 || !strings.Contains(check.Notes[0].Text, said) {
			t.Errorf("%v: notes %+v lack %q", tc.weights, check.Notes, said)
		}
		if m := MatchLogged(ev, c.Options); !strings.Contains(m.Warning(), said) {
			t.Errorf("%v: warning %q lacks %q", tc.weights, m.Warning(), said)
		}
	}
}

// BenchmarkMatchLoggedFitsWeights is MatchLogged on two steps of 2048
// prompts of 8 completions logged by TRL with reward_weights [3, 1]: the
// settings tried, then the weights fitted.
func BenchmarkMatchLoggedFitsWeights(b *testing.B) {
	c, ev := weightedTRLRun(b)
	for b.Loop() {
		if m := MatchLogged(ev, c.Options); m.Found == nil {
			b.Fatal("nothing found")
		}
	}
}

// BenchmarkFitWeightsGRPOScales is the fit of BenchmarkMatchLoggedFitsWeights's
// weights under each of grpo's three scales, as MatchLogged does when no
// setting tried reproduces the log. cpu-ms/op is the process's CPU
// time, steadier than the wall time on a shared machine.
func BenchmarkFitWeightsGRPOScales(b *testing.B) {
	c, ev := weightedTRLRun(b)
	res := ev.Prepare(c.Options, nil)
	res.Finish()
	var scales []engine.Options
	for _, value := range []settingValue{grpoScaleGroup, grpoScaleBatch, grpoScaleNone} {
		o := effectiveSettings(c.Options, ev.Objectives)
		value.set(&o, ev.Objectives)
		withoutObjectiveNorm(&o, ev.Objectives)
		scales = append(scales, o)
	}
	cpu := testkit.CPUTime()
	for b.Loop() {
		equalLogged := equalLoggedGroups(res)
		for _, o := range scales {
			if _, ok := fitWeights(res, o, nil, equalLogged); !ok {
				b.Fatalf("no fit under scale %s", o.Scale)
			}
		}
	}
	testkit.ReportCPU(b, testkit.CPUTime()-cpu)
}

// weightedTRLRun returns a computer of grpo with objectives a and b
// weighted alike and its evaluation of two steps of 2048 prompts of 8
// completions logged by TRL with reward_weights [3, 1].
func weightedTRLRun(b *testing.B) (*engine.RewardComputer, *engine.Evaluation) {
	ts := trlLogged(trlRewardBatchesOf(1, 1, 2048, 8), []float64{3, 1}, engine.ScaleGroup)
	c, err := engine.New(setup.Config{
		Method:          "grpo",
		Objectives:      []setup.ObjectiveConfig{{Name: "a", Expr: "a", Weight: ptr(1.0)}, {Name: "b", Expr: "b", Weight: ptr(1.0)}},
		LoggedAdvantage: "adv",
	})
	if err != nil {
		b.Fatal(err)
	}
	return c, evaluateWith(c, ts)
}

// BenchmarkMatchLoggedRefinesWeights is MatchLogged on two steps of 2048
// prompts of 8 completions of three rewards logged by TRL with
// reward_weights [1.4142, 0.35, 0.5]: the closest rounded candidate is
// within the tolerance but not float32's noise, and the fit rounds weight
// by weight (4^3 combinations around each of 16 starting points).
func BenchmarkMatchLoggedRefinesWeights(b *testing.B) {
	weights := []float64{1.4142, 0.35, 0.5}
	ts := trlLogged(trlRewardColumns(1, 1, 2048, 8, len(weights)), weights, engine.ScaleGroup)
	c := trlComputerOf(b, "a", "b", "c")
	ev := evaluateWith(c, ts)
	for b.Loop() {
		if m := MatchLogged(ev, c.Options); m.Found == nil || !slices.Equal(m.Found.Options.Weights, weights) {
			b.Fatalf("found %+v", m.Found)
		}
	}
}

// trlRLOOAdvantages32 returns the advantages of a batch as TRL's
// RLOOTrainer._generate_and_score_completions computes them without
// normalize_advantages (rloo_trainer.py: rewards = (rewards_per_func *
// reward_weights).nansum, baselines = (the group's sum - rewards) /
// (n - 1), advantages = rewards - baselines), in float32 throughout.
func trlRLOOAdvantages32(groups [][][]float64, weights []float64) [][]float64 {
	out := make([][]float64, len(groups))
	for gi, g := range groups {
		rewards := make([]float32, len(g))
		var sum float32
		for j, row := range g {
			for k, x := range row {
				rewards[j] += float32(x) * float32(weights[k])
			}
			sum += rewards[j]
		}
		for _, r := range rewards {
			out[gi] = append(out[gi], float64(r-(sum-r)/float32(len(g)-1)))
		}
	}
	return out
}

// TestMatchLoggedRecoversRLOORewardWeights logs the advantages of TRL's
// RLOOTrainer with reward_weights and checks that --match-logged finds
// rloo with those very weights.
func TestMatchLoggedRecoversRLOORewardWeights(t *testing.T) {
	for _, weights := range [][]float64{{1, 0.5}, {0.45, 0.55}, {3, 1}, {1, -0.37}} {
		for seed := range uint64(3) {
			ts := loggedBy(trlRewardBatches(seed, 1), func(groups [][][]float64) [][]float64 { return trlRLOOAdvantages32(groups, weights) })
			c := trlComputer(t, true)
			m := MatchLogged(evaluateWith(c, ts), c.Options)
			if m.Found == nil {
				t.Errorf("%v seed %d: nothing found", weights, seed)
				continue
			}
			want := []string{"--method rloo", fmt.Sprintf("--weight a=%g --weight b=%g", weights[0], weights[1])}
			if !slices.Equal(m.Found.Changes, want) {
				t.Errorf("%v seed %d: found %q (to %.3g), want %q", weights, seed, m.Found.Changes, m.Found.Overall.MaxAbsDiff, want)
			}
		}
	}
}

// TestMatchLoggedComputesWithTheClosestThatAgrees logs TRL's advantages
// of reward_weights [1, 0.5] off by 3e-5 each way (a trainer that sums
// in another precision): no setting reproduces them to float32's noise,
// but weights fitted agree with every row within the tolerance.
// --match-logged computes with those, saying they are the closest, not
// that the advantage is not computed from these objectives, nor with
// the weights of 1 given, which are off by far more.
func TestMatchLoggedComputesWithTheClosestThatAgrees(t *testing.T) {
	ts := loggedBy(trlRewardBatches(1, 1), func(groups [][][]float64) [][]float64 {
		adv := trlAdvantages32(groups, []float64{1, 0.5}, engine.ScaleGroup)
		for gi := range adv {
			for j := range adv[gi] {
				adv[gi][j] += 3e-5 * float64(1-2*(j%2))
			}
		}
		return adv
	})
	c := trlComputer(t, true)
	ev := evaluateWith(c, ts)
	m := MatchLogged(ev, c.Options)
	if m.Found != nil || m.Closest == nil || m.Closest.Overall.Differing > 0 {
		t.Fatalf("found %+v, closest %+v: want none found and a closest that agrees", m.Found, m.Closest)
	}
	check := CheckTrainer(c, ev)
	if !slices.Equal(check.Options.Weights, m.Closest.Options.Weights) {
		t.Errorf("computing with weights %v, want the closest's %v", check.Options.Weights, m.Closest.Options.Weights)
	}
	texts := []string{m.Warning()}
	for _, note := range check.Notes {
		texts = append(texts, note.Text)
	}
	for _, text := range texts {
		if strings.Contains(text, "not computed from these objectives") || !strings.Contains(text, "which agrees with every row within 0.0001") {
			t.Errorf("%q: want it to name the closest as agreeing", text)
		}
	}
	if len(check.Notes) != 1 || !strings.Contains(check.Notes[0].Text, "; computing with the closest, `--weight a=") {
		t.Errorf("notes %+v: want them to say the closest is computed with", check.Notes)
	}
	if d := check.Logged.Base.Overall; d.Differing > 0 {
		t.Errorf("the check reported is not of the weights computed with: %+v", d)
	}
}

// TestEachRoundingBounded: the weight-by-weight rounding tries every
// combination (4^m of 2 to 5 digits) up to maxRoundedApart weights, and
// beyond, all weights to the same digits alone (each candidate is a pass
// over the rows).
func TestEachRoundingBounded(t *testing.T) {
	for m := 1; m <= maxRoundedApart+2; m++ {
		w := make([]float64, m)
		for k := range w {
			w[k] = 1.234567 * float64(k+1)
		}
		calls := 0
		eachRounding(w, 2, 5, func([]float64) { calls++ })
		want := 4
		if m <= maxRoundedApart {
			want = 1 << (2 * m)
		}
		if calls != want {
			t.Errorf("%d weights: %d roundings, want %d", m, calls, want)
		}
	}
}

// trlComputerOf is trlComputer (with --match-logged) of the objectives
// named, each of weight 1.
func trlComputerOf(t testing.TB, names ...string) *engine.RewardComputer {
	t.Helper()
	var objectives []setup.ObjectiveConfig
	for _, name := range names {
		objectives = append(objectives, setup.ObjectiveConfig{Name: name, Expr: name, Weight: ptr(1.0)})
	}
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: objectives, LoggedAdvantage: "adv", MatchLogged: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMatchLoggedRecoversLongWeights logs TRL's advantages (float32, as
// grpo_trainer.py's _generate_and_score_completions and rloo_trainer.py
// compute them) of reward_weights of 2 to 5 significant digits over 2
// and 3 rewards, under each scale_rewards and rloo, of 4 and 64 prompts,
// and checks that --match-logged finds those very weights. A weight
// rounded to 4 digits (1.414 for 1.4142) is off by more than the
// tolerance unscaled, where the advantages are the rewards' size, and
// scaled over many rows, yet the log tells the weights to float32's
// noise. Not of 64 prompts under scale batch: one std over 512 rows
// drowns epsilon, the only witness of the weights' factor, which the log
// then tells to a few percent only.
func TestMatchLoggedRecoversLongWeights(t *testing.T) {
	for _, setting := range []struct {
		name, flag string
		advantages func(groups [][][]float64, weights []float64) [][]float64
	}{
		{"scale group", "", func(g [][][]float64, w []float64) [][]float64 { return trlAdvantages32(g, w, engine.ScaleGroup) }},
		{"scale batch", "--scale batch", func(g [][][]float64, w []float64) [][]float64 { return trlAdvantages32(g, w, engine.ScaleBatch) }},
		{"scale none", "--scale none", func(g [][][]float64, w []float64) [][]float64 { return trlAdvantages32(g, w, engine.ScaleNone) }},
		{"rloo", "--method rloo", trlRLOOAdvantages32},
	} {
		for _, weights := range [][]float64{
			{1.4142, 0.35}, {0.35, 1.4142}, {2.7183, 0.5}, {31.416, 2.5}, {0.57721, 1.25},
			{1.4142, 0.35, 0.5}, {1, 0.125, 2.7183}, {0.31416, 1.7321, 0.45},
		} {
			names := []string{"a", "b", "c"}[:len(weights)]
			for _, size := range []struct {
				seed       uint64
				prompts, n int
			}{{0, 4, 4}, {1, 4, 4}, {2, 64, 8}} {
				if size.prompts > 4 && setting.name == "scale batch" {
					continue
				}
				t.Run(fmt.Sprintf("%v %s seed %d of %d", weights, setting.name, size.seed, size.prompts), func(t *testing.T) {
					ts := loggedBy(trlRewardColumns(size.seed, 1, size.prompts, size.n, len(weights)), func(groups [][][]float64) [][]float64 { return setting.advantages(groups, weights) })
					c := trlComputerOf(t, names...)
					m := MatchLogged(evaluateWith(c, ts), c.Options)
					if m.Found == nil {
						t.Fatalf("nothing found; closest %v off by %g", m.Closest.Changes, m.Closest.Overall.MaxAbsDiff)
					}
					var ws []string
					for k, w := range weights {
						ws = append(ws, fmt.Sprintf("--weight %s=%g", names[k], w))
					}
					want := []string{strings.Join(ws, " ")}
					if setting.flag != "" {
						want = append([]string{setting.flag}, want...)
					}
					if !slices.Equal(m.Found.Changes, want) {
						t.Errorf("found %q (to %.3g), want %q", m.Found.Changes, m.Found.Overall.MaxAbsDiff, want)
					}
				})
			}
		}
	}
}

// TestCandidateSetSettlesAsMeasuredInFull measures the candidates of a
// refined fit (every rounding, weight by weight, around the fitted
// weights of a TRL log of three rewards over 64 prompts) as fitWeights
// does, on a sample first and in full only up to the bound, and checks
// that what fitWeights reads of them is what measuring each in full
// gives: the closest, the exact difference of each within the noise it
// leaves, and the closest of the rest, every other past that.
func TestCandidateSetSettlesAsMeasuredInFull(t *testing.T) {
	weights := []float64{1.4142, 0.35, 0.5}
	for _, scale := range []engine.Scale{engine.ScaleGroup, engine.ScaleNone} {
		c := trlComputerOf(t, "a", "b", "c")
		ev := evaluateWith(c, trlLogged(trlRewardColumns(3, 1, 64, 8, len(weights)), weights, scale))
		o := effectiveSettings(c.Options, ev.Objectives)
		grpoScale(scale)(&o, ev.Objectives)
		sys := grpoFitSystem(ev.Compute(o), o)
		sys.indexRows()
		eps := o.EpsilonOrDefault()
		u, _, ok := sys.fitDirection(o.Weights, eps)
		if !ok {
			t.Fatalf("%s: no fit", scale)
		}
		f := 1.0
		if !sys.unscaled {
			f = sys.fitFactor(u, eps)
		}
		cs := candidateSet{sys: &sys, eps: eps, seen: map[string]bool{}}
		for _, by := range []float64{f, 0.999 * f, 1.01 * f, 1.5 * f} {
			w := make([]float64, len(u))
			for k := range w {
				w[k] = by * u[k]
			}
			eachRounding(w, 1, 5, cs.add)
		}
		cs.settle()
		full := make([]float64, len(cs.all))
		closest, measured := 0, 0
		for k, cand := range cs.all {
			full[k] = sys.maxDiff(cand.w, eps, math.Inf(1))
			if full[k] < full[closest] {
				closest = k
			}
			if cand.diff == full[k] {
				measured++
			}
		}
		noise := max(float32Noise, 2*full[closest])
		rest := -1
		for k := range full {
			if full[k] > noise && (rest < 0 || full[k] < full[rest]) {
				rest = k
			}
		}
		if rest < 0 {
			t.Fatalf("%s: every candidate within the noise: nothing to bound", scale)
		}
		for k, cand := range cs.all {
			switch {
			case cand.pending:
				t.Errorf("%s: candidate %v left pending", scale, cand.w)
			case full[k] <= noise || k == rest:
				if cand.diff != full[k] {
					t.Errorf("%s: %v settled at %g, measured in full %g", scale, cand.w, cand.diff, full[k])
				}
			case cand.diff > full[k] || cand.diff != full[k] && cand.diff <= full[rest]:
				t.Errorf("%s: %v settled at %g (in full %g), not a lower bound past the closest of the rest, %g", scale, cand.w, cand.diff, full[k], full[rest])
			}
		}
		if measured == len(cs.all) {
			t.Errorf("%s: all %d candidates measured in full: no bound", scale, measured)
		}
	}
}

// TestSettingsChangesNoNegativeZero: a weight fitted to -0 is written 0,
// never "-0".
func TestSettingsChangesNoNegativeZero(t *testing.T) {
	objectives := []scoring.Objective{{Name: "a", Goal: scoring.Maximize, Weight: 1}, {Name: "b", Goal: scoring.Maximize, Weight: 1}}
	o := engine.Options{Method: engine.GRPO, Weights: []float64{math.Copysign(0, -1), 2}}
	got := strings.Join(settingsChanges(engine.Options{Method: engine.GRPO}, o, objectives), " ")
	if want := "--weight a=0 --weight b=2"; got != want {
		t.Errorf("settingsChanges = %q, want %q", got, want)
	}
}

// TestCheckTrainerLeavesOutTheStepStillWritten logs TRL's advantages of
// reward_weights [1, 1.37] under scale batch and reads all but the last
// two rows, step 2's file ending in an unfinished line
// (engine.RewardComputer.LinesLeftOut): step 2's short group changes its
// batch's std, which no setting reproduces, so step 2 is left out of the
// fit and the weights are those of step 1, the note saying why; step 2 is
// compared alone, no setting tried on it. Without the line left out, no
// one setting reproduces both steps.
func TestCheckTrainerLeavesOutTheStepStillWritten(t *testing.T) {
	weights := []float64{1, 1.37}
	ts := trlLogged(trlRewardBatches(2, 1), weights, engine.ScaleBatch)
	c := trlComputer(t, true)
	ev := evaluateWith(c, ts[:len(ts)-2])
	if check := CheckTrainer(c, ev); slices.Equal(check.Options.Weights, weights) {
		t.Fatalf("weights %v found with the short step fitted: the test shows nothing", weights)
	}
	const line = "completions_00002.jsonl's unfinished last line"
	c.LinesLeftOut = map[int64]string{2: line}
	check := CheckTrainer(c, ev)
	if !slices.Equal(check.Options.Weights, weights) || check.Options.Scale != engine.ScaleBatch {
		t.Fatalf("computing with weights %v, scale %s, want %v, batch; notes %+v", check.Options.Weights, check.Options.Scale, weights, check.Notes)
	}
	said := "; step 2 left out of the fit, its run probably still writing it (" + line + " left out)"
	if len(check.Notes) != 1 || !strings.HasSuffix(check.Notes[0].Text, said) || check.Notes[0].Warning {
		t.Errorf("notes %+v, want one that ends %q", check.Notes, said)
	}
	base, found, ok := check.Logged.BatchFit(2)
	if !ok || found != nil || base.Rows != 14 || base.Differing == 0 {
		t.Errorf("step 2 compared as %+v, found %v, ok %v: want its 14 rows, some differing, no setting tried", base, found, ok)
	}
	if w := check.Logged.BatchWarning(2); !strings.Contains(w, "left out of the fit of the trainer's settings, its run probably still writing this step ("+line+" left out)") {
		t.Errorf("step 2's warning %q does not say why it was left out", w)
	}
	if w := MatchLoggedFrom(ev, c.Options, "", scoring.Uncapped, c.LinesLeftOut).Warning(); !strings.Contains(w, "of 16 rows differ") || !strings.Contains(w, "; step 2 left out of the fit, its run probably still writing it ("+line+" left out; 14 of 14 rows differ") {
		t.Errorf("warning %q counts step 2's rows or does not say it was left out", w)
	}
}
