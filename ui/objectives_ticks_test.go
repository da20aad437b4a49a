package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// rewardFunctionsSession returns a session of 128 completions scored by five
// reward functions in [0, 1] by quarters, as TRL's format rewards are.
func rewardFunctionsSession(t *testing.T) *session.Session {
	t.Helper()
	names := []string{"format_reward", "soft_reward", "think_reward", "tags_reward", "length_ok"}
	var b strings.Builder
	for i := range 128 {
		fmt.Fprintf(&b, `{"id":"c%d","batch":0,"group":"p%d","metadata":{`, i, i/8)
		for k, name := range names {
			if k > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `%q:%v`, name, float64((i*(k+3)+i/(k+2))%5)/4)
		}
		b.WriteString("}}\n")
	}
	res, err := loaders.Read(strings.NewReader(b.String()), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{Method: "grpo"}
	for _, name := range names {
		cfg.Objectives = append(cfg.Objectives, engine.ObjectiveConfig{Name: name, Expr: "metadata." + name})
	}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGoldenObjectivesTicks: the Objectives tab's histograms of rewards in
// [0, 1], narrow at 80 columns: their edges are labelled 0.00 to 1.00, or
// fewer of them, never "0    0    1    1    1   1".
func TestGoldenObjectivesTicks(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {80, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := NewModel(rewardFunctionsSession(t), true)
			m.Init()
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			m.Settle()
			selectTabTitled(t, m, "Objectives")
			golden.RequireEqual(t, screen(m))
		})
	}
}
