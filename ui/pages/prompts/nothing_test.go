package prompts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestGoldenPromptsNoDefaultTask: the error is wrapped whole, to the flag
// it asks for, at 80x24 and 100x30 (the tab's lines under the header and
// the tab bar, over the status line and the help).
func TestGoldenPromptsNoDefaultTask(t *testing.T) {
	s := uitest.NoDefaultTaskSession(t)
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tab := settledTab(s)
			tab.SetSize(size[0], size[1]-4)
			view := uitest.Plain(tab)
			if flat := strings.Join(strings.Fields(view), " "); !strings.Contains(flat, s.PromptsErr.Error()) {
				t.Errorf("the error %q is not whole on screen:\n%s", s.PromptsErr, view)
			}
			if !strings.Contains(view, "--task-metric") {
				t.Errorf("the flag is broken across lines:\n%s", view)
			}
			golden.RequireEqual(t, view)
		})
	}
}

// TestPromptsNoKeysWithNothingListed: with nothing listed, the footer and
// the help name no key of the tab, and its keys do nothing: / opens no
// filter that would take the keys typed next.
func TestPromptsNoKeysWithNothingListed(t *testing.T) {
	tab := settledTab(uitest.NoDefaultTaskSession(t))
	tab.SetSize(100, 26)
	before := uitest.Plain(tab)
	if keys := tab.ShortHelp(); len(keys) != 0 {
		t.Errorf("the footer lists %d keys of the tab", len(keys))
	}
	if keys := tab.FullHelp(); len(keys) != 0 {
		t.Errorf("the help lists %d groups of keys of the tab", len(keys))
	}
	for _, k := range []string{"/", "s", "S", "enter", "down", "left", "pgdown", "end"} {
		if cmd := tab.handleKey(uitest.KeyPress(k)); cmd != nil {
			t.Errorf("%s: a command", k)
		}
		if tab.CapturesKeys() {
			t.Fatalf("%s: the tab takes the keys typed next", k)
		}
	}
	if after := uitest.Plain(tab); after != before {
		t.Errorf("the keys changed the view:\n%s\nwas\n%s", after, before)
	}
}
