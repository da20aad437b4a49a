package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
)

func TestTrajectoriesFilterKeysDoNotReachTheRoot(t *testing.T) {
	m := newTestModel(t, 120, 40)
	// q would quit and 2 switch tabs, were they not typed into the filter.
	press(m, "5", "/", "q", "2")
	if view := screen(m); !strings.Contains(view, "/q2") || !strings.Contains(view, "[5 Trajectories]") {
		t.Errorf("the filter did not get q and 2:\n%s", view)
	}
}

// TestTrajectoriesNoBColumnWhenBIsA: with method A switched to grpo, the
// Compare tab's B (grpo), the table shows one grpo column, not a second,
// identical "grpo (B)"; back to pareto, B's column comes back.
func TestTrajectoriesNoBColumnWhenBIsA(t *testing.T) {
	m := newTestModel(t, 120, 16)
	setMethod(t, m, engine.GRPO)
	press(m, "5")
	v := screen(m)
	header := strings.Split(v, "\n")[3]
	if strings.Count(header, "grpo") != 1 || strings.Contains(header, "(B)") {
		t.Errorf("with A = B = grpo, the table's head is %q, want one grpo column:\n%s", header, v)
	}
	golden.RequireEqual(t, v)
	setMethod(t, m, engine.Pareto)
	if header := strings.Split(screen(m), "\n")[3]; !strings.Contains(header, "pareto") || !strings.Contains(header, "grpo") {
		t.Errorf("with A = pareto, the table's head %q lacks B's grpo column", header)
	}
}
