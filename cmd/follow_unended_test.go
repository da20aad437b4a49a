package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/loaders"
)

// shortUnendedWait shortens the wait before an unended last line is
// warned of, for the test.
func shortUnendedWait(t *testing.T) {
	old := unendedWait
	unendedWait = 100 * time.Millisecond
	t.Cleanup(func() { unendedWait = old })
}

// TestStatsFollowUnendedLine: a followed file whose last line stays
// without its line end (a trainer that crashed mid-write, or never ends
// its last line) is warned of on stderr, once, with its line and its
// bytes, JSONL and CSV alike; once the line ends, it is read. A last line
// without its line end as following ends is an error, status 2, and an
// ALERT's status 3 stands over it, both said.
func TestStatsFollowUnendedLine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	shortUnendedWait(t)
	for _, c := range []struct{ name, first, cut, rest string }{
		{"run.jsonl", `{"id":"a","batch":0,"group":"g","metadata":{"x":1}}` + "\n", `{"id":"b","batch":0,"group":"g","metadata":{"x":`, "2}}\n"},
		{"run.csv", "id,batch,group,x\na,0,g,1\n", "b,0,g,", "2\n"},
	} {
		path := filepath.Join(t.TempDir(), c.name)
		if err := os.WriteFile(path, []byte(c.first+c.cut), 0o644); err != nil {
			t.Fatal(err)
		}
		line := strings.Count(c.first, "\n") + 1
		f := startFollowing(t, "stats", "--follow", "--objective", "x=metadata.x", path)
		f.await(t, "step 0  trajectories 1 ")
		warning := fmt.Sprintf("rewardlens: warning: %s:%d: the last line has no line end after 0.1 s (%d bytes waiting); not read until it ends\n", path, line, len(c.cut))
		f.awaitErr(t, warning)
		testfile.Append(t, path, c.rest)
		f.await(t, "step 0 (updated)  trajectories 2 ")
		testfile.Append(t, path, c.cut)
		f.awaitErr(t, fmt.Sprintf("%s:%d: the last line has no line end after", path, line+1))
		code := f.stop()
		atEnd := fmt.Sprintf("rewardlens: %s:%d: the last line has no line end as following ends (%d bytes): not read\n", path, line+1, len(c.cut))
		if errOut := f.errOut.String(); code != exitBadInput || strings.Count(errOut, warning) != 1 || !strings.HasSuffix(errOut, atEnd) {
			t.Errorf("%s: status %d, stderr:\n%s", c.name, code, errOut)
		}
	}

	// Every trajectory invalid: the invalid_fraction ALERT, of step 0,
	// whole; step 1, its file's last line unfinished, is provisional.
	path := filepath.Join(t.TempDir(), "alert.jsonl")
	invalidRows := `{"id":"a","batch":0,"group":"g","metadata":{"x":null}}` + "\n" + `{"id":"b","batch":1,"group":"g","metadata":{"x":null}}` + "\n"
	if err := os.WriteFile(path, []byte(invalidRows+`{"id":"c"`), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--objective", "x=metadata.x", path)
	f.await(t, "step 1  trajectories 1 (1 invalid)")
	code := f.stop()
	errOut := f.errOut.String()
	if code != exitHealthAlert || !strings.Contains(errOut, "rewardlens: health: 1 ALERT: invalid_fraction at step 0;") ||
		!strings.HasSuffix(errOut, "; "+path+":3: the last line has no line end as following ends (9 bytes): not read\n") {
		t.Errorf("with an ALERT: status %d, stderr:\n%s", code, errOut)
	}
}

// TestStatsFollowUnendedStepProvisional: a step whose file ends in an
// unfinished line is provisional while it does, as stats --health grades
// a file still being written: its ALERT is said left out of the verdict,
// and following ends with the status of the unended line alone (2), not
// 3.
func TestStatsFollowUnendedStepProvisional(t *testing.T) {
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "alert.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a","batch":0,"group":"g","metadata":{"x":null}}`+"\n"+`{"id":"b"`), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--objective", "x=metadata.x", path)
	f.await(t, "step 0  trajectories 1 (1 invalid)")
	code := f.stop()
	errOut := f.errOut.String()
	why := path + " ends in an unfinished line, left out: its run is probably still writing it"
	if code != exitBadInput || strings.Contains(errOut, "health: 1 ALERT") || !strings.Contains(f.out.String(), "(provisional: "+why+")\n") ||
		!strings.Contains(errOut, "rewardlens: health: step 0 left out of the verdict (exit status): "+why+"; its findings (1 ALERT) are provisional\n") {
		t.Errorf("status %d, output:\n%s\nstderr:\n%s", code, f.out.String(), errOut)
	}
}

// TestUnendedErrorNamesEach: several files ending unended are each named,
// with their line and bytes, in one line.
func TestUnendedErrorNamesEach(t *testing.T) {
	err := unendedError([]loaders.Unended{{Path: "a.jsonl", Line: 3, Bytes: 1}, {Path: "b.csv", Line: 7, Bytes: 12}})
	want := "2 followed files end with a line without its line end as following ends, not read: a.jsonl:3 (1 byte), b.csv:7 (12 bytes)"
	if err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
	if err := unendedError(nil); err != nil {
		t.Errorf("none: %v", err)
	}
}
