package ui

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestPromptsEnterOpensTheGroup: on the Prompts tab, enter on a prompt at
// its step before the last opens the Groups tab on that batch with the
// prompt's group open.
func TestPromptsEnterOpensTheGroup(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "8")
	if got := m.tabs[m.active].Title(); got != "Prompts" {
		t.Fatalf("8 shows %s", got)
	}
	press(m, "down", "left") // p02 (learned), step 38
	_, cmd := m.Update(uitest.KeyPress("enter"))
	if cmd == nil {
		t.Fatal("enter on the Prompts tab asked for nothing")
	}
	msg, ok := cmd().(common.OpenGroupMsg)
	if !ok {
		t.Fatalf("enter asked for %T", cmd())
	}
	m.Update(msg)
	settle(m)
	v := screen(m)
	if m.tabs[m.active].Title() != "Groups" || !strings.Contains(v, "batch 39/40 step 38") || !strings.Contains(v, "esc back") || !strings.Contains(v, "p02") {
		t.Errorf("enter did not open p02's group at step 38:\n%s", v)
	}
}
