package engine

import (
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

func TestParetoScorerPick(t *testing.T) {
	for _, c := range []struct {
		exprs []string
		keys  []string // nil: no pick
	}{
		{[]string{`metadata["a"]`, `metadata.b`, `c`, `metadata["a"]`}, []string{"a", "b", "c"}},
		{[]string{`metadata["a b"]`}, []string{"a b"}},
		{[]string{`metadata.a`, `metadata.b * 2`}, nil},
		{[]string{`metadata.a`, `step_count`}, nil},
		{[]string{`metadata?.a`}, nil},
		{[]string{`$env.a`}, nil},
	} {
		objs := make([]scoring.ObjectiveExpr, len(c.exprs))
		for k, e := range c.exprs {
			objs[k] = scoring.ObjectiveExpr{Name: string(rune('p' + k)), Expr: e, Weight: math.NaN()}
		}
		s, err := scoring.NewParetoScorer(objs)
		if err != nil {
			t.Fatal(err)
		}
		pick := s.Pick()
		switch {
		case c.keys == nil && pick != nil:
			t.Errorf("%q: Pick() = %q, want nil", c.exprs, pick.Keys)
		case c.keys != nil && (pick == nil || !slices.Equal(pick.Keys, c.keys)):
			t.Errorf("%q: Pick() = %v, want keys %q", c.exprs, pick, c.keys)
		}
	}
}

// picked returns t read with pick: its metadata values of pick's keys as a
// loader picks them.
func picked(t scoring.Trajectory, pick *scoring.Pick) scoring.Trajectory {
	t.Pick, t.Picked = pick, make([]scoring.PickedValue, len(pick.Keys))
	for k, key := range pick.Keys {
		switch x := t.Metadata[key].(type) {
		case nil:
		case float64:
			t.Picked[k] = scoring.PickedValue{Number: x, Kind: scoring.PickedNumber}
		case bool: // counts 1 or 0
			t.Picked[k] = scoring.PickedValue{Kind: scoring.PickedNumber}
			if x {
				t.Picked[k].Number = 1
			}
		default:
			t.Picked[k] = scoring.PickedValue{Kind: scoring.PickedOther}
		}
	}
	t.Metadata = nil
	return t
}

// TestPickedEvaluate checks that the scorer evaluates a trajectory read
// with its Pick as it does with the whole metadata: values bit for bit
// and the same errors, for every kind of metadata value.
func TestPickedEvaluate(t *testing.T) {
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{
		{Name: "a", Expr: `metadata["a"]`, Weight: math.NaN()},
		{Name: "b", Expr: `b`, Weight: math.NaN()},
		{Name: "a2", Expr: `metadata.a`, Weight: math.NaN()},
	})
	if err != nil {
		t.Fatal(err)
	}
	pick := s.Pick()
	values := []any{0.25, math.Copysign(0, -1), 1e308, math.Inf(1), math.NaN(), "0.5", true, false, nil}
	for _, a := range append(values, "absent") {
		for _, b := range append(values, "absent") {
			md := map[string]any{"other": 1.0}
			if a != "absent" {
				md["a"] = a
			}
			if b != "absent" {
				md["b"] = b
			}
			full := scoring.Trajectory{ID: "t", Metadata: md}
			want, got := make([]float64, 3), make([]float64, 3)
			wantErr := s.Evaluate(&full, want)
			// The scorer's own pick, and another that names the keys in
			// another order, with an extra one.
			for _, pk := range []*scoring.Pick{pick, {Keys: []string{"x", "b", "a"}}} {
				p := picked(full, pk)
				gotErr := s.Evaluate(&p, got)
				if !enginetest.SameBits(got, want) || errText(gotErr) != errText(wantErr) {
					t.Errorf("a=%v b=%v, keys %q: picked %v (%v), whole metadata %v (%v)", a, b, pk.Keys, got, gotErr, want, wantErr)
				}
			}
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestRewardComputerPick: a computer picks its scorer's keys, unless the
// logged advantage's expression reads more of the record or the scorer
// has no pick (svrl).
func TestRewardComputerPick(t *testing.T) {
	objs := []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "b"}}
	for _, c := range []struct {
		cfg  setup.Config
		keys []string // nil: no pick
	}{
		{setup.Config{Objectives: objs}, []string{"a", "b"}},
		{setup.Config{Objectives: objs, LoggedAdvantage: "advantage"}, nil},
		{setup.Config{Computer: "svrl"}, nil},
	} {
		computer, err := New(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		pick := computer.Pick()
		switch {
		case c.keys == nil && pick != nil:
			t.Errorf("%+v: Pick() = %q, want nil", c.cfg, pick.Keys)
		case c.keys != nil && (pick == nil || !slices.Equal(pick.Keys, c.keys)):
			t.Errorf("%+v: Pick() = %v, want keys %q", c.cfg, pick, c.keys)
		}
	}
}
