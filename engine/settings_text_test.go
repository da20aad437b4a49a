package engine

import (
	"slices"
	"testing"
)

// TestMethodSettings: each method names the non-default settings it
// uses, and only those.
func TestMethodSettings(t *testing.T) {
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
		if got := o.MethodSettings(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.method, got, c.want)
		}
	}
	lex := Options{Method: Lexicographic, Normalize: true, Priority: []string{"a", "b"}, PriorityTolerance: map[string]float64{"b": 0.01}, NormalizeObjectives: NormRank}
	if got, want := lex.MethodSettings(), []string{"priority a, b (b to 0.01)", "objectives normalised by rank"}; !slices.Equal(got, want) {
		t.Errorf("lexicographic: %q, want %q", got, want)
	}
	d := DefaultOptions()
	d.Method = GRPO
	if got := d.MethodSettings(); got != nil {
		t.Errorf("grpo with the defaults: %q, want none", got)
	}
	// --no-normalize (verl's norm_adv_by_std_in_grpo=False): said, but
	// not for rloo, which it does not change.
	for _, m := range []Method{GRPO, Absolute, RLOO} {
		o := DefaultOptions()
		o.Method, o.Normalize = m, false
		want := []string{"normalize off"}
		if m == RLOO {
			want = nil
		}
		if got := o.MethodSettings(); !slices.Equal(got, want) {
			t.Errorf("%s, --no-normalize: %q, want %q", m, got, want)
		}
	}
}
