package ui

import (
	"regexp"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestFollowSelectionAcrossAReload: following a run of two files whose
// rows alternate, the trajectory selected on a tab (a group's completion,
// a Pareto point, a row of the Trajectories table, a point of Compare's)
// is still the one selected when the first file is read again, which
// puts the second file's rows first, whether the tab was shown or hidden
// then: opened, it is the one opened before.
func TestFollowSelectionAcrossAReload(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string // the tab's, then those that select
	}{
		{"Groups", []string{"2", "enter", "down", "down", "down"}},
		{"Pareto", []string{"4", "right", "right", "right"}},
		{"Trajectories", []string{"5", "down", "down", "down"}},
		{"Compare", []string{"7", "right", "right", "right"}},
	} {
		for _, hidden := range []bool{false, true} {
			name := c.name + "/shown"
			if hidden {
				name = c.name + "/hidden"
			}
			t.Run(name, func(t *testing.T) {
				m, again := alternatingRun(t)
				press(m, c.keys...)
				press(m, "enter")
				before := shownID(t, m)
				press(m, "esc")
				if hidden {
					press(m, "1")
				}
				m.Update(liveMsg{loaders.Update{Reloaded: []string{"a.jsonl"}, Trajectories: again}, true})
				settle(m)
				if hidden {
					press(m, c.keys[0])
				}
				press(m, "enter")
				if after := shownID(t, m); after != before {
					t.Errorf("%s opened before a.jsonl was read again, %s after:\n%s", before, after, screen(m))
				}
			})
		}
	}
}

// alternatingRun returns the dashboard following the sample's first 20
// steps read from two files whose rows alternate, a.jsonl's first, at
// 120x40, and a.jsonl's rows as reading it again gives them.
func alternatingRun(t *testing.T) (*Model, []scoring.Trajectory) {
	cfg, ts := sampleSteps(t, 0, 20)
	var again []scoring.Trajectory
	for i := range ts {
		file, k := "a.jsonl", i/2
		if i%2 == 1 {
			file = "b.jsonl"
		}
		ts[i].Source, ts[i].Line, ts[i].Offset = file, k+1, int64(k)*100
		if file == "a.jsonl" {
			again = append(again, ts[i])
		}
	}
	s := uitest.FollowedSession(t, "run", cfg, &loaders.Result{Trajectories: slices.Clone(ts)})
	m := NewModel(s, true)
	m.Init()
	m.follow(make(chan loaders.Update), waitNotes{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	settle(m)
	return m, again
}

// detailID finds the opened trajectory's id in its detail.
var detailID = regexp.MustCompile(`(?m)^\s*id\s+(\S+)\s*$`)

// shownID returns the id of the trajectory m shows open.
func shownID(t *testing.T, m *Model) string {
	t.Helper()
	id := detailID.FindStringSubmatch(screen(m))
	if id == nil {
		t.Fatalf("no trajectory open:\n%s", screen(m))
	}
	return id[1]
}
