package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
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
	cfg := engine.Config{Objectives: []engine.ObjectiveConfig{
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
