package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// finishSortStatus returns the Trajectories tab's status line, shown.
func finishSortStatus(m *Model) string {
	runCmds(m, showTrajectories(m))
	line, _, _ := strings.Cut(body(m), "\n")
	return line
}

// A sort by the finish column whose records are read after the user left
// the tab lands on the tab all the same (its job's message goes back to
// it): back on it, the rows are sorted by finish_reason, not "sorting"
// for ever.
func TestTrajectoriesFinishSortLandsAfterLeaving(t *testing.T) {
	s := uitest.TextSession(t, `{"id":"t0","group":"g","metadata":{"a":1,"b":0,"finish_reason":"stop"}}
{"id":"t1","group":"g","metadata":{"a":0,"b":1,"finish_reason":"length"}}
{"id":"t2","group":"g","metadata":{"a":0.5,"b":0.5}}
`)
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Settle()
	for i := 0; !strings.Contains(finishSortStatus(m), "sorted by crowding"); i++ {
		if i > 10 {
			t.Fatalf("s never reaches crowding: %s", finishSortStatus(m))
		}
		press(m, "s")
	}
	_, sortCmd := m.Update(uitest.KeyPress("s"))
	if status := finishSortStatus(m); !strings.Contains(status, "sorting by finish_reason") {
		t.Fatalf("s from crowding: %s", status)
	}
	_, cmd := m.Update(uitest.KeyPress("1"))
	runCmds(m, sortCmd, cmd) // the records read while another tab is shown
	if status := finishSortStatus(m); !strings.Contains(status, "sorted by finish_reason") {
		t.Errorf("back on the tab after its sort ran: %s", status)
	}
}
