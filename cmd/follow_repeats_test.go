package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestStatsFollowWarnsOfRepeatedIDs: rows appended while following that
// repeat the IDs of an earlier step's (a resumed run re-logging step 0)
// are warned of on stderr as they come, as stats warns of a whole
// reading's, naming the IDs and the step, counted across updates; in
// both formats. A first reading that holds repeats says so too.
func TestStatsFollowWarnsOfRepeatedIDs(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	step := func(step, value int) string {
		var b strings.Builder
		for c := range 2 {
			fmt.Fprintf(&b, `{"id":"s%d-c%d","batch":%d,"group":"g","metadata":{"x":%d}}`+"\n", step, c, step, value+c)
		}
		return b.String()
	}
	for format, step0 := range map[string]string{"table": "step 0  trajectories 2", "json": `{"step":0,"trajectories":2`} {
		path := filepath.Join(t.TempDir(), "run.jsonl")
		if err := os.WriteFile(path, []byte(step(0, 1)+step(1, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		f := startFollowing(t, "stats", "--follow", "--format", format, "--objective", "x=metadata.x", path)
		f.await(t, step0)
		testfile.Append(t, path, step(0, 5))
		first := `rewardlens: warning: 2 trajectories repeat an earlier one's ID ("s0-c0", "s0-c1") at step 0; each is computed` + "\n"
		f.awaitErr(t, first)
		testfile.Append(t, path, step(2, 1)+strings.SplitAfter(step(0, 7), "\n")[0])
		second := `rewardlens: warning: 1 trajectory repeats an earlier one's ID ("s0-c0") at step 0; 3 so far; each is computed` + "\n"
		f.awaitErr(t, second)
		f.stop()
		if errOut := f.errOut.String(); strings.Count(errOut, "repeat") != 2 {
			t.Errorf("%s: stderr, want each update's repeats said once:\n%s", format, errOut)
		}
	}

	path := filepath.Join(t.TempDir(), "resumed.jsonl")
	if err := os.WriteFile(path, []byte(step(0, 1)+step(0, 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--objective", "x=metadata.x", path)
	f.awaitErr(t, `rewardlens: warning: 2 trajectories repeat an earlier one's ID ("s0-c0", "s0-c1") at step 0; each is computed`+"\n")
	f.stop()
}
