package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// noticeOf is the NoticeMsg cmd asks for, nil if none: the tab's command
// run alone, its notice's expiry not.
func noticeOf(t *testing.T, cmd tea.Cmd) *common.NoticeMsg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case common.NoticeMsg:
		return &msg
	case tea.BatchMsg:
		for _, c := range msg {
			if n := noticeOf(t, c); n != nil {
				return n
			}
		}
	}
	return nil
}

// TestNoticeGoesWithTheSelection: on the Compare tab, D at the first
// disagreement says so on the status line; d, which selects the next
// one, takes the notice away at once, not at its expiry.
func TestNoticeGoesWithTheSelection(t *testing.T) {
	m := newTestModel(t, 140, 40)
	press(m, "7")
	const first = "this is the first of the"
	_, cmd := m.Update(uitest.KeyPress("D"))
	notice := noticeOf(t, cmd)
	if notice == nil || !strings.Contains(notice.Text, first) {
		t.Fatalf("D at the first disagreement asks for %#v", notice)
	}
	m.Update(*notice)
	if v := screen(m); !strings.Contains(v, first) {
		t.Fatalf("the notice is not shown:\n%s", v)
	}
	press(m, "d")
	if v := screen(m); strings.Contains(v, first) {
		t.Errorf("the selection moved to the second disagreement, the notice stayed:\n%s", v)
	}
	// Back at the first, the notice is true again, and stays while the
	// selection does (a key that does not move it).
	press(m, "D")
	_, cmd = m.Update(uitest.KeyPress("D"))
	m.Update(*noticeOf(t, cmd))
	press(m, "?", "?")
	if v := screen(m); !strings.Contains(v, first) {
		t.Errorf("the selection stayed, the notice went:\n%s", v)
	}
}
