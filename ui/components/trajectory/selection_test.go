package trajectory_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/components/trajectory"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// rows are JSONL records of batch 0 with the ids given.
func rows(ids ...string) string {
	var b strings.Builder
	for k, id := range ids {
		fmt.Fprintf(&b, `{"id":%q,"batch":0,"group":"g","metadata":{"a":%d,"b":%d}}`+"\n", id, k, 10-k)
	}
	return b.String()
}

// TestSelectionFollows: a Selection noted on a trajectory is at its index
// while no file is read again; after a reload, where the run holds it now
// (found in place, or moved by the rows of a file read again before it),
// or -1 when the run holds it no more, and then only its notice says,
// once, that it is gone, by its id; a note on rows of the run before a
// reload changes nothing.
func TestSelectionFollows(t *testing.T) {
	for _, c := range []struct {
		name     string
		selected int
		file     int // read again with text
		text     string
		want     string // the id selected after, "" for none
	}{
		{"found in place", 0, 1, rows("b0", "b1"), "a0"},
		{"moved", 3, 0, rows("a0", "a1"), "b0"},
		{"its own file, moved", 1, 0, rows("a0", "a1", "a2"), "a1"},
		{"gone", 3, 1, rows("b9", "b1"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, paths := uitest.FilesSession(t, []string{rows("a0", "a1", "a2"), rows("b0", "b1")}, setup.Config{})
			listed := s.Reloads // the rows a tab shows are of this run
			var sel trajectory.Selection
			sel.Note(s, c.selected, listed)
			if got := sel.Follow(s, c.selected, listed, s.Reloads); got != c.selected {
				t.Fatalf("no reload: at %d, want %d", got, c.selected)
			}
			uitest.Reload(t, s, paths[c.file], c.text)
			sel.Note(s, 4, listed) // row 4 of the rows listed before the reload: not the session's
			got := sel.Follow(s, c.selected, listed, s.Reloads)
			switch {
			case c.want == "" && got != -1:
				t.Errorf("at %d (%q), want gone (-1)", got, s.Trajectories.At(got).ID)
			case c.want != "" && (got < 0 || got >= s.Trajectories.Len() || s.Trajectories.At(got).ID != c.want):
				t.Errorf("at %d, want %s", got, c.want)
			}
			var closed trajectory.Reading // none open
			notices := uitest.Notices([]tea.Cmd{sel.GoneNotice(&closed), sel.GoneNotice(&closed)})
			if c.want != "" && len(notices) > 0 {
				t.Errorf("notices %q, want none", notices)
			}
			if c.want == "" && (len(notices) != 1 || !strings.Contains(notices[0], `"b0" gone`)) {
				t.Errorf("notices %q, want one that says b0 is gone", notices)
			}
		})
	}
}

// TestSelectionGoneOpen: a selection gone that the tab's reading had open
// is said closed by the reading, not said gone a second time.
func TestSelectionGoneOpen(t *testing.T) {
	s, paths := uitest.FilesSession(t, []string{rows("a0", "a1", "a2"), rows("b0", "b1")}, setup.Config{})
	listed := s.Reloads
	var sel trajectory.Selection
	sel.Note(s, 3, listed)
	var opened trajectory.Reading
	opened.Start(s, 3)
	uitest.Reload(t, s, paths[1], rows("b9", "b1"))
	_, closed := opened.Follow(s)
	if got := sel.Follow(s, 3, listed, s.Reloads); got != -1 {
		t.Fatalf("at %d, want gone (-1)", got)
	}
	notices := uitest.Notices([]tea.Cmd{closed, sel.GoneNotice(&opened)})
	if len(notices) != 1 || !strings.Contains(notices[0], "closed") {
		t.Errorf("notices %q, want the reading's alone", notices)
	}
}
