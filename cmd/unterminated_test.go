package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnterminatedCSVWarns: compute and stats read a CSV file whose last
// row has no line end as complete, and warn that its last value may be
// cut.
func TestUnterminatedCSVWarns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	if err := os.WriteFile(path, []byte("id,group,x\na,g,1\nb,g,1000"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "rewardlens: warning: " + path + ":3: the last row has no line end: read as complete; a file still being written may have its last value cut\n"
	for _, command := range []string{"compute", "stats"} {
		out, errOut, code := run(t, "", command, "--objective", "x=metadata.x", path)
		if code != 0 || strings.Count(errOut, want) != 1 || (command == "compute" && strings.Count(out, "\n") != 2) {
			t.Errorf("%s: status %d, stdout %q, stderr %q", command, code, out, errOut)
		}
	}
}
