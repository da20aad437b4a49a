package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

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

// TestGoldenStepsHelpFindings: the Steps tab cuts a finding to its
// width, saying "(? shows all)", and ? on it lists every health finding
// whole, wrapped, ALERTs first, before the keys; at 80x24 and 100x30.
func TestGoldenStepsHelpFindings(t *testing.T) {
	for _, size := range []struct{ width, height int }{{80, 24}, {100, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			m := newTestModel(t, size.width, size.height)
			press(m, "6", "?")
			v := screen(m)
			golden.RequireEqual(t, v)
			var words []string
			for _, line := range strings.Split(v, "\n") {
				words = append(words, strings.Fields(strings.Trim(line, "│ "))...)
			}
			text := strings.Join(words, " ")
			for _, f := range m.Session().Findings() {
				if !strings.Contains(text, f.Message) {
					t.Errorf("? does not list the finding %q whole:\n%s", f.Message, v)
				}
			}
		})
	}
}
