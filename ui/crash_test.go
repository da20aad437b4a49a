package ui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/internal/crash"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
)

// TestPanicRestoresTerminal: a panic in a goroutine of ours while the
// dashboard runs (here, one the load starts, as the follower's is) ends
// the process with the panic on stderr and status 2, as it did, but the
// terminal given back first: the alternate screen left, the cursor shown,
// the mouse released (issue 27, item 3). The dashboard runs in a child
// process, this test binary again, since the panic ends it.
func TestPanicRestoresTerminal(t *testing.T) {
	if screen := os.Getenv("REWARDLENS_PANIC_SCREEN"); screen != "" {
		panickingDashboard(t, screen)
		return
	}
	screen := filepath.Join(t.TempDir(), "screen")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestPanicRestoresTerminal$")
	cmd.Env = append(os.Environ(), "REWARDLENS_PANIC_SCREEN="+screen)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "panic: a bug in a goroutine of ours") {
		t.Fatalf("the child ended with %v, want status 2 and the panic:\n%s", err, out)
	}
	text, err := os.ReadFile(screen)
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	enter, leave := strings.Index(s, "\x1b[?1049h"), strings.LastIndex(s, "\x1b[?1049l")
	restored := leave > enter && enter >= 0 &&
		strings.Contains(s[leave:], "\x1b[?25h") && // the cursor shown
		strings.Contains(s[leave:], "\x1b[?1002l") // the mouse released
	if !restored {
		t.Errorf("the terminal is not restored (alternate screen at %d, left at %d): %q", enter, leave, s[max(len(s)-200, 0):])
	}
}

// panickingDashboard runs the dashboard, drawing into the file screen,
// on a load that starts a goroutine which panics once the dashboard is up.
func panickingDashboard(t *testing.T, screen string) {
	cfg, _ := sampletest.Read(t)
	in := Input{Source: "panic", Config: cfg, Load: func(func(done, total int64)) (*loaders.Result, error) {
		go func() {
			defer crash.Recover()
			time.Sleep(300 * time.Millisecond)
			panic("a bug in a goroutine of ours")
		}()
		select {} // loading until the panic
	}}
	out, err := os.Create(screen)
	if err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), in, tea.WithInput(nil), tea.WithOutput(out), tea.WithWindowSize(100, 30))
	t.Fatalf("the dashboard returned %v instead of the process ending", err)
}
