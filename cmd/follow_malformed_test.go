package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestStatsFollowMalformedLine: a malformed line appended to a followed
// file is skipped, following going on, and said to be: a warning naming
// it, the count in the JSON lines printed after it (skipped_lines), and
// status 2 at the end (3 when an ALERT sets it, both said). Lines skipped
// with --skip-invalid-lines are counted but were asked for: status 0.
func TestStatsFollowMalformedLine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	first := `{"id":"a","batch":0,"group":"g","metadata":{"x":1}}` + "\n" + `{"id":"b","batch":0,"group":"g","metadata":{"x":2}}` + "\n"
	next := `{"id":"c","batch":1,"group":"g","metadata":{"x":1}}` + "\n" + `{"id":"d","batch":1,"group":"g","metadata":{"x":2}}` + "\n"
	for _, c := range []struct {
		name   string
		flags  []string
		status int
	}{
		{"plain", nil, exitBadInput},
		{"skip", []string{"--skip-invalid-lines"}, 0},
	} {
		path := filepath.Join(t.TempDir(), "run.jsonl")
		if err := os.WriteFile(path, []byte(first), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"stats", "--follow", "--format", "json", "--objective", "x=metadata.x"}, c.flags...)
		f := startFollowing(t, append(args, path)...)
		f.await(t, `{"step":0,"trajectories":2,`)
		testfile.Append(t, path, "garbage\n"+next)
		f.await(t, `{"step":1,"trajectories":2,`)
		code := f.stop()
		out, errOut := f.out.String(), f.errOut.String()
		step1 := out[strings.Index(out, `{"step":1,`):]
		if code != c.status || !strings.Contains(step1, `"skipped_lines":1`) {
			t.Errorf("%s: status %d, want %d; stdout:\n%s\nstderr:\n%s", c.name, code, c.status, out, errOut)
		}
		warning := "rewardlens: warning: " + path + ":3:1: invalid JSON: invalid character 'g' looking for beginning of value: line skipped\n"
		if c.status != 0 && (!strings.Contains(errOut, warning) || !strings.HasSuffix(errOut, "rewardlens: 1 malformed line skipped while following (warned of above): bad input\n")) {
			t.Errorf("%s: stderr:\n%s", c.name, errOut)
		}
	}

	// An ALERT's status 3 stands over it, both said.
	path := filepath.Join(t.TempDir(), "alert.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a","batch":0,"group":"g","metadata":{"x":null}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--objective", "x=metadata.x", path)
	f.await(t, "step 0  trajectories 1 (1 invalid)")
	testfile.Append(t, path, "{\n")
	f.awaitErr(t, ": line skipped\n")
	code := f.stop()
	if errOut := f.errOut.String(); code != exitHealthAlert || !strings.HasSuffix(errOut, "; 1 malformed line skipped while following (warned of above): bad input\n") {
		t.Errorf("with an ALERT: status %d, stderr:\n%s", code, errOut)
	}
}
