package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/ui/session"
)

// TestHelpShowsTheNoticeWhole: at 100 columns the status line cuts the
// error of a refused ctrl+s and says "? shows all"; ? then shows it
// whole, wrapped, under a section of its own.
func TestHelpShowsTheNoticeWhole(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), session.SettingsFile); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, 100, 30)
	press(m, "ctrl+s")
	if v := screen(m); !strings.Contains(v, "✖ save settings: "+session.SettingsFile) || !strings.Contains(v, "(? shows all)") {
		t.Fatalf("the status line does not show the error cut:\n%s", v)
	}
	press(m, "?")
	v := screen(m)
	var words []string
	for _, line := range strings.Split(v, "\n") {
		words = append(words, strings.Fields(strings.Trim(line, "│ "))...)
	}
	whole := "✖ save settings: " + session.SettingsFile + " is a symbolic link: rewardlens does not write through it (remove it to write here)"
	if !strings.Contains(v, "Notice") || !strings.Contains(strings.Join(words, " "), whole) {
		t.Errorf("? does not show the error whole (%q):\n%s", whole, v)
	}
}
