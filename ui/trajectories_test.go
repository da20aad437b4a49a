package ui

import (
	"strings"
	"testing"
)

func TestTrajectoriesFilterKeysDoNotReachTheRoot(t *testing.T) {
	m := newTestModel(t, 120, 40)
	// q would quit and 2 switch tabs, were they not typed into the filter.
	press(m, "5", "/", "q", "2")
	if view := screen(m); !strings.Contains(view, "/q2") || !strings.Contains(view, "[5 Trajectories]") {
		t.Errorf("the filter did not get q and 2:\n%s", view)
	}
}
