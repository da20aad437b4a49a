package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestFindFromPromptsListingNothing: on the Prompts tab listing nothing
// (no default task metric with sources), / is the find of every tab (the
// Trajectories filter), not the tab's filter over nothing.
func TestFindFromPromptsListingNothing(t *testing.T) {
	var text strings.Builder
	for step := range 2 {
		for c := range 4 {
			fmt.Fprintf(&text, `{"id":"m%d-%d","batch":%d,"group":"math","metadata":{"task":"math","accuracy":%d,"length":%d}}`+"\n", step, c, step, c%2, 100+c)
			fmt.Fprintf(&text, `{"id":"c%d-%d","batch":%d,"group":"chat","metadata":{"task":"chat","safety":%d}}`+"\n", step, c, step, c%2)
		}
	}
	objective := func(name string) engine.ObjectiveConfig {
		return engine.ObjectiveConfig{Name: name, Expr: "metadata." + name}
	}
	s := uitest.TextSessionWith(t, text.String(), engine.Config{
		Method:   "grpo",
		SourceBy: "metadata.task",
		Sources: map[string]engine.SourceConfig{
			"math": {Objectives: []engine.ObjectiveConfig{objective("accuracy"), objective("length")}},
			"chat": {Objectives: []engine.ObjectiveConfig{objective("safety")}},
		},
	})
	if s.Prompts != nil {
		t.Fatal("want no prompts")
	}
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
