package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestStatsHealthNonFinite: a NaN score in a verl run is non_finite's
// ALERT at its step, naming verl's optimizer step that skips the update,
// in stats --health (exit 3) and in stats --follow --health's line.
func TestStatsHealthNonFinite(t *testing.T) {
	dir := t.TempDir()
	testfile.VerlNaNSteps(t, dir)
	out, errOut, code := run(t, "", "stats", "--health", dir)
	if code != exitHealthAlert || !strings.Contains(out, "ALERT  step 3  non_finite") || !strings.Contains(out, "FSDPEngine.optimizer_step") {
		t.Errorf("a NaN score under verl: exit %d, want %d and non_finite's ALERT at step 3 naming verl's optimizer step\n%s\n%s", code, exitHealthAlert, out, errOut)
	}

	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	f := startFollowing(t, "stats", "--follow", "--health", dir)
	f.await(t, "step 4 ")
	if code := f.stop(); code != exitHealthAlert || !strings.Contains(f.out.String(), "ALERT non_finite=1") {
		t.Errorf("followed: exit %d, want %d and step 3's line with non_finite's ALERT\n%s", code, exitHealthAlert, f.out.String())
	}
}

// TestStatsHealthNonFiniteOpenInstruct: open-instruct's traces of a step
// whose one NaN reward made its group's 8 logged advantages NaN (numpy's
// mean over the group, testdata/openinstruct/nan) are non_finite's ALERT
// at that step, naming the loop that trains on them (exit 3), not
// "findings: none" beside a comparison that leaves the NaN rows out.
func TestStatsHealthNonFiniteOpenInstruct(t *testing.T) {
	out, errOut, code := run(t, "", "stats", "--health", filepath.Join(openInstructDir, "nan"))
	if code != exitHealthAlert || !strings.Contains(out, "ALERT  step 1  non_finite  1 row of 32 with a score not finite (1 NaN): open-instruct's advantages") ||
		!strings.Contains(out, "_data_preparation_loop") {
		t.Errorf("a NaN reward under open-instruct: exit %d, want %d and non_finite's ALERT at step 1 naming _data_preparation_loop\n%s\n%s", code, exitHealthAlert, out, errOut)
	}
}
