package prompts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// noDefaultTaskSession is a run of a math source (accuracy, length) and a
// chat source (safety): chat's safety comes first, and math lacks it, so
// there is no default task metric and nothing to list.
func noDefaultTaskSession(t *testing.T) *session.Session {
	t.Helper()
	var text strings.Builder
	for step := range 2 {
		for c := range 4 {
			fmt.Fprintf(&text, `{"id":"m%d-%d","batch":%d,"group":"math","metadata":{"task":"math","accuracy":%d,"length":%d}}`+"\n", step, c, step, c%2, 100+c)
			fmt.Fprintf(&text, `{"id":"c%d-%d","batch":%d,"group":"chat","metadata":{"task":"chat","safety":%d}}`+"\n", step, c, step, c%2)
		}
	}
	objective := func(name string) engine.ObjectiveConfig {
		return engine.ObjectiveConfig{Name: name, Expr: "metadata." + name}
	}
	s := uitest.TextSessionWith(t, text.String(), engine.Config{
		Method:   "grpo",
		SourceBy: "metadata.task",
		Sources: map[string]engine.SourceConfig{
			"math": {Objectives: []engine.ObjectiveConfig{objective("accuracy"), objective("length")}},
			"chat": {Objectives: []engine.ObjectiveConfig{objective("safety")}},
		},
	})
	if s.Prompts != nil || s.PromptsErr == nil {
		t.Fatalf("prompts %v, error %v: the test wants none, and why", s.Prompts, s.PromptsErr)
	}
	return s
}

// TestGoldenPromptsNoDefaultTask: the error is wrapped whole, to the flag
// it asks for, at 80x24 and 100x30 (the tab's lines under the header and
// the tab bar, over the status line and the help).
func TestGoldenPromptsNoDefaultTask(t *testing.T) {
	s := noDefaultTaskSession(t)
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
	tab := settledTab(noDefaultTaskSession(t))
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
