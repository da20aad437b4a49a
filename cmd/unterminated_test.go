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

// TestUnterminatedCSVStdinWarns: a CSV on standard input whose last row
// has no line end is warned of as a file is, at that row's line (a quoted
// line end before it counted), and not when it ends with one. The format
// is told by the content.
func TestUnterminatedCSVStdinWarns(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"id,group,x\na,g,1\nb,g,1000", "rewardlens: warning: <stdin>:3: the last row has no line end: read as complete; a file still being written may have its last value cut\n"},
		{"id,group,x,note\na,g,1,\"two\nlines\"\nb,g,2,\"one, \"\"quoted\"\"\"", "rewardlens: warning: <stdin>:4: the last row has no line end"},
		{"id,group,x\na,g,1\n", ""},
	} {
		for _, command := range []string{"compute", "stats"} {
			_, errOut, code := run(t, c.text, command, "--objective", "x=metadata.x", "-")
			if code != 0 || c.want != "" && strings.Count(errOut, c.want) != 1 || c.want == "" && strings.Contains(errOut, "line end") {
				t.Errorf("%s %q: status %d, stderr %q, want %q", command, c.text, code, errOut, c.want)
			}
		}
	}
}
