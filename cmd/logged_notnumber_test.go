package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestLoggedAdvantageNotANumber: a logged advantage that is there but not
// a number (a string, "0.7" too, a bool) is read as absent, and compute,
// stats and stats --follow warn of it, with the first's place and value;
// null is absent and NaN another case (TestLoggedAdvantageNonFinite):
// neither is counted.
func TestLoggedAdvantageNotANumber(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	dir := writeFiles(t, map[string]string{
		"run.jsonl": `{"id":"a","batch":0,"group":"g","metadata":{"x":1,"adv":null}}` + "\n" +
			`{"id":"b","batch":0,"group":"g","metadata":{"x":0,"adv":"x"}}` + "\n" +
			`{"id":"c","batch":0,"group":"g","metadata":{"x":1,"adv":NaN}}` + "\n" +
			`{"id":"d","batch":0,"group":"g","metadata":{"x":0,"adv":-0.5}}` + "\n" +
			`{"id":"e","batch":1,"group":"g","metadata":{"x":1,"adv":"0.7"}}` + "\n" +
			`{"id":"f","batch":1,"group":"g","metadata":{"x":0,"adv":true}}` + "\n",
		// a's score overflows (1e308 + 1e308), which copies the evaluation.
		"overflow.jsonl": `{"id":"a","batch":0,"group":"g","metadata":{"x":1e308,"y":1e308,"adv":"x"}}` + "\n" +
			`{"id":"b","batch":0,"group":"g","metadata":{"x":0,"y":0,"adv":-0.5}}` + "\n",
		"num.jsonl": `{"id":"a","batch":0,"group":"g","metadata":{"x":1,"adv":"0.7"}}` + "\n" +
			`{"id":"b","batch":0,"group":"g","metadata":{"x":0,"adv":-0.7}}` + "\n",
	})
	path := filepath.Join(dir, "run.jsonl")
	flags := []string{"--method", "grpo", "--objective", "x=metadata.x", "--logged-advantage", "metadata.adv"}
	want := "rewardlens: warning: 3 rows' logged advantage is not a number (the first: " + path + `:2: "x"): read as absent, they are not compared with the rewards` + "\n"

	recs := computeRecords(t, append(flags, path)...)
	for id, r := range recs {
		if (r.Logged != nil) != (id == "d") {
			t.Errorf("%s: logged_advantage %v", id, r.Logged)
		}
	}
	for _, command := range []string{"compute", "stats"} {
		if _, errOut, code := run(t, "", append(append([]string{command}, flags...), path)...); code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s: status %d, stderr %q; want %q", command, code, errOut, want)
		}
	}
	num := filepath.Join(dir, "num.jsonl")
	wantNum := "rewardlens: warning: 1 row's logged advantage is not a number (the first: " + num + `:1: "0.7", a number written as a string, which is not read as one): read as absent, it is not compared with the rewards` + "\n"
	if _, errOut, _ := run(t, "", append(append([]string{"stats"}, flags...), num)...); !strings.Contains(errOut, wantNum) {
		t.Errorf("stats of a number in a string: stderr %q; want %q", errOut, wantNum)
	}

	overflow := filepath.Join(dir, "overflow.jsonl")
	wantOverflow := "rewardlens: warning: 1 row's logged advantage is not a number (the first: " + overflow + `:1: "x")`
	overflowFlags := []string{"--method", "grpo", "--objective", "x=metadata.x", "--objective", "y=metadata.y", "--weight", "x=1", "--weight", "y=1", "--logged-advantage", "metadata.adv", overflow}
	if _, errOut, _ := run(t, "", append([]string{"stats"}, overflowFlags...)...); !strings.Contains(errOut, wantOverflow) {
		t.Errorf("stats of an overflowing score: stderr %q; want %q", errOut, wantOverflow)
	}

	f := startFollowing(t, append(append([]string{"stats", "--follow"}, flags...), path)...)
	f.await(t, "step 1 ")
	f.stop()
	// Followed, the warning comes once the first step is printed, as the
	// rows read so far have it.
	if errOut := f.errOut.String(); strings.Count(errOut, "logged advantage is not a number") != 1 || !strings.Contains(errOut, `(the first: `+path+`:2: "x")`) {
		t.Errorf("stats --follow: stderr %q", errOut)
	}
}
