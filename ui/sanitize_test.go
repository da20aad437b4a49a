package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestDataIsSanitised opens a source and objectives whose names carry
// escape sequences and wide characters: none of the sequences may reach the
// screen (the correlation grid's alignment: TestCorrelationGridAligned in
// ui/pages/objectives).
func TestDataIsSanitised(t *testing.T) {
	ts := make([]scoring.Trajectory, 16)
	for i := range ts {
		ts[i] = scoring.Trajectory{
			ID:       strings.Repeat("x", i),
			Group:    "g\x1b[2J",
			Metadata: map[string]any{"a": float64(i % 4), "b": float64(i % 3)},
		}
	}
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{
		{Name: "精度", Expr: "metadata.a"},
		{Name: "evil\x1b]0;pwned\x07", Expr: "metadata.b"},
	}}
	s, err := session.Open("runs\x1b[2J.jsonl", cfg, &loaders.Result{Trajectories: ts}, []string{"warning \x1b]52;c;AA==\x07"})
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, tab := range []string{"1", "2"} {
		press(m, tab, "w")
		v := m.View().Content
		for _, seq := range []string{"\x1b[2J", "\x1b]"} {
			if strings.Contains(v, seq) {
				t.Errorf("tab %s lets %q through:\n%q", tab, seq, v)
			}
		}
		press(m, "esc")
	}
}

// TestColouredScreensShowNoEscapedStyle: in colour, with a constraint
// (whose rows style "no"), no screen of any tab, nor the Pareto tab's
// panel on an infeasible point, nor a trajectory's detail, shows one of
// the dashboard's own styles escaped as text ("\x1b[...", the escape of
// textsafe): a styled value cut by a function that makes data safe.
func TestColouredScreensShowNoEscapedStyle(t *testing.T) {
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) { cfg.Constraints = []string{"safety >= 0.9"} })
	m := NewModel(s, false)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
	m.Settle()
	check := func(where string) {
		t.Helper()
		if v := m.View().Content; strings.Contains(v, `\x1b`) {
			t.Errorf("%s shows an escaped style:\n%s", where, v)
		}
	}
	for _, tab := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
		press(m, tab)
		check("tab " + tab)
	}
	press(m, "4")
	for range 40 { // through the group's points, infeasible ones among them
		press(m, "right")
		check("the Pareto panel")
	}
	press(m, "5", "enter")
	check("a trajectory's detail")
}
