package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// unequalWarnings returns the lines of stderr that warn of groups of
// unequal size.
func unequalWarnings(stderr string) []string {
	var out []string
	for line := range strings.Lines(stderr) {
		if strings.Contains(line, "groups of unequal size") {
			out = append(out, line)
		}
	}
	return out
}

// TestStatsFollowVerlUnequalGroups: stats --follow on a verl dump warns
// of a step whose groups are of unequal size as stats does, once: grouped
// by input (the legacy trainer: two prompts of the same text merged) and
// by uid (the V1 trainer: a group cut short).
func TestStatsFollowVerlUnequalGroups(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	t.Run("input", func(t *testing.T) {
		dir := verlSetting("legacy_duplicate")
		_, errOut, code := run(t, "", "stats", dir)
		want := unequalWarnings(errOut)
		if code != 0 || len(want) != 1 {
			t.Fatalf("stats: status %d, stderr %q", code, errOut)
		}
		f := startFollowing(t, "stats", "--follow", dir)
		f.await(t, "step 2 ")
		f.stop()
		if got := unequalWarnings(f.errOut.String()); len(got) != 1 || got[0] != want[0] {
			t.Errorf("stats --follow warns %q, stats %q", got, want)
		}
	})
	t.Run("uid", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(verlSetting("v1_uid"), "1.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		last := lines[11] // the last of the third uid's four
		if !strings.Contains(last, `"uid": "e0289a3a-8a0d-4e30-a82d-999e00240aad_3_0"`) {
			t.Fatalf("the fixture changed: %s", last)
		}
		path := filepath.Join(t.TempDir(), "1.jsonl")
		if err := os.WriteFile(path, []byte(strings.Join(lines[:11], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		f := startFollowing(t, "stats", "--follow", path)
		f.await(t, "step 1  trajectories 11 ")
		f.stop()
		want := "rewardlens: warning: step 1: groups of unequal size: 2 of 3 groups have 4 trajectories, \"e0289a3a-8a0d-4e30-a82d-999e00240aad\" 3 (a trainer's are all of one size: two prompts of the same text merged, evaluation rows or a partial batch?)\n"
		if got := unequalWarnings(f.errOut.String()); len(got) != 1 || got[0] != want {
			t.Errorf("stderr:\n%s\nwant %q", f.errOut.String(), want)
		}
	})
}
