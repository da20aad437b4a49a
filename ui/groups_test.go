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

// TestGroupsLongPrompt shows a long prompt shortened in the list and whole
// (wrapped) in the group, and each completion on one line.
func TestGroupsLongPrompt(t *testing.T) {
	prompt := "Solve: a train leaves at noon at 60 km/h and another at one o'clock at 80 km/h; when does the second catch up?"
	var ts []scoring.Trajectory
	for i := range 4 {
		ts = append(ts, scoring.Trajectory{ID: string(rune('a' + i)), Group: prompt, Done: true,
			Response: []byte(`"first line ` + string(rune('a'+i)) + `\nhidden"`), Metadata: map[string]any{"x": float64(i)}})
	}
	s, err := session.Open("long", engine.Config{}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, "2")
	v := screen(m)
	if strings.Contains(v, "catch up?") || !strings.Contains(v, "Solve: a train leaves at …") {
		t.Errorf("the long prompt is not shortened in the list:\n%s", v)
	}
	press(m, "enter")
	v = screen(m)
	for _, want := range []string{"prompt  Solve: a train", "catch up?", "first line d ↵ hidden", "1  d"} {
		if !strings.Contains(v, want) {
			t.Errorf("the group does not show %q:\n%s", want, v)
		}
	}
}
