package ui

import (
	"testing"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestFindFromPromptsListingNothing: on the Prompts tab listing nothing
// (no default task metric with sources), / is the find of every tab (the
// Trajectories filter), not the tab's filter over nothing.
func TestFindFromPromptsListingNothing(t *testing.T) {
	s := uitest.NoDefaultTaskSession(t)
	m := openModel(s, 120, 30)
	for i, tab := range m.tabs {
		if tab.Title() == "Prompts" {
			m.selectTab(i)
		}
	}
	settle(m)
	press(m, "/")
	if got := m.tabs[m.active].Title(); got != "Trajectories" {
		t.Errorf("/ on the Prompts tab listing nothing left the %s tab active; want the find (Trajectories filter)\n%s", got, screen(m))
	}
}
