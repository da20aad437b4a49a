package ui

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestEndToEnd drives the dashboard as a program, through its input: it
// walks the six tabs, switches the method, edits a weight and quits.
func TestEndToEnd(t *testing.T) {
	tm := teatest.NewTestModel(t, NewModel(uitest.SampleSession(t), true), teatest.WithInitialTermSize(120, 40))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(10*time.Second))
	}
	waitFor("frac_zero_std_groups")
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7"} {
		tm.Send(uitest.KeyPress(k))
	}
	// From pareto, M goes back through rloo and grpo to relative.
	for range 3 {
		tm.Send(uitest.KeyPress("M"))
	}
	// The renderer redraws only the cells that changed: "relative"
	// replaces "grpo" whole, while "0.30" becomes "0.35" by one digit, so
	// only the method can be waited for on the screen.
	waitFor("relative")
	for _, k := range []string{"w", "down", "+", "esc", "q"} {
		tm.Send(uitest.KeyPress(k))
	}

	m := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if m.active != 6 {
		t.Errorf("final tab %d, want 7 (Compare)", m.active+1)
	}
	s := m.Session()
	if s.Options.Method != engine.Relative || s.Result.Options.Method != engine.Relative {
		t.Errorf("final method %s (result %s), want relative", s.Options.Method, s.Result.Options.Method)
	}
	if got := s.Weights(); !slices.Equal(got, []float64{0.6, 0.35, 0.1}) {
		t.Errorf("final weights %v, want safety raised to 0.35", got)
	}
	if m.weights.active {
		t.Error("esc did not leave weight editing")
	}
}
