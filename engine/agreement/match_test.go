package agreement

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// refSettings are the settings of refAdvantages, the trainers' advantage
// formulas written out loop by loop, apart from the engine's code.
type refSettings struct {
	method          engine.Method // GRPO, GDPO or RLOO
	scale           engine.Scale  // GRPO's
	eps             float64
	groupOfOneScore bool // verl's mean 0, std 1
	weights         []float64
}

func refMean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// refSampleStd is the std with n - 1 (torch.std's default), NaN for one value.
func refSampleStd(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	m, s := refMean(x), 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

// refAdvantages returns the advantages of a batch: groups of rows, each row
// an objective vector (every objective maximised), as TRL's
// _generate_and_score_completions (sum_then_normalize with scale_rewards
// group, batch or none; normalize_then_sum), verl's
// compute_grpo_outcome_advantage and compute_rloo_outcome_advantage
// compute them.
func refAdvantages(groups [][][]float64, s refSettings) [][]float64 {
	score := func(row []float64) float64 {
		r := 0.0
		for k, x := range row {
			r += s.weights[k] * x
		}
		return r
	}
	out := make([][]float64, len(groups))
	if s.method == engine.GDPO {
		var all []float64
		for gi, g := range groups {
			out[gi] = make([]float64, len(g))
			for k := range s.weights {
				var col []float64
				for _, row := range g {
					col = append(col, row[k])
				}
				if len(g) < 2 {
					continue
				}
				m, sd := refMean(col), refSampleStd(col)
				for j := range g {
					out[gi][j] += s.weights[k] * (col[j] - m) / (sd + s.eps)
				}
			}
			all = append(all, out[gi]...)
		}
		m, sd := refMean(all), refSampleStd(all)
		for gi := range out {
			for j := range out[gi] {
				out[gi][j] = (out[gi][j] - m) / (sd + s.eps)
			}
		}
		return out
	}
	var all []float64
	for _, g := range groups {
		for _, row := range g {
			all = append(all, score(row))
		}
	}
	batchStd := refSampleStd(all)
	for gi, g := range groups {
		var r []float64
		for _, row := range g {
			r = append(r, score(row))
		}
		out[gi] = make([]float64, len(g))
		n := len(r)
		for j := range r {
			switch {
			case s.method == engine.RLOO && n == 1:
				if s.groupOfOneScore {
					out[gi][j] = r[j]
				}
			case s.method == engine.RLOO:
				out[gi][j] = float64(n) / float64(n-1) * (r[j] - refMean(r))
			case n == 1 && !s.groupOfOneScore:
				out[gi][j] = 0
			default:
				mean, std := 0.0, 1.0 // verl's group of one
				if n > 1 {
					mean, std = refMean(r), refSampleStd(r)
				}
				switch s.scale {
				case engine.ScaleGroup:
					out[gi][j] = (r[j] - mean) / (std + s.eps)
				case engine.ScaleBatch:
					out[gi][j] = (r[j] - mean) / (batchStd + s.eps)
				case engine.ScaleNone:
					out[gi][j] = r[j] - mean
				}
			}
		}
	}
	return out
}

// matchBatch is a batch of two objectives a and b of small spread (so
// that epsilon 1e-4, 1e-6 and 1e-9 give different advantages), three
// groups of four and a group of one.
func matchBatch(step int64) [][][]float64 {
	var groups [][][]float64
	for g := range 3 {
		var rows [][]float64
		for i := range 4 {
			rows = append(rows, []float64{
				0.5 + 0.001*float64((i*7+g*3+int(step))%5),
				0.2 + 0.001*float64((i*3+g)%4),
			})
		}
		groups = append(groups, rows)
	}
	return append(groups, [][]float64{{0.4, 0.3}})
}

// matchTrajectories returns the trajectories of the batches, group gi
// named "p<gi>", with the logged advantage (rounded to float32, as TRL
// logs it) of settings per batch.
func matchTrajectories(batches map[int64][][][]float64, settings map[int64]refSettings) []scoring.Trajectory {
	var ts []scoring.Trajectory
	for _, step := range slices.Sorted(func(yield func(int64) bool) {
		for s := range batches {
			if !yield(s) {
				return
			}
		}
	}) {
		adv := refAdvantages(batches[step], settings[step])
		for gi, g := range batches[step] {
			for j, row := range g {
				ts = append(ts, enginetest.Traj(step, fmt.Sprintf("p%d", gi), "a", row[0], "b", row[1], "adv", float64(float32(adv[gi][j]))))
			}
		}
	}
	return ts
}

// trlComputer is the TRL layout's computer: grpo, scale group, epsilon
// 1e-4, reward weights 1, the logged advantage adv.
func trlComputer(t *testing.T, match bool) *engine.RewardComputer {
	t.Helper()
	c, err := engine.New(setup.Config{
		Method:          "grpo",
		Objectives:      []setup.ObjectiveConfig{{Name: "a", Expr: "a", Weight: ptr(1.0)}, {Name: "b", Expr: "b", Weight: ptr(1.0)}},
		LoggedAdvantage: "adv",
		MatchLogged:     &match,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMatchLoggedFindsEachVariant logs the advantages of each trainer
// setting and checks that MatchLogged names the flags that reproduce
// them, and that computing with the options found does.
func TestMatchLoggedFindsEachVariant(t *testing.T) {
	trl := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 1}}
	with := func(change func(*refSettings)) refSettings {
		s := trl
		change(&s)
		return s
	}
	for _, tc := range []struct {
		name     string
		settings refSettings
		changes  []string
	}{
		{"TRL scale_rewards=group", trl, nil},
		{"TRL scale_rewards=batch", with(func(s *refSettings) { s.scale = engine.ScaleBatch }), []string{"--scale batch"}},
		{"TRL scale_rewards=none", with(func(s *refSettings) { s.scale = engine.ScaleNone }), []string{"--scale none"}},
		{"TRL normalize_then_sum", with(func(s *refSettings) { s.method = engine.GDPO }), []string{"--method gdpo"}},
		{"epsilon 1e-6", with(func(s *refSettings) { s.eps = 1e-6 }), []string{"--epsilon 1e-06"}},
		{"OpenRLHF epsilon 1e-9", with(func(s *refSettings) { s.eps = 1e-9 }), []string{"--epsilon 1e-09"}},
		{"group of one score", with(func(s *refSettings) { s.groupOfOneScore = true }), []string{"--group-of-one score"}},
		{"verl grpo", with(func(s *refSettings) { s.eps, s.groupOfOneScore = 1e-6, true }), []string{"--epsilon 1e-06", "--group-of-one score"}},
		{"weights 1/m", with(func(s *refSettings) { s.weights = []float64{0.5, 0.5} }), []string{"--weight a=0.5 --weight b=0.5"}},
		{"scale none, weights 1/m", with(func(s *refSettings) { s.scale, s.weights = engine.ScaleNone, []float64{0.5, 0.5} }),
			[]string{"--scale none", "--weight a=0.5 --weight b=0.5"}},
		{"gdpo, epsilon 1e-9", with(func(s *refSettings) { s.method, s.eps = engine.GDPO, 1e-9 }), []string{"--method gdpo", "--epsilon 1e-09"}},
		{"rloo", with(func(s *refSettings) { s.method = engine.RLOO }), []string{"--method rloo"}},
		{"verl rloo", with(func(s *refSettings) { s.method, s.groupOfOneScore = engine.RLOO, true }), []string{"--method rloo", "--group-of-one score"}},
		{"scale batch, epsilon 1e-6", with(func(s *refSettings) { s.scale, s.eps = engine.ScaleBatch, 1e-6 }), []string{"--scale batch", "--epsilon 1e-06"}},
		// Weights that are not all equal, fitted to the log.
		{"TRL reward_weights=[1, 0.5]", with(func(s *refSettings) { s.weights = []float64{1, 0.5} }), []string{"--weight a=1 --weight b=0.5"}},
		{"reward_weights=[2, 1]", with(func(s *refSettings) { s.weights = []float64{2, 1} }), []string{"--weight a=2 --weight b=1"}},
		{"scale batch, reward_weights=[0.25, 1]", with(func(s *refSettings) { s.scale, s.weights = engine.ScaleBatch, []float64{0.25, 1} }),
			[]string{"--scale batch", "--weight a=0.25 --weight b=1"}},
		{"scale none, reward_weights=[3, 0.7]", with(func(s *refSettings) { s.scale, s.weights = engine.ScaleNone, []float64{3, 0.7} }),
			[]string{"--scale none", "--weight a=3 --weight b=0.7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			batches := map[int64][][][]float64{1: matchBatch(1), 2: matchBatch(2)}
			ts := matchTrajectories(batches, map[int64]refSettings{1: tc.settings, 2: tc.settings})
			c := trlComputer(t, true)
			ev := evaluateWith(c, ts)
			m := MatchLogged(ev, c.Options)
			if m.Found == nil {
				t.Fatalf("nothing found; closest %v off by %g (tried %d); base off by %g", m.Closest.Changes, m.Closest.Overall.MaxAbsDiff, m.Tried, m.Base.Overall.MaxAbsDiff)
			}
			if !slices.Equal(m.Found.Changes, tc.changes) {
				t.Errorf("found %q, want %q", m.Found.Changes, tc.changes)
			}
			if tc.changes == nil {
				if m.Found != &m.Base || m.Warning() != "" || m.Tried != 1 {
					t.Errorf("the settings as given reproduce: found %p (base %p), tried %d, warning %q", m.Found, &m.Base, m.Tried, m.Warning())
				}
			} else {
				if m.Base.Overall.Differing == 0 {
					t.Errorf("the base settings agree with another setting's advantages: %+v", m.Base.Overall)
				}
				want := "`" + strings.Join(tc.changes, " ") + "` reproduces it to"
				if w := m.Warning(); !strings.Contains(w, want) {
					t.Errorf("warning %q lacks %q", w, want)
				}
			}
			// --match-logged computes with it.
			check := CheckTrainer(c, ev)
			res := ev.Compute(check.Options)
			for bi := range res.Ranking.Batches {
				if got, _ := CompareLogged(res, &res.Ranking.Batches[bi]); got.Rows != len(ts)/2 || got.MaxAbsDiff > Reproduces {
					t.Errorf("with the options applied (%+v), batch %d: %+v", check.Options, bi, got)
				}
			}
			if len(check.Notes) != 1 || check.Notes[0].Warning || !strings.HasPrefix(check.Notes[0].Text, "--match-logged: ") {
				t.Errorf("notes %+v", check.Notes)
			}
		})
	}
}

// TestMatchLoggedWithoutObjectiveNorm: no trainer normalises the
// objectives, so a log of TRL's advantages checked under
// --normalize-objectives is reproduced by turning it off, alone or with
// another setting, and --match-logged computes without it.
func TestMatchLoggedWithoutObjectiveNorm(t *testing.T) {
	trl := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 1}}
	batch := refSettings{method: engine.GRPO, scale: engine.ScaleBatch, eps: 1e-4, weights: []float64{1, 1}}
	for _, tc := range []struct {
		name     string
		settings refSettings
		norm     engine.ObjectiveNorm
		changes  []string
	}{
		{"minmax, TRL scale group", trl, engine.NormMinMax, []string{"--normalize-objectives none"}},
		{"zscore, TRL scale group", trl, engine.NormZScore, []string{"--normalize-objectives none"}},
		{"rank, TRL scale batch", batch, engine.NormRank, []string{"--scale batch", "--normalize-objectives none"}},
		{"minmax, TRL reward_weights=[1, 0.5]", refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 0.5}}, engine.NormMinMax,
			[]string{"--normalize-objectives none", "--weight a=1 --weight b=0.5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			batches := map[int64][][][]float64{1: matchBatch(1), 2: matchBatch(2)}
			ts := matchTrajectories(batches, map[int64]refSettings{1: tc.settings, 2: tc.settings})
			c := trlComputer(t, true)
			c.Options.NormalizeObjectives = tc.norm
			ev := evaluateWith(c, ts)
			m := MatchLogged(ev, c.Options)
			if m.Base.Overall.Differing == 0 {
				t.Fatalf("the normalised objectives agree with the log: %+v", m.Base.Overall)
			}
			if m.Found == nil || !slices.Equal(m.Found.Changes, tc.changes) {
				t.Fatalf("found %+v, want %q; warning %q", m.Found, tc.changes, m.Warning())
			}
			want := "`" + strings.Join(tc.changes, " ") + "` reproduces it to"
			if w := m.Warning(); !strings.Contains(w, want) || !strings.Contains(w, "objectives normalised by "+string(tc.norm)) {
				t.Errorf("warning %q lacks %q or the normalisation checked", w, want)
			}
			check := CheckTrainer(c, ev)
			if check.Options.NormalizeObjectives != engine.NormNone {
				t.Errorf("--match-logged computes with objectives normalised by %q", check.Options.NormalizeObjectives)
			}
			res := ev.Compute(check.Options)
			for bi := range res.Ranking.Batches {
				if got, _ := CompareLogged(res, &res.Ranking.Batches[bi]); got.Rows != len(ts)/2 || got.MaxAbsDiff > Reproduces {
					t.Errorf("with the options applied, batch %d: %+v", bi, got)
				}
			}
		})
	}
}

// TestLoggedReproducesLarge: unscaled advantages in the hundreds, logged
// in float32, are off by more than 1e-5 but reproduce: the tolerance is
// relative beyond 1.
func TestLoggedReproducesLarge(t *testing.T) {
	var groups [][][]float64
	for g := range 3 {
		var rows [][]float64
		for i := range 4 {
			rows = append(rows, []float64{3*float64((i*389+g*211)%997) + 0.3141592653*float64(i*i) + 0.0271828*float64(g), 0})
		}
		groups = append(groups, rows)
	}
	unscaled := refSettings{method: engine.GRPO, scale: engine.ScaleNone, eps: 1e-4, weights: []float64{1, 1}}
	ts := matchTrajectories(map[int64][][][]float64{1: groups}, map[int64]refSettings{1: unscaled})
	c := trlComputer(t, false)
	m := MatchLogged(evaluateWith(c, ts), c.Options)
	if m.Found == nil || !slices.Equal(m.Found.Changes, []string{"--scale none"}) {
		t.Fatalf("found %+v", m.Found)
	}
	if d := m.Found.Overall.MaxAbsDiff; d <= Reproduces {
		t.Errorf("float32 rounding of values in the hundreds is only %g off: the test tests nothing", d)
	}
}

// TestLoggedWarningText checks the warning on a batch worked out by hand:
// scores 1, 3 in one group and 5, 5 in another, logged with TRL's
// scale_rewards="batch".
func TestLoggedWarningText(t *testing.T) {
	c, err := engine.New(setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x", Weight: ptr(1.0)}}, LoggedAdvantage: "adv"})
	if err != nil {
		t.Fatal(err)
	}
	// scale batch: the batch's sample std is sqrt(11/3) (mean 3.5,
	// squares 6.25 + 0.25 + 2.25 + 2.25 = 11), the group means 2 and 5.
	batch := 1 / (math.Sqrt(11.0/3) + 1e-4)
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g", "x", 1.0, "adv", -batch),
		enginetest.Traj(0, "g", "x", 3.0, "adv", batch),
		enginetest.Traj(0, "h", "x", 5.0, "adv", 0.0),
		enginetest.Traj(0, "h", "x", 5.0, "adv", 0.0),
	}
	ev := evaluateWith(c, ts)
	m := MatchLogged(ev, c.Options)
	// scale group gives -+1 / (sqrt 2 + 1e-4): 0.707056 against 0.522206.
	want := "2 of 4 rows differ from the logged advantage by more than 0.0001 (max |diff| 0.185) under grpo, scale group, epsilon 0.0001; `--scale batch` reproduces it to "
	if w := m.Warning(); !strings.HasPrefix(w, want) || !strings.HasSuffix(w, " (--match-logged applies it)") {
		t.Errorf("warning\n%q\nwant it to start with\n%q", w, want)
	}
	if d := m.Base.Overall.MaxAbsDiff; math.Abs(d-(1/(math.Sqrt2+1e-4)-batch)) > 1e-12 {
		t.Errorf("max |diff| %v", d)
	}
	if w := m.BatchWarning(0); !strings.HasSuffix(w, "; `--scale batch` reproduces this batch to 0") {
		t.Errorf("batch warning %q", w)
	}
	// Normalisation off (verl's norm_adv_by_std_in_grpo=False) is undone
	// by a flag of its own.
	unscaled := c.Options
	unscaled.Normalize = false
	if m := MatchLogged(ev, unscaled); m.Found == nil || !slices.Equal(m.Found.Changes, []string{"--no-normalize=false", "--scale batch"}) {
		t.Errorf("from --no-normalize, found %+v", m.Found)
	}
	// The method on screen is not the trainer's: the flags say grpo too.
	pareto := c.Options
	pareto.Method = engine.Pareto
	if m := MatchLogged(ev, pareto); !slices.Equal(m.Found.Changes, []string{"--method grpo", "--scale batch"}) {
		t.Errorf("from pareto, found %q", m.Found.Changes)
	}
}

// TestLoggedNothingFits logs advantages no trainer setting gives: the
// warning and --match-logged say so, and the options stay as given.
func TestLoggedNothingFits(t *testing.T) {
	batches := map[int64][][][]float64{1: matchBatch(1)}
	trl := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 1}}
	ts := matchTrajectories(batches, map[int64]refSettings{1: trl})
	for i := range ts {
		ts[i].Metadata["adv"] = ts[i].Metadata["adv"].(float64) * 1.5 // a scale no setting has
	}
	c := trlComputer(t, true)
	ev := evaluateWith(c, ts)
	m := MatchLogged(ev, c.Options)
	if m.Found != nil {
		t.Fatalf("found %q", m.Found.Changes)
	}
	// Weights 1 (as given) and 1/2; per weights grpo of scale group,
	// batch and group with the population std, with 3 epsilons and 2
	// groups of one, unscaled with 2, gdpo with 3 epsilons, rloo with 2,
	// grpo-passk with 3 epsilons and unnormalised, rpp-baseline,
	// rloo-whitened and gpg alone: 2 * 32; then the weights fitted under each scale and gdpo
	// (one or two candidates each, each rounded to 2, 3 and 4 digits; none
	// where the fit is nearly unscaled).
	if m.Tried <= 64 || m.Tried > 64+4*2*3 {
		t.Errorf("tried %d settings", m.Tried)
	}
	w := m.Warning()
	if !strings.Contains(w, " of 13 rows differ") || !strings.Contains(w, fmt.Sprintf("none of the %d trainer settings tried", m.Tried)) ||
		!strings.Contains(w, fmt.Sprintf("the closest being %s (max |diff| %s)", m.Closest.Flags(), shortNumber(m.Closest.Overall.MaxAbsDiff))) {
		t.Errorf("warning %q", w)
	}
	check := CheckTrainer(c, ev)
	if !reflectEqualOptions(check.Options, c.Options) || len(check.Notes) != 1 ||
		!check.Notes[0].Warning || !strings.HasPrefix(check.Notes[0].Text, "--match-logged: none of the") || !strings.HasSuffix(check.Notes[0].Text, "; computing with the settings as given") {
		t.Errorf("options %+v, notes %+v", check.Options, check.Notes)
	}
	// Without --match-logged, the note is the warning.
	check = CheckTrainer(trlComputer(t, false), ev)
	if len(check.Notes) != 1 || check.Notes[0] != (Note{Text: w, Warning: true}) {
		t.Errorf("notes %+v", check.Notes)
	}
}

func reflectEqualOptions(a, b engine.Options) bool {
	return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b)
}

// TestLoggedPerBatch logs one batch with scale batch and another with the
// settings as given: the batch warnings differ, and no one setting
// reproduces every row.
func TestLoggedPerBatch(t *testing.T) {
	trl := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 1}}
	batch := trl
	batch.scale = engine.ScaleBatch
	batches := map[int64][][][]float64{1: matchBatch(1), 2: matchBatch(2)}
	ts := matchTrajectories(batches, map[int64]refSettings{1: batch, 2: trl})
	c := trlComputer(t, false)
	m := MatchLogged(evaluateWith(c, ts), c.Options)
	if m.Found != nil {
		t.Errorf("found %q for the whole input", m.Found.Changes)
	}
	if w := m.BatchWarning(1); !strings.Contains(w, "; `--scale batch` reproduces this batch to ") {
		t.Errorf("step 1: %q", w)
	}
	if w := m.BatchWarning(2); w != "" {
		t.Errorf("step 2 agrees, yet %q", w)
	}
	// The run's warning names the step that differs and what reproduces
	// it, not a closest setting for the whole run.
	w := m.Warning()
	want := fmt.Sprintf(", in step 1 only; no one setting of the %d tried reproduces every step: `--scale batch` reproduces step 1 to ", m.Tried)
	if !strings.Contains(w, want) || !strings.HasSuffix(w, " (the settings changed during the run?)") || strings.Contains(w, "closest") {
		t.Errorf("warning %q\nwant %q in it", w, want)
	}
	// --match-logged computes with the settings as given, and says why.
	c = trlComputer(t, true)
	check := CheckTrainer(c, evaluateWith(c, ts))
	if !reflectEqualOptions(check.Options, c.Options) || len(check.Notes) != 1 ||
		check.Notes[0] != (Note{Text: "--match-logged: " + w + "; computing with the settings as given", Warning: true}) {
		t.Errorf("options %+v, notes %+v", check.Options, check.Notes)
	}
}

// TestLoggedStepsNamed: steps that differ each in its own way are named by
// ranges, grouped by the setting that reproduces them, and a step that no
// setting reproduces is said so.
func TestLoggedStepsNamed(t *testing.T) {
	trl := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 1}}
	batch, none := trl, trl
	batch.scale = engine.ScaleBatch
	none.scale = engine.ScaleNone
	batches := map[int64][][][]float64{}
	settings := map[int64]refSettings{1: trl, 2: batch, 3: batch, 5: none, 6: trl, 7: batch, 8: trl}
	for step := range settings {
		batches[step] = matchBatch(step)
	}
	ts := matchTrajectories(batches, settings)
	for i := range ts {
		if ts[i].Batch == 8 {
			ts[i].Metadata["adv"] = ts[i].Metadata["adv"].(float64) * 1.5 // a scale no setting has
		}
	}
	c := trlComputer(t, false)
	m := MatchLogged(evaluateWith(c, ts), c.Options)
	want := fmt.Sprintf(", in steps 2–3, 5, 7–8 only; no one setting of the %d tried reproduces every step: `--scale batch` reproduces steps 2–3, 7 to ", m.Tried)
	w := m.Warning()
	if !strings.Contains(w, want) || !strings.Contains(w, "; `--scale none` reproduces step 5 to ") ||
		!strings.HasSuffix(w, "; none reproduces step 8 (the settings changed during the run?)") {
		t.Errorf("warning %q\nwant %q in it", w, want)
	}
}

// TestLoggedStepNothingFits: one step of two logged at a scale no setting
// has: the warning names it, and that nothing tried reproduces its rows,
// without a closest for the run.
func TestLoggedStepNothingFits(t *testing.T) {
	trl := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 1}}
	ts := matchTrajectories(map[int64][][][]float64{1: matchBatch(1), 2: matchBatch(2)}, map[int64]refSettings{1: trl, 2: trl})
	for i := range ts {
		if ts[i].Batch == 2 {
			ts[i].Metadata["adv"] = ts[i].Metadata["adv"].(float64) * 1.5
		}
	}
	c := trlComputer(t, false)
	m := MatchLogged(evaluateWith(c, ts), c.Options)
	if w, want := m.Warning(), fmt.Sprintf(", in step 2 only; none of the %d trainer settings tried reproduces those rows", m.Tried); !strings.HasSuffix(w, want) {
		t.Errorf("warning %q\nwant it to end with %q", w, want)
	}
}

// TestLoggedClosestCloser: a row logged far from what any setting gives
// (1000 off) leaves every setting as far from the log as the settings
// as given: none is offered as the closest.
func TestLoggedClosestCloser(t *testing.T) {
	trl := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 1}}
	ts := matchTrajectories(map[int64][][][]float64{1: matchBatch(1)}, map[int64]refSettings{1: trl})
	ts[0].Metadata["adv"] = ts[0].Metadata["adv"].(float64) + 1000
	c := trlComputer(t, false)
	m := MatchLogged(evaluateWith(c, ts), c.Options)
	if m.Found != nil || m.Closest != nil {
		t.Fatalf("found %v, closest %v", m.Found, m.Closest)
	}
	if w := m.Warning(); !strings.Contains(w, " reproduces it, none closer than the settings as given: the logged advantage is not computed") {
		t.Errorf("warning %q", w)
	}
}

// TestMatchLoggedWithoutLog: no logged advantage, no comparison; asked to
// match, a warning.
func TestMatchLoggedWithoutLog(t *testing.T) {
	yes := true
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}}, MatchLogged: &yes})
	if err != nil {
		t.Fatal(err)
	}
	ev := evaluateWith(c, []scoring.Trajectory{enginetest.Traj(0, "g", "x", 1.0), enginetest.Traj(0, "g", "x", 2.0)})
	if m := MatchLogged(ev, c.Options); m != nil {
		t.Errorf("a match without a log: %+v", m)
	}
	check := CheckTrainer(c, ev)
	if check.Options.Method != engine.Pareto || len(check.Notes) != 1 || !strings.Contains(check.Notes[0].Text, "no logged advantage to match") {
		t.Errorf("%+v", check)
	}
}

// TestLoggedNoRow: a logged advantage that no row has is warned of.
func TestLoggedNoRow(t *testing.T) {
	c := trlComputer(t, false)
	ev := evaluateWith(c, []scoring.Trajectory{enginetest.Traj(0, "g", "a", 1.0, "b", 0.0), enginetest.Traj(0, "g", "a", 2.0, "b", 0.0, "adv", math.NaN())})
	check := CheckTrainer(c, ev)
	if len(check.Notes) != 1 || check.Notes[0] != (Note{Text: "no row has a logged advantage (a finite number): the rewards are compared with nothing", Warning: true}) {
		t.Errorf("notes %+v", check.Notes)
	}
}

// TestUnequalGroups checks the group sizes' warning: a batch of groups of
// 4 with a merged group of 8 and a partial one of 2, another batch even.
func TestUnequalGroups(t *testing.T) {
	var ts []scoring.Trajectory
	add := func(step int64, group string, n int) {
		for range n {
			ts = append(ts, enginetest.Traj(step, group, "x", 1.0))
		}
	}
	long := "system\nYou are a helpful assistant.\nuser\nWhat is 2+2?\x1b[31m\nassistant\n"
	add(1, "p0", 4)
	add(1, long, 8)
	add(1, "p2", 4)
	add(1, "p3", 2)
	add(1, "p4", 4)
	add(2, "p0", 4)
	add(2, "p1", 4)
	// A shared chat template: the values are shown from the line where
	// they part.
	add(3, "system\nT\nuser\nWhat is 1?", 4)
	add(3, "system\nT\nuser\nWhat is \x1b[2J?", 8)
	c := oneObjective(t, engine.DefaultOptions())
	c.EqualGroups = true
	ev := evaluateWith(c, ts)
	got := unequalGroupsOf(ev)
	if len(got) != 2 || got[0].Step != 1 || got[0].Size != 4 || got[0].Usual != 3 || got[0].Groups != 5 ||
		!slices.Equal(got[0].Odd, []GroupSize{{long, 8}, {"p3", 2}}) {
		t.Fatalf("%+v", got)
	}
	want := `step 1: groups of unequal size: 3 of 5 groups have 4 trajectories, "system\nYou are a helpful assistant.\nuser"… 8, "p3" 2 (a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)`
	if s := got[0].String(); s != want {
		t.Errorf("\n got %s\nwant %s", s, want)
	}
	want3 := `step 3: groups of unequal size, 2 sizes: 8 trajectories (1 group), 4 (1 group): …"What is 1?" 4, …"What is \x1b[2J?" 8 (a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)`
	if s := got[1].String(); s != want3 {
		t.Errorf("\n got %s\nwant %s", s, want3)
	}
	if check := CheckTrainer(c, ev); len(check.Notes) != 2 || check.Notes[0] != (Note{Text: want, Warning: true}) || check.Notes[1] != (Note{Text: want3, Warning: true}) {
		t.Errorf("notes %+v", check.Notes)
	}
	c.EqualGroups = false
	if check := CheckTrainer(c, ev); len(check.Notes) != 0 {
		t.Errorf("unchecked, notes %+v", check.Notes)
	}
}

// evaluateWith evaluates ts with c's scorer and logged advantage.
func evaluateWith(c *engine.RewardComputer, ts []scoring.Trajectory) *engine.Evaluation {
	e := c.NewEvaluator()
	e.Add(ts)
	return e.Evaluation()
}

// TestLoggedInvalidRowsLeftOut: an invalid row (logged 0, as TRL logs an
// unscorable completion) gets rewardlens's fill, its group's mean, which no
// setting changes: the settings are matched on the valid rows. Here the
// row is in verl's group of one, whose mean is its one reward.
func TestLoggedInvalidRowsLeftOut(t *testing.T) {
	verl := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-6, groupOfOneScore: true, weights: []float64{1, 1}}
	ts := matchTrajectories(map[int64][][][]float64{1: matchBatch(1)}, map[int64]refSettings{1: verl})
	ts = append(ts, enginetest.Traj(1, "p3", "adv", 0.0)) // no a nor b
	c := trlComputer(t, true)
	ev := evaluateWith(c, ts)
	m := MatchLogged(ev, c.Options)
	if m.Found == nil || !slices.Equal(m.Found.Changes, []string{"--epsilon 1e-06", "--group-of-one score"}) {
		t.Fatalf("found %+v", m.Found)
	}
	if fill := ev.Compute(CheckTrainer(c, ev).Options).Rewards[len(ts)-1]; math.Abs(fill-0.7/(1+1e-6)) > 1e-12 {
		t.Errorf("the invalid row's fill is %g, not its group's mean", fill)
	}
}

// TestDescribeSettings: the trainer agreement's warnings name the
// settings the method reads (engine.MethodSettings): gdpo not normalised
// says so; grpo not normalised is scale none, without an epsilon.
func TestDescribeSettings(t *testing.T) {
	for _, tc := range []struct {
		o    engine.Options
		want string
	}{
		{engine.Options{Method: engine.GRPO, Normalize: true}, "grpo, scale group, epsilon 0.0001"},
		{engine.Options{Method: engine.GRPO, Scale: engine.ScaleBatch, Epsilon: 1e-6}, "grpo, scale none"},
		{engine.Options{Method: engine.GRPO, Normalize: true, Epsilon: 1e-8, Std: engine.StdPopulation, GroupOfOne: engine.GroupOfOneScore},
			"grpo, scale group, epsilon 1e-08, population std, group of one score"},
		{engine.Options{Method: engine.GDPO, Normalize: true, GroupOfOne: engine.GroupOfOneScore}, "gdpo, epsilon 0.0001"},
		{engine.Options{Method: engine.GDPO}, "gdpo, normalize false, epsilon 0.0001"},
		{engine.Options{Method: engine.RLOO, Epsilon: 1e-6, GroupOfOne: engine.GroupOfOneScore}, "rloo, group of one score"},
		{engine.Options{Method: engine.GRPO, Normalize: true, NormalizeObjectives: engine.NormMinMax}, "grpo, scale group, epsilon 0.0001, objectives normalised by minmax"},
		{engine.Options{Method: engine.GRPO, Normalize: true, NormalizeObjectives: engine.NormNone}, "grpo, scale group, epsilon 0.0001"},
	} {
		if got := describeSettings(tc.o); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.o, got, tc.want)
		}
	}
}
