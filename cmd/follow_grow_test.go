package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestStatsFollowCSVGrownKeepsDeadSignal: a followed CSV file whose run
// appends a step, the task metric read of the records (an expression),
// keeps its dead signal: the rows appended are new ones, not the file
// read again, which left the dead signal out with a warning.
func TestStatsFollowCSVGrownKeepsDeadSignal(t *testing.T) {
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.csv")
	step0 := "step,group,acc,score\n0,a,1,1\n0,a,1,1\n0,b,0,0\n0,b,0,0\n0,c,1,1\n0,c,0,0\n"
	if err := os.WriteFile(path, []byte(step0), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--objective", "score=metadata.score", "--task-metric", "metadata.acc", "--batch-by", "step", path)
	f.await(t, "step 0 ")
	testfile.Append(t, path, "1,a,0,-0.1\n1,a,0,-0.3\n1,b,1,0.5\n1,b,0,0.5\n1,c,1,1\n1,c,1,1\n")
	f.await(t, "step 1 ")
	f.stop()
	lines := strings.Split(f.out.String(), "\n")
	const step1 = "  dead signal: 2 zero-spread groups (1 all-pass, 0 all-fail, 1 other), 1 phantom;"
	if len(lines) < 4 || !strings.HasPrefix(lines[3], step1) || strings.Contains(f.errOut.String(), "read again") {
		t.Errorf("stdout:\n%s\nstderr:\n%s\nwant step 1's dead signal, %q, and no file read again", f.out.String(), f.errOut.String(), step1)
	}
}
