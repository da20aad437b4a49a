package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONArrayElementPlace: a trajectory of a one-line JSON array (as
// Python's json.dump writes one) is said to be read at its element's
// number, from 1; one of a pretty-printed array at its line, as before.
func TestJSONArrayElementPlace(t *testing.T) {
	dir := t.TempDir()
	elements := make([]string, 10)
	for i := range elements {
		elements[i] = fmt.Sprintf(`{"id": "t%d", "group": "g", "acc": %d}`, i, i%2)
	}
	elements[9] = `{"id": "t9", "group": "g"}` // no acc: invalid
	oneLine := filepath.Join(dir, "one_line.json")
	pretty := filepath.Join(dir, "pretty.json")
	if err := os.WriteFile(oneLine, []byte("["+strings.Join(elements, ", ")+"]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pretty, []byte("[\n  "+strings.Join(elements, ",\n  ")+"\n]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, at string
	}{
		{oneLine, oneLine + ":element 10"},
		{pretty, pretty + ":11"},
	} {
		_, errOut, code := run(t, "", "compute", "--objective", "acc=acc", c.path)
		if want := "acc: missing ×1 (first at " + c.at + ")"; code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s: status %d, stderr %q lacks %q", c.path, code, errOut, want)
		}
		out, errOut, code := run(t, "", "stats", "--format", "json", "--objective", "acc=acc", c.path)
		var stats struct {
			InvalidAt map[string]string `json:"invalid_at"`
		}
		if err := json.Unmarshal([]byte(out), &stats); code != 0 || err != nil {
			t.Fatalf("%s: stats status %d (%s), %v", c.path, code, errOut, err)
		}
		if got := stats.InvalidAt["acc: missing"]; got != c.at {
			t.Errorf("%s: stats invalid_at %q, want %q", c.path, got, c.at)
		}
	}
}
