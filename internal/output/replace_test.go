//go:build unix

package output

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStaleTemporariesAreRemoved: a write removes the temporary files of
// its target that a process now gone left (killed by SIGKILL mid-write),
// not those of a live process, of another target, nor a name without a
// process ID; its own temporary file holds its process ID.
func TestStaleTemporariesAreRemoved(t *testing.T) {
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := gone.Process.Pid
	if !processGone(dead) {
		t.Skipf("process %d was reused at once", dead)
	}
	stale := fmt.Sprintf(".out.jsonl.tmp-%d-3k2j", dead)
	kept := []string{
		fmt.Sprintf(".out.jsonl.tmp-%d-9x", os.Getppid()), // a live process's
		fmt.Sprintf(".other.jsonl.tmp-%d-3k2j", dead),     // another target's
		".out.jsonl.tmp-3k2j",                             // no process ID
		fmt.Sprintf(".out.jsonl.tmp-+%d-3k2j", dead),      // not a process ID
		"out.jsonl.tmp-1-x",                               // not hidden: not ours
	}
	for _, name := range append([]string{stale}, kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "out.jsonl")
	err := WriteFile(context.Background(), path, func(w io.Writer) error {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), fmt.Sprintf(".out.jsonl.tmp-%d-", os.Getpid())) {
				return nil
			}
		}
		return fmt.Errorf("no temporary file holds this process's ID: %v", entries)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, stale)); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file %s is still there (%v)", stale, err)
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
}

// TestWriteErrorsNameTheTarget: a write that fails names the file asked
// for, not the hidden temporary file (an export into a directory gone).
func TestWriteErrorsNameTheTarget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gone", "rewards.jsonl")
	_, err := WriteNewFile(path, writeString("x\n"))
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("WriteNewFile: %v; want an error naming %s", err, path)
	}
	err = WriteFile(context.Background(), path, writeString("x\n"))
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("WriteFileAtomic: %v; want an error naming %s", err, path)
	}
}

// TestReplaceFileFollowsNoLink: at a name of the program's own,
// CheckReplace refuses a symbolic link (which WriteFile follows), a
// directory and a read-only file; ReplaceFile keeps the mode of the file
// it replaces, and replaces nothing that changed meanwhile (a link
// planted after the check is not written through).
func TestReplaceFileFollowsNoLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "ro.toml")
	if err := os.WriteFile(readOnly, []byte("ro\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		link:     "is a symbolic link: rewardlens does not write through it",
		dir:      "is not a regular file",
		readOnly: "is read-only: rewardlens does not replace it",
	} {
		if _, err := CheckReplace(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckReplace(%s): %v; want ...%s", filepath.Base(path), err, want)
		}
	}

	mine := filepath.Join(dir, "mine.toml")
	if err := os.WriteFile(mine, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(mine, 0o640); err != nil {
		t.Fatal(err)
	}
	old, err := CheckReplace(mine)
	if err != nil || old == nil {
		t.Fatalf("CheckReplace(mine): %v, %v", old, err)
	}
	if err := ReplaceFile(mine, old, writeString("new\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(mine); err != nil || fi.Mode() != 0o640 {
		t.Errorf("replaced: %v, %v; want a regular file of mode 0640", fi.Mode(), err)
	}
	// Checked while absent, a link planted before the rename.
	planted := filepath.Join(dir, "planted.toml")
	err = ReplaceFile(planted, nil, func(w io.Writer) error {
		if err := os.Symlink(victim, planted); err != nil {
			return err
		}
		_, err := io.WriteString(w, "new\n")
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "changed while it was written") {
		t.Errorf("a link planted meanwhile: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(planted); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the planted link was replaced: %v", err)
	}
	if os.Geteuid() == 0 {
		theirs := filepath.Join(dir, "theirs.toml")
		if err := os.WriteFile(theirs, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(theirs, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		if _, err := CheckReplace(theirs); err == nil || !strings.Contains(err.Error(), "belongs to another user (uid 12345)") {
			t.Errorf("another user's file: %v", err)
		}
	}
}
