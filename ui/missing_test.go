package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestMissingObjectiveShown: an objective a record has null (TRL's None
// reward), which nansum counts 0 in the score, shows as null, not 0, in
// the opened group, the Trajectories tab, the detail's computed values and
// the Pareto tab's selected point; a 0 stays 0.
func TestMissingObjectiveShown(t *testing.T) {
	acc := []any{1.0, nil, 0.0, 1.0}
	var ts []scoring.Trajectory
	for i := range acc {
		ts = append(ts, scoring.Trajectory{ID: string(rune('a' + i)), Group: "q", Batch: 1, Done: true,
			Response: []byte(`"answer"`), Metadata: map[string]any{"accuracy_reward": acc[i], "format_reward": float64(i) / 4}})
	}
	yes := true
	cfg := setup.Config{Method: "grpo", NanSum: &yes, Objectives: []setup.ObjectiveConfig{
		{Name: "accuracy_reward", Expr: "accuracy_reward"}, {Name: "format_reward", Expr: "format_reward"}}}
	s, err := session.Open("none", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	// checkRows fails unless the row of b, alone, shows null, and that of
	// c shows its 0 (its cells are id, rewards, ..., accuracy_reward).
	checkRows := func(what, view string) {
		t.Helper()
		for _, id := range []string{"a", "b", "c", "d"} {
			var row []string
			for line := range strings.Lines(view) {
				if cells := strings.Fields(line); slices.Contains(cells, id) {
					row = cells
				}
			}
			if nulls := slices.Contains(row, "null"); row == nil || nulls != (id == "b") {
				t.Errorf("%s: row of %s %q", what, id, row)
			}
		}
	}
	selectTabTitled(t, m, "Groups")
	press(m, "enter")
	checkRows("the opened group", screen(m))
	// Sorted by accuracy_reward, either way, b comes last, as NaN does.
	for range 8 {
		if strings.Contains(screen(m), "sorted by accuracy_reward") {
			break
		}
		press(m, "s")
	}
	for _, arrow := range []string{"▼", "▲"} {
		if !strings.Contains(screen(m), "sorted by accuracy_reward "+arrow) {
			press(m, "S")
		}
		view := screen(m)
		if last := strings.LastIndex(view, "null"); !strings.Contains(view, "sorted by accuracy_reward "+arrow) || last < strings.Index(view, " a ") || last < strings.Index(view, " c ") || last < strings.Index(view, " d ") {
			t.Errorf("sorted by accuracy_reward %s, b is not last:\n%s", arrow, view)
		}
	}
	press(m, "esc", "enter")
	// The rows are sorted by reward, b's the lowest.
	press(m, "end", "enter")
	checkComputed(t, "the detail of b", screen(m), "accuracy_reward  null")
	selectTabTitled(t, m, "Trajectories")
	press(m, "esc")
	checkRows("the Trajectories tab", screen(m))
	// Sorted by accuracy_reward (descending, the default), b comes last,
	// as a NaN does, not among the 0s.
	for range 12 {
		if strings.Contains(screen(m), "sorted by accuracy_reward") {
			break
		}
		press(m, "s")
	}
	view := screen(m)
	var order []string // the rows' ids, top down
	for line := range strings.Lines(view) {
		if cells := strings.Fields(line); len(cells) > 0 && slices.Contains([]string{"a", "b", "c", "d"}, cells[0]) {
			order = append(order, cells[0])
		}
	}
	if !strings.Contains(view, "sorted by accuracy_reward ▼") || len(order) != 4 || order[3] != "b" {
		t.Errorf("the Trajectories tab sorted by accuracy_reward: rows %v, want b last:\n%s", order, view)
	}
	selectTabTitled(t, m, "Pareto")
	for range ts {
		if strings.Contains(screen(m), "id         b") {
			break
		}
		press(m, "right")
	}
	checkScreen(t, "the Pareto tab on b", screen(m), []string{"id         b", "accuracy_reward null"}, nil)
}

// checkComputed fails t unless the computed section of the detail view
// holds want.
func checkComputed(t *testing.T, what, view, want string) {
	t.Helper()
	start, end := strings.Index(view, "computed ("), strings.Index(view, "\nmetadata")
	if start < 0 || end < start || !strings.Contains(view[start:end], want) {
		t.Errorf("%s: the computed values lack %q:\n%s", what, want, view)
	}
}
