//go:build unix

package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutRespectsItsTarget: --out refuses to replace a read-only file
// (--force replaces it, keeping its mode), follows a dangling symbolic
// link to create its target, refuses standard input's own file, and says
// what is wrong before reading anything, naming the target, not a
// temporary file (issue 16).
func TestOutRespectsItsTarget(t *testing.T) {
	dir := t.TempDir()
	in := example("grpo.jsonl")
	args := func(out string, extra ...string) []string {
		return append([]string{"compute", "--objective", "accuracy=metadata.accuracy", "--out", out}, append(extra, in)...)
	}

	readOnly := filepath.Join(dir, "read-only.jsonl")
	if err := os.WriteFile(readOnly, []byte("old\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, "", args(readOnly)...)
	if code != exitBadInput || !strings.Contains(stderr, "--out "+readOnly+" is read-only") {
		t.Errorf("read-only target: status %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(readOnly); string(b) != "old\n" {
		t.Errorf("the read-only file was changed: %q", b)
	}
	if _, stderr, code = run(t, "", args(readOnly, "--force")...); code != exitOK {
		t.Fatalf("--force: status %d, %q", code, stderr)
	}
	if fi, _ := os.Stat(readOnly); fi.Mode().Perm() != 0o444 {
		t.Errorf("--force: mode %v, want the old 0444", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(readOnly); !bytes.Contains(b, []byte(`"reward"`)) {
		t.Errorf("--force did not write the rewards: %q", b)
	}

	// A dangling link: its target is created and the link stays a link.
	target, link := filepath.Join(dir, "made.jsonl"), filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("made.jsonl", link); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code = run(t, "", args(link)...); code != exitOK {
		t.Fatalf("dangling link: status %d, %q", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
	if b, err := os.ReadFile(target); err != nil || !bytes.Contains(b, []byte(`"reward"`)) {
		t.Errorf("the link's target: %q, %v", b, err)
	}

	// A directory that does not exist: said at once, naming the target.
	missing := filepath.Join(dir, "no-such-dir", "out.jsonl")
	_, stderr, code = run(t, "", args(missing)...)
	if code != exitBadInput || !strings.Contains(stderr, missing) || strings.Contains(stderr, ".tmp-") {
		t.Errorf("unwritable target: status %d, %q", code, stderr)
	}
}

// TestOutIsNotStandardInput: `compute --out X - < X` refuses, leaving X.
func TestOutIsNotStandardInput(t *testing.T) {
	data, err := os.ReadFile(example("grpo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), []string{"compute", "--objective", "accuracy=metadata.accuracy", "--out", path, "-"}, IO{Stdin: f, Stdout: &out, Stderr: &errOut})
	if code != exitBadInput || !strings.Contains(errOut.String(), "is standard input") {
		t.Errorf("status %d, %q", code, errOut.String())
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, data) {
		t.Error("the input was changed")
	}
}

// TestOutKeepsAnotherUsersFile: another user's file is refused; --force
// replaces it and keeps its owner (root only: only root can give a file
// away).
func TestOutKeepsAnotherUsersFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a file another user's")
	}
	path := filepath.Join(t.TempDir(), "theirs.jsonl")
	if err := os.WriteFile(path, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	args := []string{"compute", "--objective", "accuracy=metadata.accuracy", "--out", path, example("grpo.jsonl")}
	if _, stderr, code := run(t, "", args...); code != exitBadInput || !strings.Contains(stderr, "belongs to another user (uid 12345)") {
		t.Errorf("another user's file: status %d, %q", code, stderr)
	}
	if _, stderr, code := run(t, "", append(args, "--force")...); code != exitOK {
		t.Fatalf("--force: status %d, %q", code, stderr)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 12345 || st.Gid != 12345 || fi.Mode().Perm() != 0o640 {
		t.Errorf("owner %d:%d mode %v, want 12345:12345 0640", st.Uid, st.Gid, fi.Mode().Perm())
	}
}

// TestMaxRecordBytesFlag: --max-record-bytes takes a size with a unit and
// bounds the lines read; a bad size is a usage error.
func TestMaxRecordBytesFlag(t *testing.T) {
	line := `{"id":"long","metadata":{"accuracy":1,"pad":"` + strings.Repeat("x", 2000) + `"}}` + "\n"
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a","metadata":{"accuracy":0}}`+"\n"+line), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, "", "compute", "--max-record-bytes", "1KiB", path)
	if code != exitBadInput || !strings.Contains(stderr, path+":2: record longer than 1 KiB") {
		t.Errorf("status %d, %q", code, stderr)
	}
	if _, stderr, code = run(t, "", "compute", "--max-record-bytes", "4KiB", path); code != exitOK {
		t.Errorf("under the bound: status %d, %q", code, stderr)
	}
	if _, stderr, code = run(t, "", "compute", "--max-record-bytes", "lots", path); code != exitBadInput || !strings.Contains(stderr, "--max-record-bytes") {
		t.Errorf("a bad size: status %d, %q", code, stderr)
	}
}

// TestOutIsAFilesPath: --out of a directory, or --out "" given, is
// refused before anything is read (status 2, the flag named), by each
// command that writes; "-" is standard output.
func TestOutIsAFilesPath(t *testing.T) {
	in := example("grpo.jsonl")
	for _, command := range []string{"compute", "stats", "prompts"} {
		for _, tc := range []struct{ out, want string }{
			{t.TempDir(), "is a directory: give a file's path"},
			{"", `--out "": no path`},
		} {
			out, errOut, code := run(t, "", command, "--out", tc.out, in)
			checkBadInput(t, out, errOut, code, tc.want)
		}
		if out, errOut, code := run(t, "", command, "--out", "-", in); code != 0 || out == "" {
			t.Errorf("%s --out -: status %d, %d bytes out, stderr %q", command, code, len(out), errOut)
		}
	}
}
