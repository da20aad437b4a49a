package ui

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/internal/testkit"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
)

// endless is a JSONL stream without end, slow to read: a huge file on a
// slow disk.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	time.Sleep(time.Millisecond)
	return copy(p, `{"metadata":{"accuracy":1}}`+"\n"), nil
}

// TestInterruptDuringLoad ends the context, as SIGTERM does (main ends it
// on the signal), while the dashboard loads an endless slow stream: the
// program returns at once with the terminal restored (the alternate screen
// left, the cursor shown, the mouse released), and the load itself stops.
func TestInterruptDuringLoad(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, _ := sampletest.Read(t)
	loadDone := make(chan struct{})
	in := Input{Source: "endless", Config: cfg, Load: func(progress func(done, total int64)) (*loaders.Result, error) {
		defer close(loadDone)
		return loaders.Load([]string{"-"}, loaders.Options{Stdin: endless{}, Context: ctx, Progress: progress})
	}}
	var out testkit.SyncBuffer
	ran := make(chan error, 1)
	go func() { ran <- run(ctx, in, tea.WithInput(nil), tea.WithOutput(&out), tea.WithWindowSize(100, 30)) }()
	time.Sleep(300 * time.Millisecond) // loading
	if strings.Contains(out.String(), "\x1b[?1049l") {
		t.Fatal("the alternate screen was left before the interruption")
	}
	cancel()
	select {
	case err := <-ran:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("run returned %v, want the context's error", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the dashboard did not stop within 2s of the interruption")
	}
	select {
	case <-loadDone:
	case <-time.After(2 * time.Second):
		t.Fatal("the load goes on after the interruption")
	}
	screen := out.String()
	enter, leave := strings.Index(screen, "\x1b[?1049h"), strings.LastIndex(screen, "\x1b[?1049l")
	restored := leave > enter && enter >= 0 &&
		strings.Contains(screen[leave:], "\x1b[?25h") && // the cursor shown
		strings.Contains(screen[leave:], "\x1b[?1002l") // the mouse released
	if !restored {
		t.Errorf("the terminal is not restored (alternate screen at %d, left at %d): %q", enter, leave, screen[max(len(screen)-200, 0):])
	}
}

// TestSignalsAreMain: SIGINT and SIGTERM are main's to handle (they end
// the context, which ends the dashboard as interrupted, status 130 or
// 143), not Bubble Tea's, whose handler made SIGTERM a quit (status 0) and
// SIGINT an error of its own (status 1): the dashboard goes on through a
// signal until the context ends, then returns the context's error.
func TestSignalsAreMain(t *testing.T) {
	// The test's own handler, as main's: the signal does not end the test.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	cfg, res := sampletest.Read(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		ctx, cancel := context.WithCancel(context.Background())
		in := Input{Source: "sample", Config: cfg, Load: func(func(done, total int64)) (*loaders.Result, error) {
			return res, nil
		}}
		var out testkit.SyncBuffer
		ran := make(chan error, 1)
		go func() { ran <- run(ctx, in, tea.WithInput(nil), tea.WithOutput(&out), tea.WithWindowSize(100, 30)) }()
		time.Sleep(300 * time.Millisecond)
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		<-sigs
		select {
		case err := <-ran:
			t.Fatalf("%v: the dashboard ended on its own: %v", sig, err)
		case <-time.After(300 * time.Millisecond):
		}
		cancel()
		select {
		case err := <-ran:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%v: run returned %v, want the context's error", sig, err)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%v: the dashboard did not stop within 2s of the context's end", sig)
		}
	}
}

// TestRunReturnsTheLoadError: a load that fails ("Could not open", then
// any key) ends run with a LoadError holding the load's error, which the
// CLI tells from a terminal's error (exit status 2, not 1).
func TestRunReturnsTheLoadError(t *testing.T) {
	noTrajectories := errors.New("no trajectories in empty.jsonl")
	in := Input{Source: "empty.jsonl", Load: func(func(done, total int64)) (*loaders.Result, error) {
		return nil, noTrajectories
	}}
	keys, press := io.Pipe()
	defer press.Close()
	var out testkit.SyncBuffer
	ran := make(chan error, 1)
	go func() {
		ran <- run(context.Background(), in, tea.WithInput(keys), tea.WithOutput(&out), tea.WithWindowSize(100, 30))
	}()
	// The key once the error is on screen: a key before it waits for
	// the dashboard.
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "Could not open"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no error on the loading screen: %q", out.String())
		}
	}
	if _, err := press.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	err := <-ran
	var loadErr LoadError
	if !errors.As(err, &loadErr) || !errors.Is(err, noTrajectories) {
		t.Errorf("run returned %#v, want a LoadError of %v", err, noTrajectories)
	}
}
