package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestGoalsShortenedToFit: objectives with long names (TRL's reward
// functions) still show their goals on the first two lines at 120
// columns, their names cut with an ellipsis, and in full where there is
// room.
func TestGoalsShortenedToFit(t *testing.T) {
	text := `{"group":"p","metadata":{"accuracy_reward":1,"think_format_reward":0.5,"response_length_in_tokens":300}}` + "\n" +
		`{"group":"p","metadata":{"accuracy_reward":0,"think_format_reward":1,"response_length_in_tokens":200}}` + "\n"
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	computer, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{
		{Name: "accuracy_reward", Expr: "accuracy_reward"},
		{Name: "think_format_reward", Expr: "think_format_reward"},
		{Name: "response_length_in_tokens", Expr: "response_length_in_tokens", Goal: "min"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		width int
		want  string
	}{
		{120, "accur… ↑ think… ↑ respo… ↓"},
		{200, "accuracy_reward ↑ think_format_reward ↑ response_length_in_tokens ↓"},
	} {
		m := NewModel(session.NewSession("run.jsonl", res.Trajectories, computer), true)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: c.width, Height: 30})
		top := strings.Join(strings.Split(screen(m), "\n")[:2], "\n")
		if !strings.Contains(top, c.want) {
			t.Errorf("width %d: no %q in the header and tab bar:\n%s", c.width, c.want, top)
		}
	}
}
