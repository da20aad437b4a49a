package ui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// goldenSizes are the terminal sizes every tab's view is kept at.
var goldenSizes = [][2]int{{80, 24}, {120, 40}, {200, 60}}

// TestGoldenTabs keeps the whole screen of every tab, and of the views
// that enter and ? open, at each of goldenSizes, on the sample.
// Regenerate with go test ./ui -run TestGoldenTabs -update.
func TestGoldenTabs(t *testing.T) {
	views := []struct {
		name string
		keys []string
	}{
		{"1-Rewards", []string{"1"}},
		{"2-Groups", []string{"2"}},
		{"2-Groups-open", []string{"2", "down", "enter"}},
		{"2-Groups-completion", []string{"2", "down", "enter", "down", "enter"}},
		{"3-Objectives", []string{"3"}},
		{"4-Pareto", []string{"4"}},
		{"5-Trajectories", []string{"5"}},
		{"5-Trajectories-open", []string{"5", "down", "enter"}},
		{"6-Steps", []string{"6"}},
		{"7-Compare", []string{"7"}},
		{"help", []string{"2", "?"}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			for _, size := range goldenSizes {
				t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
					m := newTestModel(t, size[0], size[1])
					press(m, v.keys...)
					golden.RequireEqual(t, screen(m))
				})
			}
		})
	}
}
