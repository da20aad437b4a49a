package health

import (
	"math"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// evaluateX computes ts with the one objective x = metadata x under GRPO.
func evaluateX(t *testing.T, ts []scoring.Trajectory) (*engine.Result, scoring.Scorer) {
	t.Helper()
	s, err := scoring.NewParetoScorer([]scoring.ObjectiveExpr{{Name: "x", Expr: "x", Weight: math.NaN()}})
	if err != nil {
		t.Fatal(err)
	}
	return engine.Evaluate(s, ts).Compute(engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Scale: engine.ScaleGroup, Normalize: true}), s
}

// batchOfValidity returns trajectories of batch step whose metadata x is
// 1 for each true of valid, missing for each false, in three groups.
func batchOfValidity(step int64, valid ...bool) []scoring.Trajectory {
	var ts []scoring.Trajectory
	for i, v := range valid {
		tr := scoring.Trajectory{Batch: step, Group: string(rune('a' + i%3)), Done: true, Metadata: map[string]any{}}
		if v {
			tr.Metadata["x"] = float64(i)
		}
		ts = append(ts, tr)
	}
	return ts
}

// validity returns n flags, the first invalid false.
func validity(n, invalid int) []bool {
	v := make([]bool, n)
	for i := invalid; i < n; i++ {
		v[i] = true
	}
	return v
}

// TestInvalidFractionCheck runs the health checks on real batches: 20%
// invalid is a WARN, 60% an ALERT, all invalid an ALERT (never healthy),
// 10% nothing; each reported at its first step, like the other checks.
func TestInvalidFractionCheck(t *testing.T) {
	var ts []scoring.Trajectory
	for step, invalid := range []int{0, 1, 2, 2, 6, 10, 0} { // of 10
		ts = append(ts, batchOfValidity(int64(step), validity(10, invalid)...)...)
	}
	res, _ := evaluateX(t, ts)
	trends := diagnose.Trends(res, nil)
	var got []Finding
	for _, f := range Findings(res, trends, Config{}) {
		if f.Check == CheckInvalidFraction {
			got = append(got, f)
		}
	}
	if len(got) != 2 {
		t.Fatalf("findings %+v, want a WARN at step 2 and an ALERT at step 4", got)
	}
	if w := got[0]; w.Level != Warn || w.Step != 2 || w.Value != 0.2 || w.Threshold != 0.1 ||
		w.Message != "2 of 10 trajectories invalid (20%), mostly x: missing (2)" {
		t.Errorf("WARN: %+v", w)
	}
	if a := got[1]; a.Level != Alert || a.Step != 4 || a.Value != 0.6 || a.Threshold != 0.5 {
		t.Errorf("ALERT: %+v", a)
	}
	// Per step, as stats --follow reports them.
	for b, want := range []Level{0, 0, Warn, Warn, Alert, Alert, 0} {
		var level Level
		for _, f := range StepFindings(res, trends, Config{}, b) {
			if f.Check == CheckInvalidFraction {
				level = f.Level
			}
		}
		if level != want {
			t.Errorf("step %d: invalid_fraction level %v, want %v", b, level, want)
		}
	}

	// A run whose every batch is invalid is never healthy.
	ts = nil
	for step := range 5 {
		ts = append(ts, batchOfValidity(int64(step), validity(8, 8)...)...)
	}
	res, _ = evaluateX(t, ts)
	trends = diagnose.Trends(res, nil)
	findings := Findings(res, trends, Config{})
	if !slices.ContainsFunc(findings, func(f Finding) bool {
		return f.Check == CheckInvalidFraction && f.Level == Alert && f.Step == 0 && f.Value == 1
	}) {
		t.Errorf("all invalid: findings %+v, want invalid_fraction ALERT at step 0", findings)
	}
	for b := range trends {
		if len(StepFindings(res, trends, Config{}, b)) == 0 {
			t.Errorf("all invalid: step %d has no finding", b)
		}
	}
}
