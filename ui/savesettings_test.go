package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/configfile"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestSaveSettingsPolicy: ctrl+s writes a name of its own in the current
// directory, under --out's policy for such a name: a symbolic link
// planted there is not written through (its target stays), a read-only
// file is not replaced, and a file it did not save is replaced only by a
// second ctrl+s, keeping its mode; the status line says which and how.
// A file it saved itself is replaced unasked.
func TestSaveSettingsPolicy(t *testing.T) {
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, session.SettingsFile); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, 160, 40)
	press(m, "ctrl+s")
	if v := screen(m); !strings.Contains(v, "✖ save settings: "+session.SettingsFile+" is a symbolic link") {
		t.Errorf("a planted link: the status line does not say it was refused:\n%s", v)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("ctrl+s wrote through the planted link: %q", b)
	}

	if err := os.Remove(session.SettingsFile); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(session.SettingsFile, []byte("ro\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	press(m, "ctrl+s", "ctrl+s")
	if v := screen(m); !strings.Contains(v, "✖ save settings: "+session.SettingsFile+" is read-only: rewardlens does not replace it") {
		t.Errorf("a read-only file: the status line does not say it was refused:\n%s", v)
	}
	if b, _ := os.ReadFile(session.SettingsFile); string(b) != "ro\n" {
		t.Errorf("the read-only file was replaced: %q", b)
	}

	if os.Geteuid() == 0 { // only root can give a file away
		if err := os.Chmod(session.SettingsFile, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(session.SettingsFile, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		press(m, "ctrl+s", "ctrl+s")
		if v := screen(m); !strings.Contains(v, "✖ save settings: "+session.SettingsFile+" belongs to another user (uid 12345)") {
			t.Errorf("another user's file: the status line does not say it was refused:\n%s", v)
		}
		if b, _ := os.ReadFile(session.SettingsFile); string(b) != "ro\n" {
			t.Errorf("another user's file was replaced: %q", b)
		}
	}

	if err := os.Remove(session.SettingsFile); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(session.SettingsFile, []byte("theirs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(session.SettingsFile, 0o640); err != nil {
		t.Fatal(err)
	}
	press(m, "ctrl+s")
	if v := screen(m); !strings.Contains(v, session.SettingsFile+" exists: ctrl+s again to replace it") {
		t.Errorf("an existing file: the status line does not ask:\n%s", v)
	}
	if b, _ := os.ReadFile(session.SettingsFile); string(b) != "theirs\n" {
		t.Errorf("the existing file was replaced unasked: %q", b)
	}
	press(m, "ctrl+s")
	if v := screen(m); !strings.Contains(v, "✓ saved the settings to "+session.SettingsFile) {
		t.Errorf("the second ctrl+s did not save:\n%s", v)
	}
	fi, err := os.Lstat(session.SettingsFile)
	if b, _ := os.ReadFile(session.SettingsFile); err != nil || !strings.HasPrefix(string(b), "# rewardlens settings") || fi.Mode() != 0o640 {
		t.Errorf("replaced: mode %v, %v, %.30q; want the settings, mode 0640", fi.Mode(), err, b)
	}
	press(m, "n", "ctrl+s")
	if v := screen(m); !strings.Contains(v, "✓ saved the settings to "+session.SettingsFile) {
		t.Errorf("its own file was not replaced at once:\n%s", v)
	}
	if b, _ := os.ReadFile(session.SettingsFile); !strings.Contains(string(b), "normalize = false") {
		t.Errorf("the second save did not write the change:\n%s", b)
	}
	if entries, _ := os.ReadDir("."); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestSaveSettingsKeepsTheSourceOrder: ctrl+s writes the sources in the
// order the config declared them, not by name (the TOML encoder sorts a
// map's keys), and the file loads back with that order and the same
// sources; a file saved in name order, as before, still loads.
func TestSaveSettingsKeepsTheSourceOrder(t *testing.T) {
	t.Chdir(t.TempDir())
	declared := []string{"reasoning", "agentic"}
	m := sourcesModel(t, 160, 40, func(cfg *setup.Config) { cfg.SourceOrder = declared })
	press(m, "ctrl+s")
	if v := screen(m); !strings.Contains(v, "saved the settings to "+session.SettingsFile) {
		t.Fatalf("ctrl+s did not save:\n%s", v)
	}
	saved, err := configfile.Read(session.SettingsFile)
	if err != nil {
		t.Fatal(err)
	}
	want := m.Session().SettingsConfig()
	if got := saved.Config.SourceNames(); !slices.Equal(got, declared) {
		t.Errorf("the saved file declares the sources %v, want %v:\n%s", got, declared, saved.Text)
	}
	if !reflect.DeepEqual(saved.Config.Sources, want.Sources) {
		t.Errorf("the saved sources are %+v, want %+v:\n%s", saved.Config.Sources, want.Sources, saved.Text)
	}

	var byName strings.Builder
	enc := toml.NewEncoder(&byName)
	enc.Indent = ""
	if err := enc.Encode(want); err != nil {
		t.Fatal(err)
	}
	old, err := configfile.Parse("old.toml", byName.String())
	if err != nil {
		t.Fatalf("a file saved in name order does not load: %v\n%s", err, byName.String())
	}
	if !reflect.DeepEqual(old.Config.Sources, want.Sources) {
		t.Errorf("a file saved in name order loads the sources %+v, want %+v", old.Config.Sources, want.Sources)
	}
}
