package ui

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// modelWithPriority is the dashboard on the sample with --priority
// accuracy,safety when priority, else as newTestModel.
func modelWithPriority(t *testing.T, priority bool) *Model {
	t.Helper()
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) {
		if priority {
			cfg.Priority = []string{"accuracy", "safety"}
		}
	})
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Settle()
	return m
}

// TestMethodsCycleToLexicographicWithPriority: with priorities, m and M
// go through lexicographic too (computed, after gdpo), and Compare's b
// reaches it; without, none of them ever does (it cannot be computed).
func TestMethodsCycleToLexicographicWithPriority(t *testing.T) {
	for _, priority := range []bool{true, false} {
		m := modelWithPriority(t, priority)
		var forward, backward []engine.Method
		for range engine.AllMethods() {
			press(m, "m")
			forward = append(forward, m.Session().Options.Method)
			if got := m.Session().Result.Options.Method; got != m.Session().Options.Method {
				t.Fatalf("priority %v: result computed with %s, options say %s", priority, got, m.Session().Options.Method)
			}
		}
		for range engine.AllMethods() {
			press(m, "M")
			backward = append(backward, m.Session().Options.Method)
		}
		reached := slices.Contains(forward, engine.Lexicographic)
		if reached != priority || slices.Contains(backward, engine.Lexicographic) != priority {
			t.Errorf("priority %v: m went through %v, M through %v", priority, forward, backward)
		}
		if priority {
			// After the last method needing no settings comes
			// lexicographic, then absolute again.
			last := engine.Methods[len(engine.Methods)-1]
			i := slices.Index(forward, last)
			if i < 0 || forward[(i+1)%len(forward)] != engine.Lexicographic {
				t.Errorf("m went through %v, want lexicographic after %s", forward, last)
			}
		}

		selectTabTitled(t, m, "Compare")
		var bs []engine.Method
		for range engine.AllMethods() {
			_, cmd := m.Update(uitest.KeyPress("b"))
			runCmds(m, cmd)
			m.Settle()
			bs = append(bs, m.Session().CompareMethod)
			if m.Session().CompareMethod == engine.Lexicographic {
				if b := m.Session().CompareResult(); b == nil || b.Options.Method != engine.Lexicographic {
					t.Errorf("B is lexicographic, its result is %v", b)
				}
			}
		}
		if slices.Contains(bs, engine.Lexicographic) != priority {
			t.Errorf("priority %v: b went through %v", priority, bs)
		}
	}
}
