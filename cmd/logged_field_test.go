package cmd

import (
	"errors"
	"math"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestCheckLoggedFieldMessage checks checkLoggedField on the computer's
// compiled logged advantage: a user's error (exit 2) that names the
// expression as given, each field the first records lack (not the
// trajectory's own fields) and the nearest field; nothing to say without
// a logged advantage, when a row has a finite one, or when the records
// have every field it reads.
func TestCheckLoggedFieldMessage(t *testing.T) {
	compile := func(src string) *scoring.Expression {
		e, err := scoring.CompileExpression("logged_advantage", src)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	nothingLogged := &engine.Evaluation{Logged: []float64{math.NaN(), math.NaN()}}
	fields := []string{"adv", "bias", "x"}
	err := checkLoggedField(compile("metadata.avd * (done ? 1 : 0) + metadata.bais"), nothingLogged, fields)
	want := `logged advantage "metadata.avd * (done ? 1 : 0) + metadata.bais": the first records have no field avd, bais; did you mean adv or bias? (give --logged-advantage FIELD or EXPR)`
	var ie inputError
	if err == nil || err.Error() != want || !errors.As(err, &ie) {
		t.Errorf("misnamed fields: %v (%T)\nwant the user's error %s", err, err, want)
	}
	for _, tc := range []struct {
		name   string
		logged *scoring.Expression
		ev     *engine.Evaluation
	}{
		{"no logged advantage", nil, nothingLogged},
		{"a row logged", compile("metadata.avd"), &engine.Evaluation{Logged: []float64{math.NaN(), 0.5}}},
		{"the fields there", compile("adv + bias"), nothingLogged},
	} {
		if err := checkLoggedField(tc.logged, tc.ev, fields); err != nil {
			t.Errorf("%s: %v, want nil", tc.name, err)
		}
	}
}
