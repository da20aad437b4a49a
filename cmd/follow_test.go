package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/internal/testkit"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
)

// following runs rewardlens with args until cancel is called; wait
// returns the exit status.
type following struct {
	out, errOut testkit.SyncBuffer
	cancel      context.CancelFunc
	status      chan int
}

func startFollowing(t *testing.T, args ...string) *following {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f := &following{cancel: cancel, status: make(chan int, 1)}
	go func() {
		f.status <- Main(ctx, args, IO{Stdin: strings.NewReader(""), Stdout: &f.out, Stderr: &f.errOut})
	}()
	t.Cleanup(func() {
		cancel()
		<-f.status
	})
	return f
}

// await waits until the output holds want.
func (f *following) await(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(f.out.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output:\n%s\nstderr:\n%s", want, f.out.String(), f.errOut.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// awaitErr waits until stderr holds want.
func (f *following) awaitErr(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(f.errOut.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("no %q on stderr:\n%s", want, f.errOut.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stop interrupts the command and returns its status.
func (f *following) stop() int {
	f.cancel()
	code := <-f.status
	f.status <- code // for the cleanup
	return code
}

// sampleSteps returns the sample experiment's lines of steps [from, to).
func sampleSteps(t *testing.T, from, to int) string {
	t.Helper()
	data, err := os.ReadFile(samplePath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	const perStep = 128
	return strings.Join(lines[from*perStep:min(to*perStep, len(lines))], "")
}

func shortQuiet(t *testing.T) {
	old := followQuiet
	followQuiet = 200 * time.Millisecond
	t.Cleanup(func() { followQuiet = old })
}

// TestStatsFollow follows the sample experiment as it is written: a line
// per batch, each once, the newest when the input goes quiet, the health
// findings on the lines of the steps where they fire, and status 3 at the
// interrupt since a check raised an ALERT.
func TestStatsFollow(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(sampleSteps(t, 0, 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--health", "--config", sampleConfigPath, path)
	f.await(t, "step 19 ")
	testfile.Append(t, path, sampleSteps(t, 20, 40))
	f.await(t, "step 39 ")
	if code := f.stop(); code != exitHealthAlert {
		t.Errorf("status %d, want %d (stderr %q)", code, exitHealthAlert, f.errOut.String())
	}
	lines := stepLines(f.out.String())
	if len(lines) != 40 {
		t.Fatalf("%d lines, want one per step:\n%s", len(lines), f.out.String())
	}
	for i, line := range lines {
		if !strings.HasPrefix(line, "step "+strconv.Itoa(i)+"  trajectories 128 ") {
			t.Errorf("line %d: %q", i, line)
		}
	}
	if !strings.Contains(lines[26], "ALERT length_drift=") || !strings.Contains(lines[30], "WARN zero_spread=") || !strings.HasSuffix(lines[3], "healthy") {
		t.Errorf("findings not where the sample's story puts them:\n%s\n%s\n%s", lines[3], lines[26], lines[30])
	}
}

// TestStatsFollowJSONLines follows a directory in JSON lines: new files
// are new batches, a batch that grows after its line is printed again as
// updated, a file that goes away is reported on stderr, and the status at
// the interrupt is 0 without --health.
func TestStatsFollowJSONLines(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	batch := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(`{"group":"g` + strconv.Itoa(i%2) + `","metadata":{"a":` + strconv.Itoa(i) + `}}` + "\n")
		}
		return b.String()
	}
	write("step_1.jsonl", batch(4))
	f := startFollowing(t, "stats", "--follow", "--format", "json", dir)
	f.await(t, `"step":0`)
	write("step_2.jsonl", batch(6))
	f.await(t, `"step":1,"trajectories":6`)
	testfile.Append(t, filepath.Join(dir, "step_2.jsonl"), batch(2))
	f.await(t, `"step":1,"trajectories":8`)
	os.Remove(filepath.Join(dir, "step_1.jsonl"))
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(f.errOut.String(), "gone"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the removal is not reported: %q", f.errOut.String())
		}
	}
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	var got []followLine
	for _, line := range strings.Split(strings.TrimSpace(f.out.String()), "\n") {
		var l followLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got = append(got, l)
	}
	if len(got) != 3 || got[0].Trajectories != 4 || got[1].Updated || !got[2].Updated || got[2].Findings == nil {
		t.Errorf("lines %+v", got)
	}
}

// TestStatsFollowUsage: the flags --follow refuses, and standard input,
// which it cannot follow: one message whatever --from says and whatever
// other files are given, said before anything else (no "read as" line of
// the file beside it), by stats and the dashboard alike.
func TestStatsFollowUsage(t *testing.T) {
	stdin, err := os.ReadFile(filepath.Join(verlDir, "1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := "rewardlens: standard input (\"-\") cannot be followed: --follow reads its files again when they are replaced or rewritten, which a pipe cannot be; give the file's path"
	for _, args := range [][]string{
		{"stats", "--follow", "-"},
		{"stats", "--follow", "--from", "verl", "-"},
		{"stats", "--follow", "--from", "plain", "-"},
		{"stats", "--follow", "-", filepath.Join(verlDir, "2.jsonl")},
		{"--follow", "-"},
	} {
		out, errOut, code := run(t, string(stdin), args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want only %q", args, code, out, errOut, want)
		}
	}
	if _, errOut, code := run(t, "", "stats", "--follow", "--out", "x.txt", samplePath); code != 2 || !strings.Contains(errOut, "--out") {
		t.Errorf("--out: status %d, stderr %q", code, errOut)
	}
}

// TestStatsFollowRotation follows a file that is rotated (renamed away, a
// new one at its path) just after a batch was appended to it: that batch
// and the one before it get their final lines, with every trajectory,
// before the new file's batches; the newest batch is printed at the
// interrupt. No batch is printed twice.
func TestStatsFollowRotation(t *testing.T) {
	old := followQuiet
	followQuiet = time.Hour // only the rotation and the interrupt print the newest batch
	t.Cleanup(func() { followQuiet = old })
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(sampleSteps(t, 0, 5)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--config", sampleConfigPath, path)
	f.await(t, "step 3 ")
	testfile.Append(t, path, sampleSteps(t, 5, 6))
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	// The new log appears whole (renamed into place): read while being
	// written, its last step would be printed as far as it was read.
	if err := os.WriteFile(path+".new", []byte(sampleSteps(t, 6, 9)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 7 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d (stderr %q)", code, f.errOut.String())
	}
	lines := stepLines(f.out.String())
	if len(lines) != 9 {
		t.Fatalf("%d lines, want one per step, 0 to 8:\n%s", len(lines), f.out.String())
	}
	for i, line := range lines {
		if !strings.HasPrefix(line, "step "+strconv.Itoa(i)+"  trajectories 128 ") {
			t.Errorf("line %d: %q", i, line)
		}
	}
	if !strings.Contains(f.errOut.String(), "read again from the start") {
		t.Errorf("the rotation is not reported on stderr: %q", f.errOut.String())
	}
}

// TestStatsFollowEmptyFile follows a file that is empty at start, as a
// run's log is before its first batch: it waits, then prints the batches
// as they come.
func TestStatsFollowEmptyFile(t *testing.T) {
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--config", sampleConfigPath, path)
	time.Sleep(50 * time.Millisecond)
	testfile.Append(t, path, sampleSteps(t, 0, 3))
	f.await(t, "step 2 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d (stderr %q)", code, f.errOut.String())
	}
}

// TestStatsFollowEmptyInputsAwaitTheirLayout: a followed directory that
// exists but holds no input file yet (a launch script makes verl's
// rollout_data_dir in advance), or an empty file, cannot tell its layout:
// --from auto waits, and says so once, until a record comes, then reads
// verl's dumps as verl's (steps 1 to 3, not 0 to 2 of plain records).
// --from verl reads a file that holds a record at once.
func TestStatsFollowEmptyInputsAwaitTheirLayout(t *testing.T) {
	shortQuiet(t)
	dir := t.TempDir()
	f := startFollowing(t, "stats", "--follow", dir)
	f.awaitErr(t, "rewardlens: waiting for a first record in "+dir+", to recognise its layout (--from names it)\n")
	for step := 1; step <= 3; step++ {
		time.Sleep(2 * awaitPoll)
		data, err := os.ReadFile(filepath.Join(verlDir, strconv.Itoa(step)+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(step)+".jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Fewer trajectories than step 2: partial, maybe (TestStatsFollowPartialStepWithdrawn).
	f.await(t, "step 3  trajectories 10 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d", code)
	}
	out, errOut := f.out.String(), f.errOut.String()
	if !strings.HasPrefix(out, "step 1  trajectories 12 ") || strings.Contains(out, "step 0") ||
		strings.Count(errOut, "waiting for") != 1 || !strings.Contains(errOut, "read as verl rollout dumps") || strings.Contains(errOut, "not recognised") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errOut)
	}

	path := filepath.Join(t.TempDir(), "1.jsonl")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f = startFollowing(t, "stats", "--follow", path)
	f.awaitErr(t, "waiting for a first record in "+path)
	testfile.Append(t, path, `{"input":"p1","output":"a","gts":"x","score":1,"step":4}`+"\n"+`{"input":"p1","output":"b","gts":"x","score":0,"step":4}`+"\n")
	f.awaitErr(t, "read as verl rollout dumps")
	f.await(t, "step 4 ")
	f.stop()

	f = startFollowing(t, "stats", "--follow", "--from", "verl", path)
	f.await(t, "step 4 ")
	if code := f.stop(); code != 0 || strings.Contains(f.errOut.String(), "waiting") {
		t.Errorf("status %d (stderr %q)", code, f.errOut.String())
	}
}

// TestDashboardFollowAwaitsALayout: the dashboard's --follow waits, as
// stats --follow does (both resolve the layout with applyLayout), for a
// first record in a directory that exists without input files, before
// its screen opens; the record's fields then tell the layout.
func TestDashboardFollowAwaitsALayout(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f := startFollowing(t, "--follow", t.TempDir())
	f.awaitErr(t, "waiting for a first record in ")
	if code := f.stop(); code != exitInterrupted {
		t.Errorf("status %d, stderr %q", code, f.errOut.String())
	}

	dir := t.TempDir()
	var said testkit.SyncBuffer
	type applied struct {
		cfg      setup.Config
		sentence string
		err      error
	}
	done := make(chan applied, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); <-done }()
	go func() {
		cfg, sentence, _, err := applyLayout(ctx, setup.Config{}, []string{dir}, loaders.Options{}, nil, &said)
		done <- applied{cfg, sentence, err}
	}()
	time.Sleep(2 * awaitPoll)
	data, err := os.ReadFile(filepath.Join(verlDir, "1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Written line by line: the first line has no line end yet.
	first, rest, _ := strings.Cut(string(data), "\n")
	if err := os.WriteFile(filepath.Join(dir, "1.jsonl"), []byte(first[:len(first)/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * awaitPoll)
	testfile.Append(t, filepath.Join(dir, "1.jsonl"), first[len(first)/2:]+"\n"+rest)
	got := <-done
	done <- got
	if got.err != nil || got.cfg.From != "verl" || got.sentence != sampletest.VerlLayout || !strings.Contains(said.String(), "waiting for a first record in "+dir) {
		t.Errorf("%+v, %q, %v; said %q", got.cfg, got.sentence, got.err, said.String())
	}
}

// TestStatsFollowRewrittenInPlace: a followed log rewritten in place (cp
// over it) before its first batch is complete is read again from the
// start, and said so; whether the objectives fit is asked of what was read
// again: the first reading, none of whose trajectories was valid, gets
// its final line, then the batch its updated one, and the status at the
// interrupt is 0 (it was 2: the first reading's error). A rewrite with as
// many lines but other values prints the batch again too (it was not).
func TestStatsFollowRewrittenInPlace(t *testing.T) {
	old := followQuiet
	followQuiet = time.Hour // only the reading again and the interrupt print
	t.Cleanup(func() { followQuiet = old })
	lines := func(n int, a func(i int) string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `{"id":"t%d","group":"g%d","a":%s,"b":%d}`+"\n", i, i/4, a(i), i%3)
		}
		return b.String()
	}
	bad := func(int) string { return `"bad"` }
	good := func(i int) string { return strconv.Itoa(i % 5) }
	halfBad := func(i int) string {
		if i%2 == 0 {
			return bad(i)
		}
		return good(i)
	}
	for _, c := range []struct {
		first, second string
		want          [2]string
	}{
		{lines(8, bad), lines(16, good), [2]string{"step 0  trajectories 8 (8 invalid)", "step 0 (updated)  trajectories 16 (0 invalid)"}},
		{lines(16, halfBad), lines(16, good), [2]string{"step 0  trajectories 16 (8 invalid)", "step 0 (updated)  trajectories 16 (0 invalid)"}},
	} {
		path := filepath.Join(t.TempDir(), "log.jsonl")
		// As cp does: the same file, truncated and written.
		if err := os.WriteFile(path, []byte(c.first), 0o644); err != nil {
			t.Fatal(err)
		}
		f := startFollowing(t, "stats", "--follow", "--objective", "a=a", "--objective", "b=b", path)
		time.Sleep(200 * time.Millisecond) // the first reading
		if err := os.WriteFile(path, []byte(c.second), 0o644); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(f.errOut.String(), "log.jsonl: read again from the start"); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the rewrite is not reported: %q", f.errOut.String())
			}
		}
		time.Sleep(100 * time.Millisecond) // the update applied
		if code := f.stop(); code != 0 {
			t.Errorf("status %d, want 0 (stderr %q)", code, f.errOut.String())
		}
		got := stepLines(f.out.String())
		if len(got) != 2 || !strings.HasPrefix(got[0], c.want[0]) || !strings.HasPrefix(got[1], c.want[1]) {
			t.Errorf("lines:\n%s\nwant them to start with\n%s\n%s", f.out.String(), c.want[0], c.want[1])
		}
		if errOut := f.errOut.String(); strings.Contains(errOut, "trajectories are invalid:") {
			t.Errorf("stderr %q", errOut)
		}
	}
}

// runWithBadValues returns a run of steps of 10 trajectories in 2 groups
// whose accuracy is, in every record of step i, bad[i]: a JSON value
// ("null", "NaN", "\"high\"") or "" for a good one (0 or 1).
func runWithBadValues(bad ...string) string {
	var b strings.Builder
	for step, value := range bad {
		for i := range 10 {
			acc := value
			if acc == "" {
				acc = strconv.Itoa(i % 2)
			}
			fmt.Fprintf(&b, `{"id":"s%d-%d","batch":%d,"group":"g%d","metadata":{"accuracy":%s}}`+"\n", step, i, step, i%2, acc)
		}
	}
	return b.String()
}

// TestStatsFollowInvalidFirstSteps: a run whose first steps are all
// invalid by their values (the field there, but null, NaN, a string) is
// followed on: a warning with the causes, those steps' lines with the
// invalid_fraction ALERT, the valid steps after them as usual, and status
// 3 at the end with --health (0 without).
func TestStatsFollowInvalidFirstSteps(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	all := strings.SplitAfter(runWithBadValues("null", "NaN", `"high"`, "", ""), "\n")
	for _, health := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "run.jsonl")
		if err := os.WriteFile(path, []byte(strings.Join(all[:10], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"stats", "--follow", "--objective", "acc=metadata.accuracy", path}
		if health {
			args = append(args, "--health")
		}
		f := startFollowing(t, args...)
		f.await(t, "step 0 ")
		testfile.Append(t, path, strings.Join(all[10:], ""))
		f.await(t, "step 4 ")
		code := f.stop()
		if want := map[bool]int{true: exitHealthAlert, false: 0}[health]; code != want {
			t.Errorf("health %t: status %d, want %d (stderr %q)", health, code, want, f.errOut.String())
		}
		lines := stepLines(f.out.String())
		if len(lines) != 5 {
			t.Fatalf("health %t: %d lines, want one per step:\n%s", health, len(lines), f.out.String())
		}
		for i, line := range lines {
			alert := strings.Contains(line, "ALERT invalid_fraction=1.0000")
			if !strings.HasPrefix(line, fmt.Sprintf("step %d  trajectories 10 (", i)) || alert != (i < 3) || strings.Contains(line, "(10 invalid)") != (i < 3) {
				t.Errorf("health %t: line %d: %q", health, i, line)
			}
		}
		errOut := f.errOut.String()
		for _, want := range []string{
			"rewardlens: warning: all 10 trajectories are invalid: objective acc = metadata.accuracy: accuracy is null or absent in every trajectory; following on\n",
			"rewardlens: warning: step 0: 10 of 10 trajectories invalid (100%), mostly acc: missing (10)\n",
			"rewardlens: warning: step 1: 10 of 10 trajectories invalid (100%), mostly acc: NaN (10)\n",
			"rewardlens: warning: step 2: 10 of 10 trajectories invalid (100%), mostly acc: not a number (10)\n",
		} {
			if strings.Count(errOut, want) != 1 {
				t.Errorf("health %t: stderr %q, want %q once", health, errOut, want)
			}
		}
		if strings.Count(errOut, "following on") != 1 {
			t.Errorf("health %t: the causes told more than once: %q", health, errOut)
		}
	}
}

// TestStatsFollowMisnamedBesideBadValues: an objective whose field no
// record has stays status 2 at once, with "did you mean", even when the
// other objective's values are there but null.
func TestStatsFollowMisnamedBesideBadValues(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(runWithBadValues("null", "null")), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--objective", "acc=metadata.accuracy", "--objective", "g=metadata.grop", path)
	code := <-f.status
	f.status <- code // for the cleanup
	if errOut := f.errOut.String(); code != exitBadInput || f.out.String() != "" || !strings.Contains(errOut, "no trajectory has field grop; did you mean group?") {
		t.Errorf("status %d, stdout %q, stderr %q; want 2, nothing, did you mean group", code, f.out.String(), errOut)
	}
}

// stepLines returns the text lines of stats --follow that are the
// batches' own, leaving out the dead signal's under each.
func stepLines(out string) []string {
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "  dead signal: ") {
			lines = append(lines, line)
		}
	}
	return lines
}

// TestStatsFollowMisnamedConstraint: a constraint reading a field no
// record has is misnamed like an objective: status 2 at once, with "did
// you mean", not a warning and a run of invalid batches.
func TestStatsFollowMisnamedConstraint(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(runWithInvalid(0, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--objective", "acc=metadata.accuracy", "--constraint", "lenght <= 200", path)
	var code int
	select {
	case code = <-f.status:
		f.status <- code // for the cleanup
	case <-time.After(10 * time.Second):
		t.Fatalf("still following after 10 s; stderr %q", f.errOut.String())
	}
	if errOut := f.errOut.String(); code != exitBadInput || f.out.String() != "" || !strings.Contains(errOut, "constraint lenght <= 200: missing in every trajectory; the first record of each input has no field lenght; did you mean length?") {
		t.Errorf("status %d, stdout %q, stderr %q; want 2, nothing, did you mean length", code, f.out.String(), errOut)
	}
}

// TestStatsFollowSaysInferredObjectivesOfALaterRecord: following a file
// empty at the start, the objectives inferred from the first record that
// comes are said once, as when the record was there at the start.
func TestStatsFollowSaysInferredObjectivesOfALaterRecord(t *testing.T) {
	shortQuiet(t)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--from", "plain", path)
	time.Sleep(50 * time.Millisecond)
	testfile.Append(t, path, `{"id":"a","group":"g","metadata":{"acc":1,"len":3}}
{"id":"b","group":"g","metadata":{"acc":0,"len":5}}
`)
	f.await(t, "step 0 ")
	const want = "objectives inferred from the first record: acc, len"
	f.awaitErr(t, want)
	if code := f.stop(); code != 0 {
		t.Errorf("status %d (stderr %q)", code, f.errOut.String())
	}
	if n := strings.Count(f.errOut.String(), want); n != 1 {
		t.Errorf("said %d times:\n%s", n, f.errOut.String())
	}
}

// TestStatsFollowRelogged: following TRL's tables of a run with
// num_iterations 2 (the num_iterations_2 fixture), those that repeat the
// table before them are left out and said on stderr, in the first
// reading (step 2) and as they appear (step 4): no line of their steps.
// They were counted twice.
func TestStatsFollowRelogged(t *testing.T) {
	shortQuiet(t)
	fixture := filepath.Join("testdata", "trl", "num_iterations_2", "completions")
	dir := t.TempDir()
	testkit.CopyWhole(t, fixture, dir, "completions_00001.parquet")
	testkit.CopyWhole(t, fixture, dir, "completions_00002.parquet")
	f := startFollowing(t, "stats", "--follow", dir)
	f.awaitErr(t, "warning: step 2 repeats the rollouts logged at step 1: ")
	testkit.CopyWhole(t, fixture, dir, "completions_00003.parquet")
	testkit.CopyWhole(t, fixture, dir, "completions_00004.parquet")
	f.awaitErr(t, "warning: step 4 repeats the rollouts logged at step 3: ")
	f.await(t, "step 3 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stderr:\n%s", code, f.errOut.String())
	}
	for _, line := range stepLines(f.out.String()) {
		if strings.HasPrefix(line, "step 2 ") || strings.HasPrefix(line, "step 4 ") {
			t.Errorf("a line of a step left out: %q", line)
		}
	}
}

// TestStatsFollowSaysFilesLeftOut: a file that appears in a followed
// directory, named as an input with one more extension that is not read,
// is said once on stderr in the words of the note on those there at the
// start; an atomic write's temporary file is not.
func TestStatsFollowSaysFilesLeftOut(t *testing.T) {
	shortQuiet(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "step_00.jsonl"), []byte(sampleSteps(t, 0, 2)), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollowing(t, "stats", "--follow", "--config", sampleConfigPath, dir)
	f.await(t, "step 1 ")
	// The temporary file first: the scan that finds the .bz2 finds it too.
	for _, name := range []string{"step_01.jsonl.tmp", "step_01.jsonl.bz2"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("BZh91AY&SY"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := "rewardlens: left out " + filepath.Join(dir, "step_01.jsonl.bz2") + " (compressed with bzip2, which is not read: decompress it, or gzip it)\n"
	f.awaitErr(t, want)
	if err := os.WriteFile(filepath.Join(dir, "step_02.jsonl"), []byte(sampleSteps(t, 2, 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, "step 2 ")
	if code := f.stop(); code != 0 {
		t.Errorf("status %d, stderr:\n%s", code, f.errOut.String())
	}
	if errOut := f.errOut.String(); strings.Count(errOut, "left out") != 1 || strings.Contains(errOut, ".tmp") {
		t.Errorf("stderr:\n%s\nwant the .bz2 said once, the .tmp not", errOut)
	}
}
