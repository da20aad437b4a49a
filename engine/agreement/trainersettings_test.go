package agreement

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestTriesMethodPerLayout: a trainer's layout tries the methods whose
// MethodSpec.Trainers name that trainer, rows of no trainer's layout every
// method a trainer computes.
func TestTriesMethodPerLayout(t *testing.T) {
	for _, tc := range []struct {
		layout string
		want   []engine.Method
	}{
		{"verl", []engine.Method{engine.GRPO, engine.RLOO, engine.RPPBaseline, engine.GRPOPassK, engine.GPG}},
		{"trl", []engine.Method{engine.GRPO, engine.RLOO, engine.GDPO, engine.RLOOWhitened}},
		{"open-instruct", []engine.Method{engine.GRPO}},
		{"plain", []engine.Method{engine.GRPO, engine.RLOO, engine.GDPO, engine.RPPBaseline, engine.RLOOWhitened, engine.GRPOPassK, engine.GPG}},
		{"", []engine.Method{engine.GRPO, engine.RLOO, engine.GDPO, engine.RPPBaseline, engine.RLOOWhitened, engine.GRPOPassK, engine.GPG}},
	} {
		m := &Match{layout: tc.layout}
		var got []engine.Method
		for _, method := range engine.AllMethods() {
			if len(engine.Spec(method).Trainers) > 0 && m.triesMethod(method) {
				got = append(got, method)
			}
		}
		slices.Sort(got)
		slices.Sort(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("layout %q tries %v, want %v", tc.layout, got, tc.want)
		}
	}
}

// TestLayoutTriesItsTrainersSettings: a log that TRL's scale batch
// reproduces, read as another trainer's layout, is never said to be
// reproduced by a setting that trainer lacks, and no setting tried for a
// trainer's layout is one its trainer lacks (as read in its code: verl's
// compute_grpo_outcome_advantage divides by torch.std + 1e-6 or by
// nothing, and gives a group of one mean 0, std 1; TRL divides by nanstd
// + 1e-4 of the group or the batch; open-instruct by numpy's std + 1e-8 or
// by nothing).
func TestLayoutTriesItsTrainersSettings(t *testing.T) {
	type has struct {
		methods     []engine.Method
		scales      []engine.Scale
		stds        []engine.Std
		epsilons    []float64
		groupsOfOne []engine.GroupOfOne
	}
	for _, tc := range []struct {
		layout string
		base   engine.Options
		has    has
	}{
		{"verl", engine.Options{Method: engine.GRPO, Normalize: true, Scale: engine.ScaleGroup, Epsilon: 1e-6, GroupOfOne: engine.GroupOfOneScore},
			has{[]engine.Method{engine.GRPO, engine.RLOO, engine.RPPBaseline, engine.GRPOPassK, engine.GPG}, []engine.Scale{engine.ScaleGroup, engine.ScaleNone}, []engine.Std{engine.StdSample}, []float64{1e-6}, []engine.GroupOfOne{engine.GroupOfOneScore}}},
		{"trl", engine.Options{Method: engine.GRPO, Normalize: true, Scale: engine.ScaleGroup, Epsilon: 1e-4},
			has{[]engine.Method{engine.GRPO, engine.GDPO, engine.RLOO, engine.RLOOWhitened}, []engine.Scale{engine.ScaleGroup, engine.ScaleBatch, engine.ScaleNone}, []engine.Std{engine.StdSample}, []float64{1e-4}, []engine.GroupOfOne{engine.GroupOfOneZero}}},
		{"open-instruct", engine.Options{Method: engine.GRPO, Normalize: true, Scale: engine.ScaleNone},
			has{[]engine.Method{engine.GRPO}, []engine.Scale{engine.ScaleGroup, engine.ScaleNone}, []engine.Std{engine.StdPopulation}, []float64{1e-8}, []engine.GroupOfOne{engine.GroupOfOneZero}}},
	} {
		t.Run(tc.layout, func(t *testing.T) {
			logged := refSettings{method: engine.GRPO, scale: engine.ScaleBatch, eps: 1e-4, weights: []float64{1, 1}}
			ts := matchTrajectories(map[int64][][][]float64{1: matchBatch(1), 2: matchBatch(2)}, map[int64]refSettings{1: logged, 2: logged})
			c := trlComputer(t, true)
			ev := evaluateWith(c, ts)
			base := tc.base
			base.Weights = []float64{1, 1}
			if found := MatchLogged(ev, base).Found; found == nil || !slices.Contains(found.Changes, "--scale batch") {
				t.Fatalf("rows of no layout: found %+v, want --scale batch", found)
			}
			// Whether the trainer lacks a setting of o that o's method reads,
			// the settings as given apart.
			lacks := func(o engine.Options) bool {
				e := effectiveSettings(o, ev.Objectives)
				return !slices.Contains(tc.has.methods, e.Method) ||
					e.Scale != "" && !slices.Contains(tc.has.scales, e.Scale) ||
					e.Std != "" && !slices.Contains(tc.has.stds, e.Std) && e.Std != cmp.Or(base.Std, engine.StdSample) ||
					e.Epsilon != 0 && !slices.Contains(tc.has.epsilons, e.Epsilon) && e.Epsilon != base.EpsilonOrDefault() ||
					e.GroupOfOne != "" && !slices.Contains(tc.has.groupsOfOne, e.GroupOfOne) && e.GroupOfOne != cmp.Or(base.GroupOfOne, engine.GroupOfOneZero)
			}
			m := MatchLoggedFrom(ev, base, tc.layout, scoring.Uncapped, nil)
			if m.Found != nil && lacks(m.Found.Options) {
				t.Errorf("found %q (%s), which %s lacks", m.Found.Changes, describeSettings(m.Found.Options), tc.layout)
			}
			if m.Tried < 2 {
				t.Fatalf("tried %d settings", m.Tried)
			}
			for _, f := range m.fits[1:] {
				if lacks(f.Options) {
					t.Errorf("tried %q (%s), which %s lacks", f.Changes, describeSettings(f.Options), tc.layout)
				}
			}
		})
	}
}

// TestSettingValuesOfTheirMethodsTrainers: a value of trainerSettings that
// sets a method names only trainers that compute that method
// (MethodSpec.Trainers).
func TestSettingValuesOfTheirMethodsTrainers(t *testing.T) {
	for _, row := range trainerSettings {
		for _, value := range row.values {
			method := value.method()
			if method == "" {
				continue
			}
			for _, trainer := range value.trainers {
				if !engine.Spec(method).ComputedBy(trainer) {
					t.Errorf("a value of %s names %s, which does not compute it", method, trainer)
				}
			}
		}
	}
}

// TestSettingsTriedPerLayout: the list of settings tried that the warnings
// write names, for a trainer's layout, what that trainer has alone.
func TestSettingsTriedPerLayout(t *testing.T) {
	for layout, want := range map[string]string{
		"verl":          "scale, rloo, rpp-baseline, grpo-passk, gpg, epsilon, group of one, weights, weights fitted to the log",
		"trl":           "scale, gdpo, rloo, rloo-whitened, epsilon, group of one, weights, weights fitted to the log",
		"open-instruct": "scale, group of one, weights, weights fitted to the log",
		"plain":         "scale, gdpo, rloo, rpp-baseline, rloo-whitened, grpo-passk, gpg, epsilon, group of one, weights, weights fitted to the log",
	} {
		if got := (&Match{layout: layout}).settingsTried(); got != want {
			t.Errorf("%s: %q, want %q", layout, got, want)
		}
	}
}

// TestEffectiveSettingsFollowTheRewards: for each method, two settings
// that differ in one option compare equal (settingsKey) exactly when the
// method computes the same rewards under both (on two batches of three
// groups of four and a group of one, of small spread, so that every
// epsilon shows): an option the method does not read
// (engine.MethodSpec's ReadsScale, Divides, Unnormalised, ReadsGroupOfOne)
// is no other setting to try.
func TestEffectiveSettingsFollowTheRewards(t *testing.T) {
	logged := refSettings{method: engine.GRPO, scale: engine.ScaleGroup, eps: 1e-4, weights: []float64{1, 1}}
	ts := matchTrajectories(map[int64][][][]float64{1: matchBatch(1), 2: matchBatch(2)}, map[int64]refSettings{1: logged, 2: logged})
	c := trlComputer(t, false)
	ev := evaluateWith(c, ts)
	changes := []struct {
		name   string
		change func(*engine.Options)
	}{
		{"scale batch", func(o *engine.Options) { o.Scale = engine.ScaleBatch }},
		{"scale none", func(o *engine.Options) { o.Scale = engine.ScaleNone }},
		{"normalize off", func(o *engine.Options) { o.Normalize = !o.Normalize }},
		{"epsilon 1e-6", func(o *engine.Options) { o.Epsilon = 1e-6 }},
		{"population std", func(o *engine.Options) { o.Std = engine.StdPopulation }},
		{"group of one score", func(o *engine.Options) { o.GroupOfOne = engine.GroupOfOneScore }},
	}
	for _, method := range engine.AllMethods() {
		for _, normalize := range []bool{true, false} {
			base := engine.DefaultOptions()
			base.Method, base.Normalize, base.Priority, base.Weights = method, normalize, []string{"a"}, []float64{1, 1}
			for _, ch := range changes {
				o := base
				ch.change(&o)
				sameRewards := slices.Equal(ev.Compute(base).Rewards, ev.Compute(o).Rewards)
				sameKey := settingsKey(base, ev.Objectives) == settingsKey(o, ev.Objectives)
				if sameRewards != sameKey {
					t.Errorf("%s, normalize %v, %s: the same rewards %v, the same settings %v", method, normalize, ch.name, sameRewards, sameKey)
				}
			}
		}
	}
}

// TestVerlGRPOPassKUnnormalised: verl's compute_grpo_passk_outcome_advantage
// reads norm_adv_by_std_in_grpo from its config, and with False leaves the
// best's margin over the second unscaled. A verl dump of such a run is
// reproduced by --method grpo-passk --no-normalize. The logged values are
// those verl's own function gives (float32) for scores a + b.
func TestVerlGRPOPassKUnnormalised(t *testing.T) {
	a := [][]float64{{0.9, 0.5, 0.3, 0.1}, {0.2, 0.6, 0.8, 0.4}, {0.7, 0.2, 0.35, 0.1}}
	b := [][]float64{{0.1, 0.2, 0.0, 0.4}, {0.2, 0.3, 0.0, 0.1}, {0.05, 0.6, 0.15, 0.1}}
	logged := [][]float64{
		{0.30000001192092896, 0, 0, 0},
		{0, 0.09999996423721313, 0, 0},
		{0, 0.050000011920928955, 0, 0},
	}
	var ts []scoring.Trajectory
	for g := range a {
		for i := range a[g] {
			ts = append(ts, enginetest.Traj(1, fmt.Sprintf("p%d", g), "a", a[g][i], "b", b[g][i], "adv", logged[g][i]))
		}
	}
	c := trlComputer(t, true)
	ev := evaluateWith(c, ts)
	verlBase := engine.Options{Method: engine.GRPO, Normalize: true, Scale: engine.ScaleGroup, Epsilon: 1e-6, GroupOfOne: engine.GroupOfOneScore, Weights: []float64{1, 1}}
	m := MatchLoggedFrom(ev, verlBase, "verl", scoring.Uncapped, nil)
	if m.Found == nil || !slices.Equal(m.Found.Changes, []string{"--method grpo-passk", "--no-normalize"}) {
		t.Fatalf("found %+v, want --method grpo-passk --no-normalize", m.Found)
	}
	if res := ev.Compute(m.Found.Options); res.Options.Normalize {
		t.Errorf("computed normalised: %+v", res.Options)
	}
}
