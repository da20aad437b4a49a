package groups

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestGroupsReadFollowsAReload: a completion open when follow mode reads
// a file again stays open on its trajectory wherever the reload put it
// (uitest.ReloadCases), whether the tab was shown or hidden; one the
// run holds no more is closed, back to its group, and the status line
// says so.
func TestGroupsReadFollowsAReload(t *testing.T) {
	for _, c := range uitest.ReloadCases {
		for _, hidden := range []bool{false, true} {
			name := c.Name + "/shown"
			if hidden {
				name = c.Name + "/hidden"
			}
			t.Run(name, func(t *testing.T) {
				s, paths := uitest.FilesSession(t, uitest.ReloadFiles, setup.Config{})
				tab := uitest.TabOn(s, New)
				g := tab.(*groupsTab)
				g.ShowGroup(c.Open)
				tab.Update(uitest.KeyPress("enter"))
				uitest.Jobs(tab)
				if g.mode != groupCompletion || g.list.Opened.I != c.Open {
					t.Fatalf("mode %d, trajectory %d open, want %d", g.mode, g.list.Opened.I, c.Open)
				}
				if hidden {
					tab.Update(common.HiddenMsg{})
				}
				uitest.Reload(t, s, paths[c.File], c.Text)
				var cmds []tea.Cmd
				if !hidden {
					_, cmd := tab.Update(common.SessionChangedMsg{})
					cmds = append(cmds, cmd)
				}
				cmds = append(cmds, uitest.Jobs(tab)...)
				_, cmd := tab.Update(common.SessionChangedMsg{}) // shown again
				cmds = append(cmds, cmd)
				uitest.Jobs(tab)
				open, id := g.mode == groupCompletion, g.list.Opened.Full.ID
				uitest.CheckReloaded(t, c, open, id, cmds)
				switch {
				case c.Want != "" && open && s.Trajectories.At(g.list.Opened.I).ID != c.Want:
					t.Errorf("trajectory %q open at %d, where the run holds %q", id, g.list.Opened.I, s.Trajectories.At(g.list.Opened.I).ID)
				case c.Want == "" && g.mode != groupMembers:
					t.Errorf("mode %d, want it back to its group", g.mode)
				}
			})
		}
	}
}
