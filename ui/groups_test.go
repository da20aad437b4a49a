package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestGroupsLongPrompt shows a long prompt shortened in the list and whole
// (wrapped) in the group, and each completion on one line.
func TestGroupsLongPrompt(t *testing.T) {
	prompt := "Solve: a train leaves at noon at 60 km/h and another at one o'clock at 80 km/h; when does the second catch up?"
	var ts []scoring.Trajectory
	for i := range 4 {
		ts = append(ts, scoring.Trajectory{ID: string(rune('a' + i)), Group: prompt, Done: true,
			Response: []byte(`"first line ` + string(rune('a'+i)) + `\nhidden"`), Metadata: map[string]any{"x": float64(i)}})
	}
	s, err := session.Open("long", setup.Config{}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, "2")
	v := screen(m)
	if strings.Contains(v, "catch up?") || !strings.Contains(v, "Solve: a train leaves at …") {
		t.Errorf("the long prompt is not shortened in the list:\n%s", v)
	}
	press(m, "enter")
	v = screen(m)
	for _, want := range []string{"prompt  Solve: a train", "catch up?", "first line d ↵ hidden", "1  d"} {
		if !strings.Contains(v, want) {
			t.Errorf("the group does not show %q:\n%s", want, v)
		}
	}
}

// TestCompareOpensTheGroupRead: o on the Compare tab opens the selected
// trajectory's group on the Groups tab, in the batch shown, its
// completions read (off the event loop: the root takes the read).
func TestCompareOpensTheGroupRead(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	_, cmd := m.Update(uitest.KeyPress("o"))
	if cmd == nil {
		t.Fatal("o on the Compare tab asked for nothing")
	}
	msg, ok := cmd().(common.ShowGroupMsg)
	if !ok {
		t.Fatalf("o asked for %T", cmd())
	}
	m.Update(msg)
	settle(m)
	if v := screen(m); m.tabs[m.active].Title() != "Groups" || !strings.Contains(v, "esc back") || strings.Contains(v, "reading…") {
		t.Errorf("o did not open the group with its completions read:\n%s", v)
	}
}
