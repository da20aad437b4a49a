package output

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRemoveTemporaries: the temporary file of a write under way is
// removed by RemoveTemporaries (a second signal), and the write then
// fails rather than committing anything.
func TestRemoveTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.jsonl")
	err := WriteFile(context.Background(), path, func(w io.Writer) error {
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 || !strings.Contains(entries[0].Name(), ".tmp-") {
			t.Errorf("during the write: %v, want one temporary file", entries)
		}
		RemoveTemporaries()
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("after RemoveTemporaries: %v", entries)
		}
		_, err := io.WriteString(w, "x\n")
		return err
	})
	if err == nil {
		t.Error("the write committed after its temporary file was removed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}
