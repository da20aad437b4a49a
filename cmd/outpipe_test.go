//go:build linux

package cmd

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestOutWritesDescriptorsInPlace: --out /dev/fd/N or /proc/self/fd/N
// (what /dev/stdout links to) writes the pipe or socket descriptor N holds
// in place, for compute, stats and prompts; it was refused with "write
// /proc/self/fd/pipe:[…]: no such file or directory", the link's text
// taken for a file beside it.
func TestOutWritesDescriptorsInPlace(t *testing.T) {
	socketPair := func(t *testing.T) (*os.File, *os.File) {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Skip("no socket pair:", err)
		}
		return os.NewFile(uintptr(fds[0]), "read end"), os.NewFile(uintptr(fds[1]), "write end")
	}
	commands := [][]string{
		{"compute", "--objective", "accuracy=metadata.accuracy", example("grpo.jsonl")},
		{"stats", "--objective", "accuracy=metadata.accuracy", example("grpo.jsonl")},
		{"prompts", verlDir},
	}
	for _, kind := range []string{"pipe", "socket"} {
		for _, dir := range []string{"/dev/fd/", "/proc/self/fd/"} {
			for _, args := range commands {
				var r, w *os.File
				if kind == "pipe" {
					var err error
					if r, w, err = os.Pipe(); err != nil {
						t.Fatal(err)
					}
				} else {
					r, w = socketPair(t)
				}
				read := make(chan string)
				go func() {
					b, _ := io.ReadAll(r)
					read <- string(b)
				}()
				out := dir + strconv.Itoa(int(w.Fd()))
				want, _, _ := run(t, "", args...)
				got, stderr, code := run(t, "", append([]string{args[0], "--out", out}, args[1:]...)...)
				w.Close()
				if text := <-read; code != exitOK || got != "" || text != want {
					t.Errorf("%s %s --out %s: status %d, stderr %q, stdout %q; the %s got %q, want %q", kind, args[0], out, code, stderr, got, kind, text, want)
				}
				r.Close()
			}
		}
	}
}

// TestOutPipeClosedEarly: the reader of an --out pipe that closes it early
// (head) ends the run with status 141, as when it is standard output's
// (SIGPIPE), saying nothing; it was status 1, "broken pipe".
func TestOutPipeClosedEarly(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	out := "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))
	_, stderr, code := run(t, "", "compute", "--objective", "accuracy=metadata.accuracy", "--out", out, example("grpo.jsonl"))
	if code != exitBrokenPipe || strings.Contains(stderr, "broken pipe") {
		t.Errorf("status %d, stderr %q; want %d, no error", code, stderr, exitBrokenPipe)
	}
}

// TestOutDescriptorOfAFile: --out /dev/fd/N, N a file opened for
// appending (the shell's >>), appends to it, what it held kept; with the
// file opened at its start (>), writes over it from there. It was
// replaced by a new file, the appended-to content lost.
func TestOutDescriptorOfAFile(t *testing.T) {
	args := []string{"--objective", "accuracy=metadata.accuracy", example("grpo.jsonl")}
	want, _, _ := run(t, "", append([]string{"compute"}, args...)...)
	for _, tc := range []struct {
		flag   int
		before string
	}{{os.O_APPEND, "kept line\n"}, {os.O_TRUNC, ""}} {
		path := t.TempDir() + "/log.jsonl"
		if err := os.WriteFile(path, []byte("kept line\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|tc.flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := "/dev/fd/" + strconv.Itoa(int(f.Fd()))
		_, stderr, code := run(t, "", append([]string{"compute", "--out", out}, args...)...)
		f.Close()
		got, _ := os.ReadFile(path)
		if code != exitOK || string(got) != tc.before+want {
			t.Errorf("--out %s (flag %#x): status %d, stderr %q; the file holds %q, want %q", out, tc.flag, code, stderr, got, tc.before+want)
		}
	}
}

// TestOutDescriptorNotWritable: --out naming a descriptor open for
// reading only, or not open, is refused before anything is read (exit
// 2), not failed at the end of the write.
func TestOutDescriptorNotWritable(t *testing.T) {
	read, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	defer w.Close()
	r, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	closed := strconv.Itoa(int(r.Fd()))
	r.Close() // its number is free: not open, and no other pipe takes it
	for out, want := range map[string]string{
		"/dev/fd/" + strconv.Itoa(int(read.Fd())): "is open for reading only",
		"/dev/fd/" + closed:                       "is not open",
	} {
		_, stderr, code := run(t, "", "compute", "--out", out, "--objective", "accuracy=metadata.accuracy", example("grpo.jsonl"))
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("--out %s: status %d, stderr %q; want 2 and %q", out, code, stderr, want)
		}
	}
}

// TestOutPipeClosedEarlyAfterAnAlert: stats --health whose report goes
// to an --out pipe closed early still exits 3 for its ALERT, saying both,
// not 141: a pipeline watching the run reads the ALERT.
func TestOutPipeClosedEarlyAfterAnAlert(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	out := "/dev/fd/" + strconv.Itoa(int(w.Fd()))
	sample := filepath.Join("..", "sample_data")
	_, stderr, code := run(t, "", "stats", "--health", "--config", filepath.Join(sample, "experiment.toml"), "--out", out, filepath.Join(sample, "experiment.jsonl"))
	if code != exitHealthAlert || !strings.Contains(stderr, "ALERT") || !strings.Contains(stderr, "broken pipe") {
		t.Errorf("status %d, stderr %q; want %d, the ALERT and the write's error", code, stderr, exitHealthAlert)
	}
}

// TestOutDescriptorThroughLinks: /dev/stdin is a link to /proc/self/fd/0,
// and a user's link may name /dev/fd/N: each is the descriptor it names,
// refused when open for reading only (it replaced the file read before),
// written in place when open for writing.
func TestOutDescriptorThroughLinks(t *testing.T) {
	args := []string{"--objective", "accuracy=metadata.accuracy", example("grpo.jsonl")}
	want, _, _ := run(t, "", append([]string{"compute"}, args...)...)
	dir := t.TempDir()
	read, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	defer w.Close()
	readLink := filepath.Join(dir, "read")
	if err := os.Symlink("/dev/fd/"+strconv.Itoa(int(read.Fd())), readLink); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, "", append([]string{"compute", "--out", readLink}, args...)...)
	if code != 2 || !strings.Contains(stderr, "is open for reading only") {
		t.Errorf("--out a link to a read descriptor: status %d, stderr %q", code, stderr)
	}

	path := filepath.Join(dir, "log.jsonl")
	if err := os.WriteFile(path, []byte("kept line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	writeLink := filepath.Join(dir, "write")
	if err := os.Symlink("/dev/fd/"+strconv.Itoa(int(f.Fd())), writeLink); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(t, "", append([]string{"compute", "--out", writeLink}, args...)...)
	if got, _ := os.ReadFile(path); code != exitOK || string(got) != "kept line\n"+want {
		t.Errorf("--out a link to an appending descriptor: status %d, stderr %q; the file holds %q", code, stderr, got)
	}
}
