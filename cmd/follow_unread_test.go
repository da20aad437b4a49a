package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// unreadableFile makes path a file that cannot be read, by root too (a
// symbolic link to itself: too many levels of symbolic links), as a step
// file written with mode 000 is to a user who follows the run.
func unreadableFile(t *testing.T, path string) {
	t.Helper()
	if err := os.Symlink(filepath.Base(path), path); err != nil {
		t.Fatal(err)
	}
}

// stepRows are two rows of step, one per value of x.
func stepRows(step int) string {
	return fmt.Sprintf(`{"id":"a%d","batch":%d,"group":"g","metadata":{"x":1}}`+"\n"+`{"id":"b%d","batch":%d,"group":"g","metadata":{"x":2}}`+"\n", step, step, step, step)
}

// TestStatsFollowUnreadFile: a step file that appears in a followed
// directory and cannot be read is said under every line printed while it
// is not (and in the JSON lines' unread_files), and following that ends
// with it unread ends with status 2, saying so, as a malformed line does
// (3 when an ALERT sets it, both said); read once it can be, its step
// comes and the end is clean.
func TestStatsFollowUnreadFile(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	start := func(t *testing.T, bad string, flags ...string) (*following, string, string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a_0.jsonl"), []byte(stepRows(0)+bad), 0o644); err != nil {
			t.Fatal(err)
		}
		f := startFollowing(t, append(append([]string{"stats", "--follow", "--objective", "x=metadata.x"}, flags...), dir)...)
		if slices.Contains(flags, "json") {
			f.await(t, `{"step":0,`)
		} else {
			f.await(t, "step 0  trajectories")
		}
		unread := filepath.Join(dir, "a_1.jsonl")
		unreadableFile(t, unread)
		f.awaitErr(t, "too many levels of symbolic links")
		if err := os.WriteFile(filepath.Join(dir, "a_2.jsonl"), []byte(stepRows(2)), 0o644); err != nil {
			t.Fatal(err)
		}
		return f, dir, unread
	}
	warning := func(path string) string {
		return "1 followed file not read, its rows missing: open " + path + ": too many levels of symbolic links"
	}

	f, _, unread := start(t, "")
	f.await(t, "step 2  trajectories 2")
	code := f.stop()
	out, errOut := f.out.String(), f.errOut.String()
	step2 := out[strings.Index(out, "step 2 "):]
	end := "rewardlens: 1 followed file not read as following ends, its rows missing: open " + unread + ": too many levels of symbolic links\n"
	if code != exitBadInput || !strings.Contains(step2, "\n  warning: "+warning(unread)+"\n") || !strings.HasSuffix(errOut, end) {
		t.Errorf("status %d, want %d; stdout:\n%s\nstderr:\n%s", code, exitBadInput, out, errOut)
	}

	f, _, unread = start(t, "", "--format", "json")
	f.await(t, `{"step":2,`)
	f.stop()
	out = f.out.String()
	if want := `"unread_files":[{"path":"` + unread + `","error":"open ` + unread + `: too many levels of symbolic links"}]`; !strings.Contains(out[strings.Index(out, `{"step":2,`):], want) {
		t.Errorf("no %s in the JSON lines:\n%s", want, out)
	}

	// Read once it can be: its step comes, and nothing is said of it.
	f, dir, unread := start(t, "")
	f.await(t, "step 2  trajectories 2")
	written := filepath.Join(dir, "step1.tmp")
	if err := os.WriteFile(written, []byte(stepRows(1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(written, unread); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 1  trajectories 2")
	code = f.stop()
	out, errOut = f.out.String(), f.errOut.String()
	if code != 0 || strings.Contains(out[strings.Index(out, "step 1 "):], "not read") || strings.Contains(errOut, "as following ends") {
		t.Errorf("read at last: status %d; stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}

	// An ALERT's status 3 stands over it, both said.
	null := `{"id":"c%d","batch":0,"group":"g","metadata":{"x":null}}` + "\n"
	f, _, _ = start(t, fmt.Sprintf(null+null+null, 1, 2, 3), "--health")
	f.await(t, "step 2 ")
	code = f.stop()
	if errOut := f.errOut.String(); code != exitHealthAlert || !strings.Contains(errOut, "invalid_fraction") || !strings.Contains(errOut, "; 1 followed file not read as following ends") {
		t.Errorf("with an ALERT: status %d, stderr:\n%s", code, errOut)
	}
}
