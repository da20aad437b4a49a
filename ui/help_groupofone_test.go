package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
)

// TestHelpGivesTheGroupOfOneInForce: on verl's dumps (a group of one:
// score), the help's grpo and rloo entries say what a group of one gets
// under that convention, as the status line and the rewards do, not the
// default's 0.
func TestHelpGivesTheGroupOfOneInForce(t *testing.T) {
	app := loadModel(t, streamedInput(t, sampletest.VerlConfig(), sampletest.VerlLayout, verlFixture), 200)
	app.Update(tea.WindowSizeMsg{Width: 200, Height: 70})
	settle(app)
	press(app, "m", "?") // rloo
	if line := app.status.View(app.common.Styles, 400); !strings.Contains(line, "rloo: a group of one: score") {
		t.Fatalf("the status line: %q", line)
	}
	// The help's text, its box and the wrapping of its lines undone.
	help := strings.Join(strings.Fields(strings.ReplaceAll(screen(app), "│", " ")), " ")
	for method, want := range map[engine.Method]string{
		engine.GRPO: "; n = 1: mean 0, std1 1 (a group of one: score)",
		engine.RLOO: "s minus the mean of the others; s when n = 1 (a group of one: score)",
	} {
		formula := engine.Spec(method).Formula(app.Session().Result.Options)
		if !strings.HasSuffix(formula, want) || !strings.Contains(help, string(method)+" "+formula) {
			t.Errorf("the help's %s entry: want %q, ending %q, in\n%s", method, formula, want, help)
		}
	}
	if strings.Contains(help, "0 when n = 1") {
		t.Errorf("the help gives the default's group of one:\n%s", help)
	}
}
