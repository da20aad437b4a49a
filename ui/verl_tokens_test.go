package ui

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
)

// TestVerlRPPBaselineStatusWarns: a verl dump opened under rpp-baseline,
// with the layout's warnings as the CLI gives them, says in the status
// line that verl weighs each response by its token count, which the dump
// lacks; under gdpo, that verl's gdpo is another; switched to another
// method it says so no more.
func TestVerlRPPBaselineStatusWarns(t *testing.T) {
	for _, c := range []struct {
		method engine.Method
		want   string
	}{
		{engine.RPPBaseline, "verl's rpp-baseline weighs each response by its token count"},
		{engine.GDPO, "verl's gdpo (compute_gdpo_outcome_advantage) is not the gdpo computed here"},
	} {
		cfg := sampletest.VerlConfig()
		cfg.Method = string(c.method)
		in := streamedInput(t, cfg, sampletest.VerlLayout, "../cmd/testdata/walk8/verl_rpp")
		in.LayoutWarnings = func(rowCap scoring.RowCap, linesLeftOut map[int64]string) func(*engine.Result, []int) []string {
			return layouts.Warnings(cfg, rowCap, linesLeftOut)
		}
		in.LayoutWarningsRead = layouts.WarningsRead(cfg)
		app := loadModel(t, in, 120)
		app.Settle()
		if line := app.status.View(app.common.Styles, 1000); !strings.Contains(line, c.want) {
			t.Errorf("%s: the status line does not say %q: %q", c.method, c.want, line)
		}
		for app.Session().Result.Options.Method == c.method {
			press(app, "m")
			app.Settle()
		}
		if line := app.status.View(app.common.Styles, 1000); strings.Contains(line, c.want) {
			t.Errorf("under %s the status line still says %q: %q", app.Session().Result.Options.Method, c.want, line)
		}
	}
}
