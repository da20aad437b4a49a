package health

import (
	"math"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/stats"
)

// healthyTrend returns a batch's trend point that trips no check: two
// objectives a and b of weight 1/2, std 1 and correlation 0.5, 4 groups
// none of them flat, scores of within-group std 1, a tenth of them at the
// maximum, 10 steps on average.
func healthyTrend(step int64) diagnose.Trend {
	objective := func(name string) diagnose.ObjectiveStats {
		return diagnose.ObjectiveStats{Objective: scoring.Objective{Name: name, Goal: scoring.Maximize, Weight: 0.5}, Summary: stats.Summary{Count: 10, Mean: 1, Std: 1}}
	}
	return diagnose.Trend{
		BatchStats: diagnose.BatchStats{
			Counts:      diagnose.Counts{Step: step},
			Groups:      4,
			Objectives:  []diagnose.ObjectiveStats{objective("a"), objective("b")},
			Score:       stats.Summary{Count: 10, Max: 1},
			Correlation: [][]float64{{1, 0.5}, {0.5, 1}},
		},
		ScoreGroupStd: 1,
		FracAtMax:     0.1,
		MeanStepCount: 10,
	}
}

// runHealth runs the checks on a baseline of three healthy batches (steps
// 0-2) followed by one (step 3) that change modifies, under method.
func runHealth(method engine.Method, cfg Config, change func(*diagnose.Trend)) []Finding {
	trends := []diagnose.Trend{healthyTrend(0), healthyTrend(1), healthyTrend(2), healthyTrend(3)}
	change(&trends[3])
	res := &engine.Result{Options: engine.Options{Method: method}, Objectives: []scoring.Objective{trends[0].Objectives[0].Objective, trends[0].Objectives[1].Objective}}
	return Findings(res, trends, cfg)
}

func TestHealthChecks(t *testing.T) {
	type tc struct {
		name   string
		method engine.Method
		cfg    Config
		change func(*diagnose.Trend)
		check  Check
		level  Level // 0: the check must not fire
		value  float64
	}
	cases := []tc{
		{"zero spread at half", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.FracZeroStdGroups = 0.5 }, CheckZeroSpread, 0, 0},
		{"zero spread over half", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.FracZeroStdGroups = 0.625 }, CheckZeroSpread, Warn, 0.625},
		{"zero spread over three quarters", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.FracZeroStdGroups = 0.8 }, CheckZeroSpread, Alert, 0.8},

		{"score std at a quarter", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.ScoreGroupStd = 0.25 }, CheckVarianceCollapse, 0, 0},
		{"score std under a fifth", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.ScoreGroupStd = 0.15 }, CheckVarianceCollapse, Warn, 0.15},
		{"score std under 5%", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.ScoreGroupStd = 0.04 }, CheckVarianceCollapse, Alert, 0.04},

		// a's share of the variance is 1 / (1 + std_b^2).
		{"a share 0.735", engine.GRPO, Config{}, sharesWithStdB(0.6), CheckDominance, 0, 0},
		{"a share 0.8", engine.GRPO, Config{}, sharesWithStdB(0.5), CheckDominance, Warn, 0.8},
		{"a share 0.96", engine.RLOO, Config{}, sharesWithStdB(0.2), CheckDominance, Alert, 1 / 1.04},
		{"a share 1 but ranks", engine.Pareto, Config{}, sharesWithStdB(0), CheckDominance, 0, 0},
		{"a share 1 but gdpo", engine.GDPO, Config{}, sharesWithStdB(0), CheckDominance, 0, 0},

		{"80% at the maximum", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.FracAtMax = 0.8 }, CheckCeiling, 0, 0},
		{"85% at the maximum", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.FracAtMax = 0.85 }, CheckCeiling, Warn, 0.85},
		{"all at the maximum", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.FracAtMax = 1 }, CheckCeiling, Alert, 1},
		{"a batch of one", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.FracAtMax, t.Score.Count = 1, 1 }, CheckCeiling, 0, 0},
		{"every score the same failure", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.FracAtMax, t.Score.Min, t.Score.Max = 1, 0, 0 }, CheckCeiling, 0, 0},

		// A steady baseline of 10 steps: the sd is its floor, 5% of 10.
		{"step_count +2.5 sd", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.MeanStepCount = 11.25 }, CheckLengthDrift, 0, 0},
		{"step_count -4 sd", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.MeanStepCount = 8 }, CheckLengthDrift, Warn, -4},
		{"step_count +6 sd", engine.Absolute, Config{}, func(t *diagnose.Trend) { t.MeanStepCount = 13 }, CheckLengthDrift, Alert, 6},
		{"b's mean -6 sd", engine.Absolute, Config{LengthObjective: "b"}, func(t *diagnose.Trend) { t.Objectives[1].Mean = 0.7 }, CheckLengthDrift, Alert, -6},
		{"b's mean steady", engine.Absolute, Config{LengthObjective: "b"}, func(t *diagnose.Trend) { t.MeanStepCount = 20 }, CheckLengthDrift, 0, 0},

		{"r flips weakly", engine.Absolute, Config{}, flipTo(-0.05), CheckCorrelationFlip, 0, 0},
		{"r weakens", engine.Absolute, Config{}, flipTo(0.05), CheckCorrelationFlip, 0, 0},
		{"r flips", engine.Absolute, Config{}, flipTo(-0.2), CheckCorrelationFlip, Warn, -0.2},
		{"r flips hard", engine.Absolute, Config{}, flipTo(-0.4), CheckCorrelationFlip, Alert, -0.4},
		{"r flips, task b", engine.Absolute, Config{TaskObjective: "b"}, flipTo(-0.4), CheckCorrelationFlip, Alert, -0.4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []Finding
			for _, f := range runHealth(c.method, c.cfg, c.change) {
				if f.Check == c.check {
					got = append(got, f)
				}
			}
			if c.level == 0 {
				if len(got) > 0 {
					t.Fatalf("fired: %+v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Level != c.level || got[0].Step != 3 || !near(got[0].Value, c.value) {
				t.Fatalf("findings %+v, want one %s at step 3 of value %v", got, c.level, c.value)
			}
		})
	}
}

// sharesWithStdB sets the scores' variance shares of a and b, of weight
// 1 each, a's std 1 and b's std: 1 / (1 + std^2) and std^2 / (1 + std^2).
func sharesWithStdB(std float64) func(*diagnose.Trend) {
	return func(t *diagnose.Trend) {
		v := std * std
		t.ScoreShares = []float64{1 / (1 + v), v / (1 + v)}
	}
}

// flipTo sets the correlation of a and b.
func flipTo(r float64) func(*diagnose.Trend) {
	return func(t *diagnose.Trend) { t.Correlation = [][]float64{{1, r}, {r, 1}} }
}

func TestHealthOnlyTheFirstStepOfEachLevel(t *testing.T) {
	var trends []diagnose.Trend
	for step, frac := range []float64{0, 0.6, 0.6, 0.8, 0.6, 0.9} {
		tr := healthyTrend(int64(step))
		tr.FracZeroStdGroups, tr.ZeroStdGroups = frac, int(math.Round(frac*float64(tr.Groups)))
		trends = append(trends, tr)
	}
	got := Findings(&engine.Result{}, trends, Config{})
	if len(got) != 2 || got[0].Level != Warn || got[0].Step != 1 || got[1].Level != Alert || got[1].Step != 3 {
		t.Fatalf("findings %+v, want WARN at step 1 and ALERT at step 3", got)
	}
	if got[0].Threshold != 0.5 || got[1].Threshold != 0.75 || !strings.Contains(got[1].Message, "3 of 4 groups") {
		t.Errorf("thresholds %v, %v, message %q", got[0].Threshold, got[1].Threshold, got[1].Message)
	}
	trends[1].FracZeroStdGroups = 0.8
	if got := Findings(&engine.Result{}, trends, Config{}); len(got) != 1 || got[0].Level != Alert || got[0].Step != 1 {
		t.Fatalf("findings %+v, want the ALERT alone at step 1", got)
	}
}

func TestHealthBaselineBatchesAreNotCompared(t *testing.T) {
	// With a baseline of 4, the drifted batch 3 is part of it.
	got := runHealth(engine.Absolute, Config{Baseline: 4}, func(t *diagnose.Trend) { t.MeanStepCount, t.ScoreGroupStd = 30, 0 })
	if len(got) > 0 {
		t.Fatalf("a baseline batch fired: %+v", got)
	}
	// A baseline of 1 has no sd: the floor stands in for it.
	got = runHealth(engine.Absolute, Config{Baseline: 1}, func(t *diagnose.Trend) { t.MeanStepCount = 13 })
	if len(got) != 1 || got[0].Check != CheckLengthDrift || got[0].Level != Alert {
		t.Fatalf("findings %+v, want the drift's ALERT", got)
	}
}

func TestHealthConfigValidate(t *testing.T) {
	objs := []scoring.Objective{{Name: "a"}, {Name: "b"}}
	for _, c := range []Config{{LengthObjective: "z"}, {TaskObjective: "z"}} {
		if c.Validate(objs) == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if err := (Config{Baseline: 2, LengthObjective: "a", TaskObjective: "b"}).Validate(objs); err != nil {
		t.Error(err)
	}
}

// TestHealthTrainerAgreement grades the share of step 3's 20 rows whose
// reward differs from the logged advantage: 1 a WARN, 3 an ALERT (above
// a tenth), under every method a trainer computes (MethodSpec.Trainers);
// none under pareto or relative (rewards that are no trainer's
// advantage) nor without logged advantages.
func TestHealthTrainerAgreement(t *testing.T) {
	run := func(method engine.Method, differing int, logged bool) []Finding {
		trends := []diagnose.Trend{healthyTrend(0), healthyTrend(1), healthyTrend(2), healthyTrend(3)}
		res := &engine.Result{Options: engine.Options{Method: method}, Evaluation: &engine.Evaluation{}, Ranking: &engine.Ranking{}}
		for step := range int64(4) {
			b := engine.Batch{Step: step}
			for range 20 {
				i := len(res.Rewards)
				b.Members = append(b.Members, i)
				advantage := float64(i%3) - 1
				res.Rewards = append(res.Rewards, advantage)
				if step == 3 && len(b.Members) <= differing {
					advantage += 0.5
				}
				res.Evaluation.Logged = append(res.Evaluation.Logged, advantage)
				res.Evaluation.Valid = append(res.Evaluation.Valid, true)
			}
			res.Ranking.Batches = append(res.Ranking.Batches, b)
		}
		if !logged {
			res.Evaluation.Logged = nil
		}
		return Findings(res, trends, Config{})
	}
	for _, c := range []struct {
		name      string
		method    engine.Method
		differing int
		logged    bool
		want      Level // 0: no finding
	}{
		{"agrees", engine.GRPO, 0, true, 0},
		{"one row", engine.GRPO, 1, true, Warn},
		{"two rows, a tenth", engine.GRPO, 2, true, Warn},
		{"three rows", engine.RLOO, 3, true, Alert},
		{"gdpo", engine.GDPO, 3, true, Alert},
		{"rpp-baseline", engine.RPPBaseline, 3, true, Alert},
		{"rloo-whitened", engine.RLOOWhitened, 3, true, Alert},
		{"grpo-passk", engine.GRPOPassK, 3, true, Alert},
		{"gpg", engine.GPG, 3, true, Alert},
		{"pareto", engine.Pareto, 3, true, 0},
		{"relative", engine.Relative, 3, true, 0},
		{"nothing logged", engine.GRPO, 3, false, 0},
	} {
		var got []Finding
		for _, f := range run(c.method, c.differing, c.logged) {
			if f.Check == CheckTrainerAgreement {
				got = append(got, f)
			}
		}
		switch {
		case c.want == 0 && len(got) > 0:
			t.Errorf("%s: %+v, want none", c.name, got)
		case c.want != 0 && (len(got) != 1 || got[0].Level != c.want || got[0].Step != 3 || got[0].Value != float64(c.differing)/20):
			t.Errorf("%s: %+v, want %s at step 3", c.name, got, c.want)
		}
	}
}

// A share just under 1, or just over 0, never reads as all or none in a
// finding's message (english.Percent).
func TestHealthMessagesNeverRoundAShareToAllOrNone(t *testing.T) {
	for _, c := range []struct {
		name   string
		check  Check
		change func(*diagnose.Trend)
		want   string
	}{
		{"dominance 0.99555", CheckDominance, func(t *diagnose.Trend) { t.ScoreShares = []float64{0.99555, 0.00445} }, "a carries 99.6% of the weighted score's variance"},
		{"ceiling 0.999", CheckCeiling, func(t *diagnose.Trend) { t.FracAtMax = 0.999 }, "99.9% of scores are at the batch maximum"},
		{"variance collapse 0.004", CheckVarianceCollapse, func(t *diagnose.Trend) { t.ScoreGroupStd = 0.004 }, "0.4% of the baseline's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var messages []string
			for _, f := range runHealth(engine.GRPO, Config{}, c.change) {
				if f.Check == c.check {
					messages = append(messages, f.Message)
				}
			}
			if len(messages) != 1 || !strings.Contains(messages[0], c.want) {
				t.Fatalf("%s messages %q, want one with %q", c.check, messages, c.want)
			}
		})
	}
}
