package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestStepsTabNonFinite: the dashboard opened on a verl run with a NaN
// score lists non_finite's ALERT at its step on the Steps tab (verl skips
// that step's update), and its header's badge alerts.
func TestStepsTabNonFinite(t *testing.T) {
	dir := t.TempDir()
	testfile.VerlNaNSteps(t, dir)
	cfg, sentence, _, err := layouts.Apply(context.Background(), setup.Config{}, []string{dir}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	app := loadModel(t, streamedInput(t, cfg, sentence, dir), 160)
	press(app, "6")
	var alert bool
	for _, f := range app.Session().Findings() {
		alert = alert || f.Check == health.CheckNonFinite && f.Step == 3 && f.Level == health.Alert
	}
	if !alert {
		t.Errorf("no non_finite ALERT at step 3 under verl: %+v", app.Session().Findings())
	}
	view := screen(app)
	if !strings.Contains(view, "✖ step 3 non_finite: 1 row of 16 with a score not finite (1 NaN)") {
		t.Errorf("the Steps tab does not list non_finite's ALERT at step 3:\n%s", view)
	}
	if header := strings.Split(view, "\n")[0]; !strings.Contains(header, "alert") {
		t.Errorf("the header's badge does not alert: %q", header)
	}
}
