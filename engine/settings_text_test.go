package engine

import (
	"slices"
	"testing"
)

// TestChangedSettings: each method names the non-default settings it
// uses, and only those.
func TestChangedSettings(t *testing.T) {
	verl := Options{Scale: ScaleBatch, Epsilon: 1e-6, GroupOfOne: GroupOfOneScore, Normalize: true}
	cases := []struct {
		method Method
		want   []string
	}{
		{GRPO, []string{"scale batch", "epsilon 1e-06", "a group of one: score"}},
		{GDPO, []string{"epsilon 1e-06"}},
		{RLOO, []string{"a group of one: score"}},
		{Pareto, nil},
		{Absolute, nil},
	}
	for _, c := range cases {
		o := verl
		o.Method = c.method
		if got := o.ChangedSettings(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.method, got, c.want)
		}
	}
	lex := Options{Method: Lexicographic, Normalize: true, Priority: []string{"a", "b"}, PriorityTolerance: map[string]float64{"b": 0.01}, NormalizeObjectives: NormRank}
	if got, want := lex.ChangedSettings(), []string{"priority a, b (b to 0.01)", "objectives normalised by rank"}; !slices.Equal(got, want) {
		t.Errorf("lexicographic: %q, want %q", got, want)
	}
	d := DefaultOptions()
	d.Method = GRPO
	if got := d.ChangedSettings(); got != nil {
		t.Errorf("grpo with the defaults: %q, want none", got)
	}
	// --no-normalize (verl's norm_adv_by_std_in_grpo=False): said, as
	// scale none under grpo, but not for rloo, which it does not change.
	for _, m := range []Method{GRPO, Absolute, GDPO, RLOO} {
		o := DefaultOptions()
		o.Method, o.Normalize = m, false
		want := []string{"normalize off"}
		switch m {
		case GRPO:
			want = []string{"scale none"}
		case RLOO:
			want = nil
		}
		if got := o.ChangedSettings(); !slices.Equal(got, want) {
			t.Errorf("%s, --no-normalize: %q, want %q", m, got, want)
		}
	}
}

// TestChangedSettingsUnscaledGRPO: grpo under scale none, or not
// normalised, divides by nothing: its epsilon and std are not said, nor a
// scale it does not apply.
func TestChangedSettingsUnscaledGRPO(t *testing.T) {
	o := Options{Method: GRPO, Scale: ScaleNone, Normalize: true, Epsilon: 1e-8, Std: StdPopulation}
	if got, want := o.ChangedSettings(), []string{"scale none"}; !slices.Equal(got, want) {
		t.Errorf("scale none: %q, want %q", got, want)
	}
	o.Scale, o.Normalize = ScaleBatch, false
	if got, want := o.ChangedSettings(), []string{"scale none"}; !slices.Equal(got, want) {
		t.Errorf("scale batch, not normalised: %q, want %q", got, want)
	}
}

// TestMethodSettings: each method reads the settings its formula has,
// with the defaults for those left unset.
func TestMethodSettings(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		o    Options
		want MethodSettings
	}{
		{Options{Method: GRPO, Normalize: true}, MethodSettings{Scale: ScaleGroup, Epsilon: DefaultEpsilon, Std: StdSample, GroupOfOne: GroupOfOneZero}},
		{Options{Method: GRPO, Scale: ScaleBatch, Epsilon: 1e-6, Std: StdPopulation, GroupOfOne: GroupOfOneScore}, MethodSettings{Scale: ScaleNone, GroupOfOne: GroupOfOneScore}},
		// Under scope batch the group is the batch: its scale batch is group's.
		{Options{Method: GRPO, Normalize: true, Scope: ScopeBatch, Scale: ScaleBatch}, MethodSettings{Scale: ScaleGroup, Epsilon: DefaultEpsilon, Std: StdSample, GroupOfOne: GroupOfOneZero}},
		{Options{Method: GDPO, Epsilon: 1e-6, Std: StdPopulation, GroupOfOne: GroupOfOneScore}, MethodSettings{Normalize: &no, Epsilon: 1e-6, Std: StdPopulation}},
		{Options{Method: RLOO, Scale: ScaleBatch, Epsilon: 1e-6}, MethodSettings{GroupOfOne: GroupOfOneZero}},
		{Options{Method: Pareto, Normalize: true, Epsilon: 1e-6, GroupOfOne: GroupOfOneScore}, MethodSettings{Normalize: &yes}},
		// grpo-passk divides by the group's std only when normalised.
		{Options{Method: GRPOPassK, Normalize: true, Epsilon: 1e-6, GroupOfOne: GroupOfOneScore}, MethodSettings{Normalize: &yes, Epsilon: 1e-6, Std: StdSample}},
		{Options{Method: GRPOPassK, Epsilon: 1e-6, Std: StdPopulation}, MethodSettings{Normalize: &no}},
		// The trainers fix what these divide by, or they divide by nothing.
		{Options{Method: RPPBaseline, Normalize: true, Epsilon: 1e-6, GroupOfOne: GroupOfOneScore}, MethodSettings{}},
		{Options{Method: RLOOWhitened, Normalize: true, Epsilon: 1e-6, Std: StdPopulation}, MethodSettings{}},
		{Options{Method: GPG, Scale: ScaleBatch, Epsilon: 1e-6, GroupOfOne: GroupOfOneScore}, MethodSettings{}},
	}
	for _, c := range cases {
		got := c.o.MethodSettings()
		if (got.Normalize == nil) != (c.want.Normalize == nil) || got.Normalize != nil && *got.Normalize != *c.want.Normalize {
			t.Errorf("%s: normalize %v, want %v", c.o.Method, got.Normalize, c.want.Normalize)
		}
		got.Normalize, c.want.Normalize = nil, nil
		if got != c.want {
			t.Errorf("%s: %+v, want %+v", c.o.Method, got, c.want)
		}
	}
}
