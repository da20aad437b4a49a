package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// loggedStep returns step's rows of a run logging grpo's advantage: two
// groups of a pass and a fail; rows [from, to) of them.
func loggedStep(step, from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		x, adv := 1-i%2, 0.7071
		if x == 0 {
			adv = -adv
		}
		fmt.Fprintf(&b, `{"step":%d,"group":"g%d","metadata":{"x":%d,"adv":%g}}`+"\n", step, i/2, x, adv)
	}
	return b.String()
}

var loggedFlags = []string{"--method", "grpo", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adv", "--batch-by", "step"}

// TestStatsFollowPartialStepAgreementProvisional: a step read in part
// (its rows coming while following, fewer than the step before's) has a
// group of one whose reward differs from the advantage logged of the
// whole group: the trainer check's warning under its partial line is
// marked provisional, in JSON too; the rest of the step coming, its
// updated line withdraws it.
func TestStatsFollowPartialStepAgreementProvisional(t *testing.T) {
	shortQuiet(t)
	for _, format := range []string{"table", "json"} {
		path, f := followLoggedStep0(t, format)
		if format == "table" {
			f.await(t, "step 0 ")
			testfile.Append(t, path, loggedStep(1, 0, 3))
			f.await(t, "step 1  trajectories 3 ")
			f.await(t, "  warning (step read in part): 1 of 3 rows differs from the logged advantage")
			testfile.Append(t, path, loggedStep(1, 3, 4))
			f.await(t, "step 1 (updated)  trajectories 4 ")
			f.await(t, "  the warning of this step's earlier line is withdrawn\n")
		} else {
			f.await(t, `"step":0,`)
			testfile.Append(t, path, loggedStep(1, 0, 3))
			f.await(t, `"provisional":true}`)
			testfile.Append(t, path, loggedStep(1, 3, 4))
			f.await(t, `"updated":true,"warning_withdrawn":"1 of 3 rows differs from the logged advantage`)
		}
		if code := f.stop(); code != 0 {
			t.Errorf("%s: status %d, stderr:\n%s", format, code, f.errOut.String())
		}
	}
}

// TestStatsFollowStepEndedLaterAgreementHedged: a run writing two steps
// at once (open-instruct's rollout threads) ends step 1 after step 2
// started. Step 1's part, read first and short of step 0's rows though
// not most of its groups, is not marked partial, but its trainer check
// warning says it may be read in part; the rest of it coming later, its
// updated line withdraws the warning.
func TestStatsFollowStepEndedLaterAgreementHedged(t *testing.T) {
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(loggedStep(0, 0, 4)+loggedStep(1, 0, 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, append(append([]string{"stats", "--follow"}, loggedFlags...), path)...)
	f.await(t, "step 1  trajectories 3 ")
	f.await(t, "  warning (fewer rows than step 0's 4: read in part?): 1 of 3 rows differs from the logged advantage")
	testfile.Append(t, path, loggedStep(2, 0, 4))
	testfile.Append(t, path, loggedStep(1, 3, 4))
	f.await(t, "step 1 (updated)  trajectories 4 ")
	f.await(t, "  the warning of this step's earlier line is withdrawn\n")
	f.await(t, "step 2  trajectories 4 ")
	if code := f.stop(); code != 0 || strings.Count(f.out.String(), "warning") != 2 {
		t.Errorf("status %d, stdout:\n%s\nstderr:\n%s", code, f.out.String(), f.errOut.String())
	}
}

// TestStatsFollowUpdatedAgreementWarningReplaces: the rest of a step
// read in part comes with a row of its own that differs from the logged
// advantage: the updated line's warning says it replaces the earlier
// line's, in JSON with the earlier warning as warning_withdrawn.
func TestStatsFollowUpdatedAgreementWarningReplaces(t *testing.T) {
	shortQuiet(t)
	wrong := strings.Replace(loggedStep(1, 3, 4), `"adv":-0.7071`, `"adv":0.9`, 1)
	for _, format := range []string{"table", "json"} {
		path, f := followLoggedStep0(t, format)
		if format == "table" {
			f.await(t, "step 0 ")
			testfile.Append(t, path, loggedStep(1, 0, 3))
			f.await(t, "step 1  trajectories 3 ")
			testfile.Append(t, path, wrong)
			f.await(t, "step 1 (updated)  trajectories 4 ")
			f.await(t, "  warning (replaces the earlier line's): 1 of 4 rows differs from the logged advantage")
		} else {
			f.await(t, `"step":0,`)
			testfile.Append(t, path, loggedStep(1, 0, 3))
			f.await(t, `"provisional":true}`)
			testfile.Append(t, path, wrong)
			f.await(t, `"updated":true,"warning_withdrawn":"1 of 3 rows differs from the logged advantage`)
			if out := f.out.String(); !strings.Contains(out, `"warning":"1 of 4 rows differs`) {
				t.Errorf("stdout:\n%s", out)
			}
		}
		if code := f.stop(); code != 0 {
			t.Errorf("%s: status %d, stderr:\n%s", format, code, f.errOut.String())
		}
	}
}

// followLoggedStep0 starts stats --follow --format format, with
// loggedFlags, on a new file holding step 0 (loggedStep(0, 0, 4)), and
// returns the file's path and the following command.
func followLoggedStep0(t *testing.T, format string) (string, *following) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(loggedStep(0, 0, 4)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, startFollowing(t, append(append([]string{"stats", "--follow", "--format", format}, loggedFlags...), path)...)
}
