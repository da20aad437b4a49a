package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain runs main itself when a test starts this binary as rewardlens
// (REWARDLENS_MAIN set): a real process, to which a test sends signals.
func TestMain(m *testing.M) {
	if os.Getenv("REWARDLENS_MAIN") != "" {
		main()
	}
	os.Exit(m.Run())
}

// TestDuplicateSignalIsOneInterrupt: two SIGINTs back to back, as
// `timeout -s INT` sends them (to the command, then to its process group),
// are one interrupt: stats --follow --health ends as on a single ctrl+c,
// saying the step in part left out of the verdict, status 0, not 130.
func TestDuplicateSignalIsOneInterrupt(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"1.jsonl", "2.jsonl", "3.jsonl"} {
		data, err := os.ReadFile(filepath.Join("sample_data", "verl", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "3.jsonl" { // its first three lines: three groups of one, all pass or all fail (dead signal under --group-of-one zero)
			data = []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:3], ""))
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	var stderr bytes.Buffer
	child := exec.Command(os.Args[0], "stats", "--follow", "--health", "--group-of-one", "zero", dir)
	child.Env = append(os.Environ(), "REWARDLENS_MAIN=1")
	child.Stdout, child.Stderr = stdout, &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if out, _ := os.ReadFile(stdout.Name()); strings.Contains(string(out), "step 3  trajectories 3 ") {
			break
		}
		if time.Now().After(deadline) {
			_ = child.Process.Kill()
			t.Fatalf("step 3 not printed after 20s")
		}
	}
	// Two signals sent at the same instant merge into one pending signal:
	// the second comes a moment after the first, as timeout's do.
	if err := child.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Millisecond)
	if err := child.Process.Signal(syscall.SIGINT); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	err = child.Wait()
	if err != nil || !strings.Contains(stderr.String(), "health: step 3 left out of the verdict (exit status)") {
		t.Errorf("ended with %v, stderr:\n%s\nwant status 0 and step 3's provisional findings said left out", err, stderr.String())
	}
}

// TestSecondSignalEndsAtOnce: after the first signal ends the run's
// context, another within duplicateSignalInterval is ignored, and one
// after it exits with 128 + its number.
func TestSecondSignalEndsAtOnce(t *testing.T) {
	signals := make(chan os.Signal, 2)
	exited := make(chan int, 1)
	ctx, cancel := context.WithCancelCause(context.Background())
	go endOnSignals(signals, cancel, func(status int) { exited <- status })
	signals <- syscall.SIGINT
	signals <- syscall.SIGINT
	<-ctx.Done()
	select {
	case status := <-exited:
		t.Fatalf("a duplicate signal exited with %d", status)
	case <-time.After(duplicateSignalInterval + 100*time.Millisecond):
	}
	signals <- syscall.SIGTERM
	select {
	case status := <-exited:
		if status != 143 {
			t.Errorf("status %d, want 143", status)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("a second signal after the interval did not exit")
	}
}

// TestClosedStdoutKeepsTheAlert: stats --health writing to a standard
// output its reader closed (| head) ends with 3 and the ALERT on stderr,
// not the runtime's SIGPIPE exit that lost it; compute ends with 141 as
// any filter does.
func TestClosedStdoutKeepsTheAlert(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"stats", "--health", "--config", "sample_data/experiment.toml", "sample_data/experiment.jsonl"}, 3, "health: 2 ALERTs"},
		{[]string{"compute", "--config", "sample_data/experiment.toml", "sample_data/experiment.jsonl"}, 141, ""},
		{[]string{"stats", "--help"}, 141, ""}, // cobra drops the help's write error
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close() // the reader is gone before the first write
		var stderr bytes.Buffer
		child := exec.Command(os.Args[0], c.args...)
		child.Env = append(os.Environ(), "REWARDLENS_MAIN=1")
		child.Stdout, child.Stderr = w, &stderr
		err = child.Run()
		w.Close()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != c.status || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("%s: ended with %v, stderr %q; want status %d and %q", c.args[0], err, stderr.String(), c.status, c.stderr)
		}
	}
}

// TestFollowClosedStdoutKeepsTheAlert: stats --follow --health whose
// reader leaves after a line with an ALERT (| head) ends with 3 and the
// ALERT said at its next write, not 141.
func TestFollowClosedStdoutKeepsTheAlert(t *testing.T) {
	dir := t.TempDir()
	copyStep := func(name string, lines int) {
		data, err := os.ReadFile(filepath.Join("sample_data", "verl", name))
		if err != nil {
			t.Fatal(err)
		}
		if lines > 0 {
			data = []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:lines], ""))
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Three groups of one, all pass or all fail: ALERTs under
	// --group-of-one zero, which stand (the run's first step, no step
	// before it to be short of: not provisional).
	copyStep("3.jsonl", 3)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	child := exec.Command(os.Args[0], "stats", "--follow", "--health", "--group-of-one", "zero", dir)
	child.Env = append(os.Environ(), "REWARDLENS_MAIN=1")
	child.Stdout, child.Stderr = w, &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	// The reader takes the lines up to the ALERT's, then leaves.
	read := make([]byte, 1<<16)
	var seen []byte
	for !bytes.Contains(seen, []byte("ALERT")) {
		n, err := r.Read(read)
		if err != nil {
			_ = child.Process.Kill()
			t.Fatalf("no ALERT line before %v: %q", err, seen)
		}
		seen = append(seen, read[:n]...)
	}
	r.Close()
	copyStep("3.jsonl", 0) // the step's other lines: its next line finds the reader gone
	done := make(chan error, 1)
	go func() { done <- child.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		_ = child.Process.Kill()
		t.Fatal("not ended 20 s after its reader left")
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.Contains(stderr.String(), "health: ") {
		t.Errorf("ended with %v, stderr:\n%s\nwant status 3 and the health summary", err, stderr.String())
	}
}
