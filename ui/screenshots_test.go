package ui

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestScreenshotsCurrent walks the screens of docs/images/screens.tsv, as
// scripts/screenshots.sh walks them in tmux to make the README's pictures,
// and compares each screen's text with the text the script kept beside the
// picture: the dashboard in colour, its colours stripped, as tmux's
// capture-pane -p shows it (no trailing spaces). A difference means the
// pictures are stale: run scripts/screenshots.sh.
func TestScreenshotsCurrent(t *testing.T) {
	dir := filepath.Join("..", "docs", "images")
	walk, err := os.Open(filepath.Join(dir, "screens.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer walk.Close()
	m := NewModel(uitest.SampleSession(t), false)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Settle()
	lines := bufio.NewScanner(walk)
	shots := 0
	for lines.Scan() {
		if lines.Text() == "" || strings.HasPrefix(lines.Text(), "#") {
			continue
		}
		fields := strings.Split(lines.Text(), "\t")
		if len(fields) != 3 {
			t.Fatalf("screens.tsv: %q is not name, keys and text separated by tabs", lines.Text())
		}
		name, keys, text := fields[0], strings.Fields(fields[1]), fields[2]
		press(m, keys...)
		got := trimScreen(ansi.Strip(m.View().Content))
		if !strings.Contains(got, text) {
			t.Errorf("%s: the screen does not show %q, which screenshots.sh waits for:\n%s", name, text, got)
		}
		kept, err := os.ReadFile(filepath.Join(dir, name+".txt"))
		if err != nil {
			t.Fatalf("%s: %v (run scripts/screenshots.sh)", name, err)
		}
		if want := trimScreen(string(kept)); got != want {
			t.Errorf("docs/images/%s.png is stale: run scripts/screenshots.sh. The dashboard draws:\n%s\nthe picture shows:\n%s", name, got, want)
		}
		if _, err := os.Stat(filepath.Join(dir, name+".png")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		shots++
	}
	if shots == 0 {
		t.Fatal("screens.tsv lists no screen")
	}
}

// trimScreen drops the spaces that end each line, and the empty lines
// that end the screen, as tmux's capture-pane drops them.
func trimScreen(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// TestColourCodesNeverShowEscaped draws every tab, and the views enter and
// ? open, in colour at several sizes: the sample holds no escape character,
// so an escaped one on screen ("\x1b") is a colour code cut in the middle
// and sanitised as untrusted text.
func TestColourCodesNeverShowEscaped(t *testing.T) {
	views := [][]string{{"1"}, {"2"}, {"2", "down", "enter"}, {"3"}, {"4"}, {"5"}, {"5", "down", "enter"}, {"6"}, {"7"}, {"8"}, {"2", "?"}}
	for _, size := range goldenSizes {
		for _, keys := range views {
			m := NewModel(uitest.SampleSession(t), false)
			m.Init()
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			m.Settle()
			press(m, keys...)
			if s := ansi.Strip(m.View().Content); strings.Contains(s, `\x1b`) {
				t.Errorf("%dx%d after %q: an escaped colour code on screen:\n%s", size[0], size[1], keys, s)
			}
		}
	}
}
