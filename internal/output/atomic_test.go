//go:build unix

package output

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// writeString returns a write function for WriteFile writing s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func TestWriteFilePermissions(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()

	path := filepath.Join(dir, "new.jsonl")
	if err := WriteFile(context.Background(), path, writeString("x\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 {
		t.Fatalf("new file: mode %v (err %v), want 0640 (0666 less the umask 027)", st.Mode().Perm(), err)
	}

	kept := filepath.Join(dir, "kept.jsonl")
	if err := os.WriteFile(kept, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(kept, 0o604); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(context.Background(), kept, writeString("new\n")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(kept)
	if err != nil || st.Mode().Perm() != 0o604 {
		t.Fatalf("replaced file: mode %v (err %v), want the old file's 0604", st.Mode().Perm(), err)
	}
	if got, _ := os.ReadFile(kept); string(got) != "new\n" {
		t.Fatalf("replaced file holds %q", got)
	}
}

// TestWriteFileFailure checks that a failed write leaves the old file
// as it was and no temporary file behind.
func TestWriteFileFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(context.Background(), path, func(w io.Writer) error {
		io.WriteString(w, "half a fi")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Fatalf("old file now holds %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the old file", len(entries))
	}
	if err := WriteFile(context.Background(), filepath.Join(dir, "missing", "out.jsonl"), writeString("x")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("writing into a missing directory: %v, want ErrNotExist", err)
	}
}

// TestWriteFileLarge writes several writeback steps, in writes of
// odd sizes, and reads back the same bytes.
func TestWriteFileLarge(t *testing.T) {
	want := bytes.Repeat([]byte("0123456789abcdef\n"), 3*writebackStep/17+1000)
	path := filepath.Join(t.TempDir(), "large.jsonl")
	err := WriteFile(context.Background(), path, func(w io.Writer) error {
		for rest := want; len(rest) > 0; {
			n := min(len(rest), 1<<16+123)
			if _, err := w.Write(rest[:n]); err != nil {
				return err
			}
			rest = rest[n:]
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Fatalf("read back %d bytes, want the %d written", len(got), len(want))
	}
}

// TestWriteFileLink checks that writing to a symbolic link replaces
// the file it names and leaves the link a link.
func TestWriteFileLink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "run42.jsonl"), filepath.Join(dir, "latest.jsonl")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("run42.jsonl", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(context.Background(), link, writeString("new\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link is now %v (err %v), want a symbolic link still", st.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new\n" {
		t.Fatalf("the linked file holds %q, want the new text", got)
	}
}

// TestWriteFilePipe checks that a path naming something other than a
// regular file, here a named pipe (as /dev/stdout may be), is written in
// place rather than replaced by a regular file.
func TestWriteFilePipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	read := make(chan []byte)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			read <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		read <- b
	}()
	if err := WriteFile(context.Background(), path, writeString("through the pipe\n")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the pipe is now %v (err %v), want a named pipe still", st.Mode(), err)
	}
	if got := <-read; string(got) != "through the pipe\n" {
		t.Fatalf("the reader got %q", got)
	}
}
