package groups

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestGroupsOfAPromptInTwoSlotsShowTheirRows: grouped by position (the
// TRL layout's runs of num_generations rows), a prompt in two slots of
// the batch is two groups of one key and one prompt, which the group
// column tells apart by their rows' positions in the batch ("[rows
// 8-11]", the POSITION of the default ids); a prompt in one slot shows no
// rows, and a group opened says its rows, not its key, which is its
// prompt.
func TestGroupsOfAPromptInTwoSlotsShowTheirRows(t *testing.T) {
	s := twoSlotsSession(t)
	tab := uitest.TabOn(s, New)
	view := uitest.Plain(tab)
	for _, want := range []string{"[rows 0-3] …1: what is 7 + 3?", "[rows 8-11] …1: what is 7 + 3?"} {
		if !strings.Contains(view, want) {
			t.Errorf("no row %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "[rows 4-7]") {
		t.Errorf("the prompt in one slot shows its rows:\n%s", view)
	}
	golden.RequireEqual(t, view)

	uitest.PressKeys(tab, "home", "down", "enter")
	opened := uitest.Plain(tab)
	if !strings.Contains(opened, "group rows 8-11 ·") || strings.Contains(opened, "group <|im_start|>") {
		t.Errorf("the group of rows 8-11 opened does not say its rows, or says its key:\n%s", opened)
	}
}

// TestGroupOfAPromptInTwoSlotsStaysOpen: the group of rows 8-11 open,
// and the cursor on it, stay so when the method changes (a new result of
// the batch), not the other group of its key.
func TestGroupOfAPromptInTwoSlotsStaysOpen(t *testing.T) {
	s := twoSlotsSession(t)
	tab := uitest.TabOn(s, New)
	uitest.PressKeys(tab, "home", "down")
	s.Options.Method = engine.RLOO
	s.Recompute()
	uitest.Refresh(tab, s)
	uitest.PressKeys(tab, "enter")
	if opened := uitest.Plain(tab); !strings.Contains(opened, "group rows 8-11 ·") {
		t.Errorf("after a change of method, the cursor left the group of rows 8-11:\n%s", opened)
	}
	s.Options.Method = engine.GRPO
	s.Recompute()
	uitest.Refresh(tab, s)
	if opened := uitest.Plain(tab); !strings.Contains(opened, "group rows 8-11 ·") {
		t.Errorf("after a change of method, the group of rows 8-11 open is another:\n%s", opened)
	}
}

// twoSlotsSession is a TRL batch grouped by position (runs of 4 rows)
// whose first prompt is in two slots, rows 0-3 and 8-11, another in rows
// 4-7.
func twoSlotsSession(t *testing.T) *session.Session {
	t.Helper()
	const template = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nSolve problem %d: what is %s? Put the answer in \\boxed{}.<|im_end|>\n<|im_start|>assistant\n"
	twice, once := fmt.Sprintf(template, 1, "7 + 3"), fmt.Sprintf(template, 2, "2 + 5")
	var ts []scoring.Trajectory
	for slot, prompt := range []string{twice, once, twice} {
		for k := range 4 {
			ts = append(ts, scoring.Trajectory{ID: fmt.Sprintf("1:%d", len(ts)), Batch: 1, Group: prompt,
				Metadata: map[string]any{"prompt": prompt, "reward": float64((k + slot) % 3)}})
		}
	}
	cfg := setup.Config{Method: "grpo", GroupRuns: 4, PromptField: "prompt", Objectives: []setup.ObjectiveConfig{{Name: "reward", Expr: `metadata["reward"]`}}}
	s, err := session.Open("completions", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
