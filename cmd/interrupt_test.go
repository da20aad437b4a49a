package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/internal/testkit"
)

// endless is standard input without end, slow to read.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	time.Sleep(time.Millisecond)
	return copy(p, `{"metadata":{"accuracy":1}}`+"\n"), nil
}

// TestInterruptDuringLoad ends the run's context, as main does on SIGTERM
// or ctrl+c, while compute and stats read an endless stream: the run stops
// within moments, says it was interrupted, exits with 128 + the signal's
// number, writes nothing, and leaves the --out file as it was.
func TestInterruptDuringLoad(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "rewards.jsonl")
	if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		cause  error
		status int
		msg    string
	}{
		{[]string{"compute", "--out", out, "-"}, Interrupted{syscall.SIGTERM}, 143, "rewardlens: interrupted (terminated)\n"},
		{[]string{"stats", "-"}, Interrupted{syscall.SIGINT}, 130, "rewardlens: interrupted (interrupt)\n"},
		{[]string{"compute", "-"}, nil, 130, "rewardlens: interrupted\n"},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		var stdout, stderr bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- Main(ctx, c.args, IO{Stdin: endless{}, Stdout: &stdout, Stderr: &stderr}) }()
		time.Sleep(100 * time.Millisecond)
		cancel(c.cause)
		select {
		case status := <-done:
			if status != c.status || stderr.String() != c.msg || stdout.Len() != 0 {
				t.Errorf("%v: status %d, stderr %q, %d bytes out; want %d, %q, nothing", c.args, status, stderr.String(), stdout.Len(), c.status, c.msg)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%v: still running 2s after the interruption", c.args)
		}
	}
	if got, _ := os.ReadFile(out); string(got) != "old\n" {
		t.Errorf("the --out file changed: %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

// TestFollowInterruptedBeforeItsFirstLines: stats --follow interrupted
// before it printed anything, as it reads the inputs or computes them,
// ends as stats does: at once, status 128 + the signal's number, nothing
// printed (it read the whole input and exited 0). --from plain: the
// interrupt is already there when the reading starts.
func TestFollowInterruptedBeforeItsFirstLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a","group":"g","metadata":{"accuracy":1}}`+"\n"+`{"id":"b","group":"g","metadata":{"accuracy":0}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(Interrupted{syscall.SIGTERM})
	var stdout, stderr bytes.Buffer
	status := Main(ctx, []string{"stats", "--follow", "--from", "plain", path}, IO{Stdout: &stdout, Stderr: &stderr})
	if want := "rewardlens: interrupted (terminated)\n"; status != 143 || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("status %d, stderr %q, stdout %q; want 143, %q, nothing", status, stderr.String(), stdout.String(), want)
	}
}

// TestFollowInterruptedWaitingForItsFirstLines: stats --follow on an empty
// directory or an empty file, interrupted as it waits for its first
// trajectory, ends with 128 + the signal's number, --health or not, as
// CONTRACT says of a run interrupted before its first lines (it exited 0).
func TestFollowInterruptedWaitingForItsFirstLines(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		signal syscall.Signal
		status int
	}{
		{[]string{"stats", "--follow", "--objective", "acc=acc", dir}, syscall.SIGINT, 130},
		{[]string{"stats", "--follow", "--health", "--objective", "acc=acc", empty}, syscall.SIGTERM, 143},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		var stdout, stderr testkit.SyncBuffer
		done := make(chan int, 1)
		go func() { done <- Main(ctx, c.args, IO{Stdout: &stdout, Stderr: &stderr}) }()
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(stderr.String(), "waiting for a first record"); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%v: not following after 10s: %q", c.args, stderr.String())
			}
		}
		cancel(Interrupted{c.signal})
		select {
		case status := <-done:
			if want := "rewardlens: interrupted (" + c.signal.String() + ")\n"; status != c.status || !strings.HasSuffix(stderr.String(), want) || stdout.String() != "" {
				t.Errorf("%v: status %d, stderr %q, stdout %q; want %d, %q at the end, nothing", c.args, status, stderr.String(), stdout.String(), c.status, want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%v: still running 2s after the interruption", c.args)
		}
	}
}
