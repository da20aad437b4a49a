package trajectories

import (
	"os"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestTrajectoriesReadFollowsAReload: a trajectory open when follow mode
// reads a file again is shown where it is now, or closed when gone
// (uitest.ReloadReads).
func TestTrajectoriesReadFollowsAReload(t *testing.T) {
	uitest.ReloadReads(t, New, func(tab common.Tab, i int) {
		tt := tab.(*trajectoriesTab)
		tt.list.Table.SetCursor(tt.rows.position(i))
		tab.Update(uitest.KeyPress("enter"))
	}, func(tab common.Tab) (bool, string) {
		tt := tab.(*trajectoriesTab)
		return tt.mode == reading, tt.list.Opened.Full.ID
	})
}

// TestTrajectoriesReadFollowsAPartWrittenReload: a2 open on the hidden
// tab; run0.jsonl rewritten in place is caught with its first two lines
// (read again), its third read at the next check as growth. Shown again,
// the tab still has a2 open: it is in the run again (same id, file, line,
// offset), after the growth.
func TestTrajectoriesReadFollowsAPartWrittenReload(t *testing.T) {
	s, paths := uitest.FilesSession(t, uitest.ReloadFiles, setup.Config{})
	tab := uitest.TabOn(s, New)
	tt := tab.(*trajectoriesTab)
	tt.list.Table.SetCursor(tt.rows.position(2))
	tab.Update(uitest.KeyPress("enter"))
	uitest.Jobs(tab)
	if tt.mode != reading || tt.list.Opened.Full.ID != "a2" {
		t.Fatalf("opened %q", tt.list.Opened.Full.ID)
	}
	tab.Update(common.HiddenMsg{})
	full := uitest.ReloadFiles[0]
	lines := strings.SplitAfter(full, "\n")
	uitest.Reload(t, s, paths[0], lines[0]+lines[1])
	if err := os.WriteFile(paths[0], []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := loaders.Load([]string{paths[0]}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := live.NewOf(s.Computer.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	s.ApplyUpdate(l, loaders.Update{Trajectories: res.Trajectories[2:]})
	_, cmd := tab.Update(common.SessionChangedMsg{})
	uitest.Jobs(tab)
	said := ""
	if cmd != nil {
		if n, ok := cmd().(common.NoticeMsg); ok {
			said = n.Text
		}
	}
	if tt.mode != reading || tt.list.Opened.Full.ID != "a2" {
		t.Errorf("a2 is trajectory %d of the run again; the tab has %q open (mode %d), said %q", s.Trajectories.Len()-1, tt.list.Opened.Full.ID, tt.mode, said)
	}
}
