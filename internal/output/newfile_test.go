package output

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestWriteNewFileNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rewards.jsonl")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for n, want := range []string{"rewards-2.jsonl", "rewards-3.jsonl"} {
		name, err := WriteNewFile(path, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "new %d", n)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if name != filepath.Join(dir, want) {
			t.Errorf("write %d went to %s, want %s", n+1, name, want)
		}
		if got, _ := os.ReadFile(name); string(got) != fmt.Sprintf("new %d", n) {
			t.Errorf("%s holds %q", name, got)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the existing file was replaced: %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d files in the directory, want 3 (no temporary file left)", len(entries))
	}
}

// TestWriteNewFileConcurrently writes the same name from many goroutines
// at once: each gets a file of its own, holding what it wrote.
func TestWriteNewFileConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	const writers = 16
	names := make([]string, writers)
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			name, err := WriteNewFile(path, func(w io.Writer) error {
				_, err := fmt.Fprintf(w, "writer %d", g)
				return err
			})
			if err != nil {
				t.Error(err)
			}
			names[g] = name
		})
	}
	wg.Wait()
	for g, name := range names {
		if got, _ := os.ReadFile(name); string(got) != fmt.Sprintf("writer %d", g) {
			t.Errorf("writer %d's file %s holds %q", g, name, got)
		}
	}
	slices.Sort(names)
	if len(slices.Compact(names)) != writers {
		t.Errorf("two writers got the same file: %v", names)
	}
}

func TestWriteNewFileFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	_, err := WriteNewFile(filepath.Join(dir, "x.jsonl"), func(w io.Writer) error { return fmt.Errorf("boom") })
	if err == nil {
		t.Fatal("a failed write reported no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed write left %d files", len(entries))
	}
}

func TestNumberedName(t *testing.T) {
	for _, tc := range []struct {
		path string
		n    int
		want string
	}{
		{"a/out.jsonl", 1, "a/out.jsonl"},
		{"a/out.jsonl", 2, "a/out-2.jsonl"},
		{"out.tar.gz", 3, "out.tar-3.gz"},
		{".env", 2, ".env-2"},
		{"noext", 12, "noext-12"},
	} {
		if got := numberedName(tc.path, tc.n); got != tc.want {
			t.Errorf("numberedName(%q, %d) = %q, want %q", tc.path, tc.n, got, tc.want)
		}
	}
}
