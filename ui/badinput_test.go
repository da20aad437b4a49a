package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestLoadingShowsBadInput opens bad files as the dashboard does: the
// loading screen shows the message with the file, line and column.
func TestLoadingShowsBadInput(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ text, want string }{
		"malformed.jsonl": {`{"metadata":{"accuracy":1},}`, ":1:28: invalid JSON"},
		"noheader.csv":    {"1,2\n3,4\n", ":1:1: no header row"},
		"png.jsonl":       {"\x89PNG\r\n\x1a\n\x00\x00", ":3:1: binary data (byte 0x00)"},
		"type.jsonl":      {`{"step_count":"ten"}`, `:1:15: step_count: must be an integer, found "ten"`},
		"empty.csv":       {"", "no trajectories in "},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		m := newTestLoading(t, func(progress func(done, total int64)) (*loaders.Result, error) {
			return loaders.Load([]string{path}, loaders.Options{Progress: progress})
		})
		m.Update(m.load())
		// The message wraps to the screen: compare without white space.
		squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if v := screen(m); !strings.Contains(squeeze(v), squeeze(path+c.want)) && !strings.Contains(squeeze(v), squeeze(c.want+path)) {
			t.Errorf("%s: the loading screen does not show %q:\n%s", name, c.want, v)
		}
	}
}

// TestDuplicateIDsInStatusLine warns about repeated ids in the status line.
func TestDuplicateIDsInStatusLine(t *testing.T) {
	ts := make([]scoring.Trajectory, 6)
	for i := range ts {
		ts[i] = scoring.Trajectory{ID: []string{"a", "b", "a", "c", "a", "b"}[i], Metadata: map[string]any{"x": float64(i)}}
	}
	s, err := session.Open("dups.jsonl", setup.Config{}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if v := screen(m); !strings.Contains(v, `3 trajectories repeat an earlier one's ID ("a", "b"); each is computed`) {
		t.Errorf("the status line does not warn about the duplicate ids:\n%s", v)
	}
}
