package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestLoggedAdvantageNonFinite: a logged advantage that is NaN or
// infinite in some rows is left out of the comparison with the rewards,
// and compute, stats and stats --follow (once) say how many rows and the
// first; a null one is absent, not counted.
func TestLoggedAdvantageNonFinite(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	dir := writeFiles(t, map[string]string{
		"run.jsonl": `{"id":"a","batch":0,"group":"g","metadata":{"x":1,"adv":null}}` + "\n" +
			`{"id":"b","batch":0,"group":"g","metadata":{"x":0,"adv":NaN}}` + "\n" +
			`{"id":"c","batch":0,"group":"g","metadata":{"x":1,"adv":0.5}}` + "\n" +
			`{"id":"d","batch":0,"group":"g","metadata":{"x":0,"adv":-0.5}}` + "\n" +
			`{"id":"e","batch":1,"group":"g","metadata":{"x":1,"adv":-Infinity}}` + "\n" +
			`{"id":"f","batch":1,"group":"g","metadata":{"x":0,"adv":0.7}}` + "\n",
	})
	path := filepath.Join(dir, "run.jsonl")
	flags := []string{"--method", "grpo", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adv"}
	want := "rewardlens: warning: 2 rows' logged advantage is NaN or infinite (the first: " + path + ":2: NaN): they are not compared with the rewards\n"
	for _, command := range []string{"compute", "stats"} {
		if _, errOut, code := run(t, "", append(append([]string{command}, flags...), path)...); code != 0 || !strings.Contains(errOut, want) || strings.Contains(errOut, "not a number") {
			t.Errorf("%s: status %d, stderr %q; want %q", command, code, errOut, want)
		}
	}
	f := startFollowing(t, append(append([]string{"stats", "--follow"}, flags...), path)...)
	f.await(t, "step 1 ")
	f.stop()
	if errOut := f.errOut.String(); strings.Count(errOut, "is NaN or infinite") != 1 || !strings.Contains(errOut, `(the first: `+path+`:2: NaN)`) {
		t.Errorf("stats --follow: stderr %q", errOut)
	}
}
