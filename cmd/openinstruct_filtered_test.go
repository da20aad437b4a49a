package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenInstructFilteredRolloutsLeftOut: a newer open-instruct's save
// path holds, beside its rollouts, the filtered rollouts
// (_save_filtered_rollouts: no advantage); compute reads the directory's
// rollouts and names the filtered file as left out, saying what it holds,
// instead of refusing the directory as mixed layouts.
func TestOpenInstructFilteredRolloutsLeftOut(t *testing.T) {
	dir := filepath.Join("testdata", "oifilt")
	recs, errOut := computeList(t, "", dir)
	want := "left out " + filepath.Join(dir, "grpo_run__1__1_filtered_rollouts_000000.jsonl") + " (the groups open-instruct filtered out of training"
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	for _, r := range recs {
		if r.Logged == nil {
			t.Fatalf("record %s without a logged advantage: a filtered rollout was read", r.ID)
		}
	}
}
