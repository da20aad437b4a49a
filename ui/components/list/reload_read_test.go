package list

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestListReadFollowsAReload: after follow mode read a file again, the
// list's opened trajectory, whether its read lands first (ReadDone) or
// the tab draws it again first (Reread: the Groups tab resized while
// hidden), is that trajectory where it is now, read again, never another
// at its index (nor past the end of the run); when the run holds it no
// more, it is closed (Gone), the reader says why and the command returned
// says so on the status line.
func TestListReadFollowsAReload(t *testing.T) {
	for _, c := range uitest.ReloadCases {
		for _, first := range []string{"read", "reread"} {
			t.Run(c.Name+"/"+first, func(t *testing.T) {
				s, paths := uitest.FilesSession(t, uitest.ReloadFiles, setup.Config{})
				cc := &common.Common{Width: 80, Height: 20, Styles: common.NewStyles(true, true), Session: s}
				l := newTestList()
				l.SetSize(80, 30)
				l.Open(cc, c.Open)
				read := l.Job()
				if read == nil {
					t.Fatal("no read of the trajectory opened")
				}
				uitest.Reload(t, s, paths[c.File], c.Text)
				var cmd tea.Cmd
				if first == "reread" {
					cmd = l.Reread(cc)
				}
				if done := l.ReadDone(cc, read().(OpenedMsg)); done != nil {
					cmd = done
				}
				if job := l.Job(); job != nil {
					l.ReadDone(cc, job().(OpenedMsg))
				}
				view := ansi.Strip(l.Reader.View())
				if c.Want != "" {
					if l.Gone() || l.Opened.Full.ID != c.Want || s.Trajectories.At(l.Opened.I).ID != c.Want || !strings.Contains(view, "answer "+c.Want) {
						t.Errorf("trajectory %q open at %d, want %s read again:\n%s", l.Opened.Full.ID, l.Opened.I, c.Want, view)
					}
					return
				}
				if !l.Gone() || !strings.Contains(view, GoneText) {
					t.Errorf("trajectory %q open at %d, want it closed:\n%s", l.Opened.Full.ID, l.Opened.I, view)
				}
				if cmd == nil {
					t.Fatal("no notice that it closed")
				}
				if n, ok := cmd().(common.NoticeMsg); !ok || !strings.Contains(n.Text, "closed") {
					t.Errorf("notice %#v, want one that says it closed", n)
				}
			})
		}
	}
}
