package loaders

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
)

// followed is what a consumer of Follow holds: the IDs loaded from each
// file, in order, after applying every Update as documented.
type followed struct {
	ids     map[string][]string
	lines   map[string][]int
	gone    []string
	skipped int
	errs    []error
	// errPaths are the files of the updates' FileErrs.
	errPaths []string
	// reloaded are the files of the updates' Reloaded, in order.
	reloaded []string
}

// followNew writes data to a file called name in a new directory and
// follows it (watched or polled): its path, what was read of it, the
// updates, and stop, which ends following and drains them.
func followNew(t *testing.T, name string, data []byte, watch bool) (path string, f *followed, ch <-chan Update, stop func()) {
	t.Helper()
	return followNewWith(t, name, data, followOptions(watch))
}

// followNewWith is followNew with opts.
func followNewWith(t *testing.T, name string, data []byte, opts FollowOptions) (path string, f *followed, ch <-chan Update, stop func()) {
	t.Helper()
	path = filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	res, ch, err := Follow(ctx, []string{path}, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	return path, newFollowed(res), ch, func() {
		cancel()
		for range ch {
		}
	}
}

func newFollowed(res *Result) *followed {
	f := &followed{ids: map[string][]string{}, lines: map[string][]int{}}
	f.apply(Update{Trajectories: res.Trajectories})
	return f
}

func (f *followed) apply(u Update) {
	for _, p := range u.Reloaded {
		delete(f.ids, p)
		delete(f.lines, p)
	}
	f.reloaded = append(f.reloaded, u.Reloaded...)
	for _, t := range u.Trajectories {
		f.ids[t.Source] = append(f.ids[t.Source], t.ID)
		f.lines[t.Source] = append(f.lines[t.Source], t.Line)
	}
	f.gone = append(f.gone, u.Gone...)
	f.skipped += u.Skipped
	if u.Err() != nil {
		f.errs = append(f.errs, u.Err())
	}
	for _, e := range u.FileErrs() {
		f.errPaths = append(f.errPaths, e.Path)
	}
}

// await applies updates from ch until done holds, failing t after a
// timeout.
func (f *followed) await(t *testing.T, ch <-chan Update, what string, done func() bool) {
	t.Helper()
	awaitUpdates(t, ch, what, f.apply, done, func() string {
		return fmt.Sprintf("loaded %v, gone %v, errors %v", f.ids, f.gone, f.errs)
	})
}

// awaitUpdates passes the updates of ch to apply until done holds,
// failing t after a timeout with what and state() in the message.
func awaitUpdates(t *testing.T, ch <-chan Update, what string, apply func(Update), done func() bool, state func() string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for !done() {
		select {
		case u, ok := <-ch:
			if !ok {
				t.Fatalf("%s: the channel closed", what)
			}
			apply(u)
		case <-timeout:
			t.Fatalf("%s: timed out; %s", what, state())
		}
	}
}

// idLines returns JSONL lines with the IDs prefix0 .. prefix(n-1).
func idLines(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"%s%d","metadata":{"a":%d}}`+"\n", prefix, i, i)
	}
	return b.String()
}

func ids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

func followOptions(watch bool) FollowOptions {
	if watch {
		return FollowOptions{Poll: 50 * time.Millisecond}
	}
	return FollowOptions{Poll: 5 * time.Millisecond, NoWatch: true}
}

// TestFollowAppendTruncateReplace follows a file that a goroutine appends
// to in pieces that cut lines anywhere, then truncates and writes anew,
// then replaces by renaming another file over it, then removes: every
// complete line is delivered once and in order, a partial line never, a
// truncated or replaced file replaces what was loaded from it, a removed
// one is reported and what was loaded stays; no goroutine outlives the
// follower. With the file system's events and with polling only.
func TestFollowAppendTruncateReplace(t *testing.T) {
	for _, watch := range []bool{true, false} {
		t.Run(fmt.Sprintf("watch=%v", watch), func(t *testing.T) {
			defer goleak.VerifyNone(t)
			testFollowFile(t, followOptions(watch))
		})
	}
}

func testFollowFile(t *testing.T, opts FollowOptions) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	// Two lines, then the start of a third.
	if err := os.WriteFile(path, []byte(idLines("s", 2)+`{"id":"w0","meta`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, ch, err := Follow(ctx, []string{path}, opts)
	if err != nil {
		t.Fatal(err)
	}
	f := newFollowed(res)
	if !slices.Equal(f.ids[path], ids("s", 2)) {
		t.Fatalf("first reading: %v, want the 2 complete lines", f.ids[path])
	}

	// Append 300 lines in pieces of random length, the first completing
	// the partial line.
	const n = 300
	text := strings.TrimPrefix(idLines("w", n), `{"id":"w0","meta`)
	written := make(chan struct{})
	go func() {
		defer close(written)
		rng := rand.New(rand.NewPCG(1, 2))
		for len(text) > 0 {
			k := min(len(text), 1+rng.IntN(120))
			testfile.Append(t, path, text[:k])
			text = text[k:]
			if rng.IntN(4) == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	want := append(ids("s", 2), ids("w", n)...)
	f.await(t, ch, "appended lines", func() bool { return len(f.ids[path]) >= len(want) })
	<-written
	if !slices.Equal(f.ids[path], want) {
		t.Fatalf("appended lines delivered as %v", f.ids[path])
	}
	for i, line := range f.lines[path] {
		if line != i+1 {
			t.Fatalf("trajectory %d has line %d", i, line)
		}
	}

	// Truncate, and write other lines.
	if err := os.WriteFile(path, []byte(idLines("t", 5)), 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, ch, "truncated", func() bool { return slices.Equal(f.ids[path], ids("t", 5)) })

	// Replace by renaming another file over it (log rotation).
	tmp := filepath.Join(dir, "run.jsonl.tmp")
	if err := os.WriteFile(tmp, []byte(idLines("r", 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	f.await(t, ch, "replaced", func() bool { return slices.Equal(f.ids[path], ids("r", 3)) })
	testfile.Append(t, path, idLines("q", 2))
	f.await(t, ch, "appended after the replacement", func() bool { return len(f.ids[path]) == 5 })
	if got := f.ids[path]; !slices.Equal(got, append(ids("r", 3), ids("q", 2)...)) {
		t.Fatalf("after the replacement: %v", got)
	}

	// Remove: reported, and what was loaded stays.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	f.await(t, ch, "removed", func() bool { return len(f.gone) > 0 })
	if !slices.Equal(f.gone, []string{path}) || len(f.ids[path]) != 5 || len(f.errs) > 0 {
		t.Fatalf("after the removal: gone %v, loaded %v, errors %v", f.gone, f.ids[path], f.errs)
	}

	cancel()
	for range ch { // closed once the follower stops
	}
}

// TestFollowPartialLineWaits: a line without its newline is not
// delivered, however long it waits.
func TestFollowPartialLineWaits(t *testing.T) {
	defer goleak.VerifyNone(t)
	path := filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, ch, err := Follow(ctx, []string{path}, followOptions(false))
	if err != nil || len(res.Trajectories) != 0 {
		t.Fatalf("an empty file: %v, %v", res, err)
	}
	testfile.Append(t, path, `{"id":"p"}`)
	select {
	case u := <-ch:
		t.Fatalf("a partial line was delivered: %+v", u)
	case <-time.After(100 * time.Millisecond):
	}
	testfile.Append(t, path, "\n")
	f := newFollowed(&Result{})
	f.await(t, ch, "completed line", func() bool { return len(f.ids[path]) == 1 })
	cancel()
	for range ch {
	}
}

// TestFollowDirectory: files that appear in a followed directory are read
// and take the next file indices (their default batch) in natural order;
// a file of a format read whole is read again when it changes.
func TestFollowDirectory(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, watch := range []bool{true, false} {
		t.Run(fmt.Sprintf("watch=%v", watch), func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "step_1.jsonl", []byte(idLines("a", 2)))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			res, ch, err := Follow(ctx, []string{dir}, followOptions(watch))
			if err != nil {
				t.Fatal(err)
			}
			f := newFollowed(res)
			// Written under another name, then renamed: the follower sees
			// it complete.
			tmp := filepath.Join(dir, "tmp")
			os.WriteFile(tmp, []byte(idLines("c", 1)), 0o644)
			os.WriteFile(filepath.Join(dir, "step_10.csv"), []byte("id,x\nd0,1\n"), 0o644)
			os.Rename(tmp, filepath.Join(dir, "step_9.jsonl"))
			f.await(t, ch, "new files", func() bool {
				return len(f.ids[filepath.Join(dir, "step_9.jsonl")]) == 1 && len(f.ids[filepath.Join(dir, "step_10.csv")]) == 1
			})
			// The CSV changes: read again, whole.
			csv := filepath.Join(dir, "step_10.csv")
			os.WriteFile(csv, []byte("id,x\nd0,1\nd1,2\n"), 0o644)
			f.await(t, ch, "changed CSV", func() bool { return slices.Equal(f.ids[csv], []string{"d0", "d1"}) })
			cancel()
			for range ch {
			}
			if len(f.errs) > 0 {
				t.Errorf("errors: %v", f.errs)
			}
		})
	}
}

// TestFollowNewFileBatches checks the default batch of files that appear:
// the next file index, in natural name order among those found together.
func TestFollowNewFileBatches(t *testing.T) {
	defer goleak.VerifyNone(t)
	dir := t.TempDir()
	writeFile(t, dir, "step_1.jsonl", []byte(idLines("a", 1)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Polling only, slowly enough that both files are found together, by
	// the first poll after the check the follower starts with.
	res, ch, err := Follow(ctx, []string{dir}, FollowOptions{Poll: time.Second, NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	writeFile(t, dir, "step_10.jsonl", []byte(idLines("c", 1)))
	writeFile(t, dir, "step_9.jsonl", []byte(idLines("b", 1)))
	batches := map[string]int64{res.Trajectories[0].ID: res.Trajectories[0].Batch}
	for len(batches) < 3 {
		u := <-ch
		for _, tr := range u.Trajectories {
			batches[tr.ID] = tr.Batch
		}
	}
	if want := map[string]int64{"a0": 0, "b0": 1, "c0": 2}; !equalMaps(batches, want) {
		t.Errorf("batches %v, want %v", batches, want)
	}
	cancel()
	for range ch {
	}
}

func equalMaps(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestFollowMalformedLines: an appended line that is not a trajectory is
// reported with its place in the file (without SkipInvalid) or counted
// (with it), and the lines after it are delivered.
func TestFollowMalformedLines(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, skip := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "m.jsonl")
		os.WriteFile(path, []byte(idLines("a", 2)), 0o644)
		ctx, cancel := context.WithCancel(context.Background())
		opts := followOptions(false)
		opts.SkipInvalid = skip
		res, ch, err := Follow(ctx, []string{path}, opts)
		if err != nil {
			t.Fatal(err)
		}
		f := newFollowed(res)
		testfile.Append(t, path, "{\"id\":\"b0\"}\n\n{bad\n{\"id\":\"b1\"}\n")
		f.await(t, ch, "lines after a bad one", func() bool { return len(f.ids[path]) == 4 })
		if !slices.Equal(f.ids[path], []string{"a0", "a1", "b0", "b1"}) || !slices.Equal(f.lines[path], []int{1, 2, 3, 6}) {
			t.Errorf("skip=%v: loaded %v at lines %v", skip, f.ids[path], f.lines[path])
		}
		var le *LineError
		switch {
		case skip && (f.skipped != 1 || len(f.errs) != 0):
			t.Errorf("skipping: %d skipped, errors %v", f.skipped, f.errs)
		case !skip && (len(f.errs) != 1 || !errors.As(f.errs[0], &le) || le.Path != path || le.Line != 5 || !slices.Equal(f.errPaths, []string{path})):
			t.Errorf("not skipping: errors %v of %q, want one at %s:5", f.errs, f.errPaths, path)
		}
		cancel()
		for range ch {
		}
	}
}

// TestFollowDefaultIDs: an appended trajectory without an id takes its
// position among the file's trajectories, counting on from the first
// reading.
func TestFollowDefaultIDs(t *testing.T) {
	defer goleak.VerifyNone(t)
	path := filepath.Join(t.TempDir(), "d.jsonl")
	os.WriteFile(path, []byte("{}\n{}\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, ch, err := Follow(ctx, []string{path}, followOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	f := newFollowed(res)
	testfile.Append(t, path, "{}\n{\"id\":\"x\"}\n{}\n")
	f.await(t, ch, "appended", func() bool { return len(f.ids[path]) == 5 })
	if want := []string{"0", "1", "2", "x", "4"}; !slices.Equal(f.ids[path], want) {
		t.Errorf("IDs %v, want %v", f.ids[path], want)
	}
	cancel()
	for range ch {
	}
}

// TestFollowSlowConsumer: what a consumer does not take is merged into
// one update, not queued.
func TestFollowSlowConsumer(t *testing.T) {
	defer goleak.VerifyNone(t)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, nil, 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, ch, err := Follow(ctx, []string{path}, followOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		testfile.Append(t, path, idLines(fmt.Sprint("b", i, "-"), 1))
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if u := <-ch; len(u.Trajectories) != 5 {
		t.Errorf("the first update holds %d trajectories, want the 5 written", len(u.Trajectories))
	}
	cancel()
	for range ch {
	}
}

func TestFollowErrors(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx := context.Background()
	if _, _, err := Follow(ctx, []string{"-"}, FollowOptions{}); err == nil || !strings.Contains(err.Error(), "cannot be followed") {
		t.Errorf("standard input: %v", err)
	}
	if _, _, err := Follow(ctx, nil, FollowOptions{}); err == nil {
		t.Error("no paths: no error")
	}
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	if _, _, err := Follow(ctx, []string{missing}, FollowOptions{}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: %v", err)
	}
	bad := writeFile(t, t.TempDir(), "bad.jsonl", []byte("{}\n{\n"))
	if _, _, err := Follow(ctx, []string{bad}, FollowOptions{}); err == nil || !strings.HasPrefix(err.Error(), bad+":2:") {
		t.Errorf("a bad line at the start: %v", err)
	}
	// An empty directory is no error: files may come.
	empty := t.TempDir()
	cctx, cancel := context.WithCancel(ctx)
	res, ch, err := Follow(cctx, []string{empty}, FollowOptions{})
	if err != nil || len(res.Trajectories) != 0 {
		t.Errorf("an empty directory: %v, %v", res, err)
	}
	cancel()
	for range ch {
	}
}

// TestFollowRewrittenLarger: a file truncated and written again beyond
// where it was read, between two checks, is read again from the start,
// not taken for one that grew.
func TestFollowRewrittenLarger(t *testing.T) {
	defer goleak.VerifyNone(t)
	path := filepath.Join(t.TempDir(), "w.jsonl")
	os.WriteFile(path, []byte(idLines("a", 2)), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, ch, err := Follow(ctx, []string{path}, FollowOptions{Poll: 300 * time.Millisecond, NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // past the follower's first check
	os.WriteFile(path, []byte(idLines("b", 4)), 0o644)
	f := newFollowed(res)
	f.await(t, ch, "rewritten", func() bool { return len(f.ids[path]) == 4 })
	if !slices.Equal(f.ids[path], ids("b", 4)) {
		t.Errorf("loaded %v, want the new content", f.ids[path])
	}
	cancel()
	for range ch {
	}
}

// TestFollowRewrittenInPlaceSameStart is issue 16's case: a followed file
// written anew in place (cp over it) with lines of the same shape, whose
// first bytes are the same and whose lines are as long, so that its old end
// falls on a line end: it is
// read again from the start, not taken as grown, so no old line stays.
func TestFollowRewrittenInPlaceSameStart(t *testing.T) {
	defer goleak.VerifyNone(t)
	lines := func(value string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `{"id":"r%04d","metadata":{"pad":"%s","a":%s}}`+"\n", i, strings.Repeat("x", 40), value)
		}
		return b.String()
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	old := lines(`"bad"`, 1000)
	os.WriteFile(path, []byte(old), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, ch, err := Follow(ctx, []string{path}, FollowOptions{Poll: 300 * time.Millisecond, NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // past the follower's first check
	fresh := lines("0.500", 2000)      // lines as long as the old ones: their ends align
	if fresh[:headSize] != old[:headSize] {
		t.Fatal("the fixture must keep the file's first bytes")
	}
	// Written in place, as cp does: the same file, truncated, then written.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(fresh)
	f.Close()
	var reloaded bool
	var got []scoring.Trajectory
	awaitUpdates(t, ch, "rewritten in place", func(u Update) {
		if slices.Contains(u.Reloaded, path) {
			reloaded, got = true, nil
		}
		got = append(got, u.Trajectories...)
	}, func() bool { return len(got) == 2000 }, func() string {
		return fmt.Sprintf("reloaded %v, %d trajectories (first load %d)", reloaded, len(got), len(res.Trajectories))
	})
	if !reloaded {
		t.Error("the rewrite was taken for growth: no reload")
	}
	for _, tr := range got {
		if tr.Metadata["a"] != 0.5 {
			t.Fatalf("%s: a = %v, an old line", tr.ID, tr.Metadata["a"])
		}
	}
	cancel()
	for range ch {
	}
}

// writeText creates the file path holding text.
func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newTestFollower reads paths as Follow does, without its goroutine: the
// test checks the files when it wants (checkAll) and reads what the
// consumer would get in f.pending.
func newTestFollower(t *testing.T, paths ...string) (*follower, *followed) {
	t.Helper()
	return newTestFollowerWith(t, FollowOptions{Poll: time.Hour, NoWatch: true}, paths...)
}

// newTestFollowerWith is newTestFollower with opts.
func newTestFollowerWith(t *testing.T, opts FollowOptions, paths ...string) (*follower, *followed) {
	t.Helper()
	f := &follower{opts: opts, byPath: map[string]*followedFile{}, dirty: map[string]bool{}, leftOutSaid: map[string]bool{}}
	res, err := f.start(paths)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.close)
	return f, newFollowed(res)
}

// takePending applies the updates the consumer would get, in order, and
// returns them.
func takePending(f *follower, state *followed) []Update {
	us := f.pending
	f.pending = nil
	for _, u := range us {
		state.apply(u)
	}
	return us
}

// updateIDs returns the IDs u brings.
func updateIDs(u Update) []string {
	var out []string
	for _, t := range u.Trajectories {
		out = append(out, t.ID)
	}
	return out
}

// TestFollowRotationReadsTheOldFileToItsEnd appends lines to a followed
// file (the last without its line end), then rotates it (renamed away, a
// new file at its path) before the follower looks: the appended lines
// come first, in an update of their own, then the new file replaces the
// old one's trajectories; nothing is lost between the last read and the
// rotation.
func TestFollowRotationReadsTheOldFileToItsEnd(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log.jsonl")
	writeText(t, path, idLines("a", 3))
	f, state := newTestFollower(t, path)
	testfile.Append(t, path, idLines("b", 2)+`{"id":"b2","metadata":{"a":2}}`)
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	writeText(t, path, idLines("c", 4))
	f.checkAll()
	us := takePending(f, state)
	if len(us) != 2 {
		t.Fatalf("got %d updates, want 2: the rotated file's last lines, then the new file: %+v", len(us), us)
	}
	if got := updateIDs(us[0]); !slices.Equal(got, ids("b", 3)) || len(us[0].Reloaded) != 0 {
		t.Errorf("first update: %v, reloaded %v; want the lines written before the rotation, b0..b2", got, us[0].Reloaded)
	}
	if got := updateIDs(us[1]); !slices.Equal(got, ids("c", 4)) || !slices.Equal(us[1].Reloaded, []string{path}) {
		t.Errorf("second update: %v, reloaded %v; want the new file, c0..c3, reloaded", got, us[1].Reloaded)
	}
	if lines := us[0].Trajectories; len(lines) == 3 && (lines[0].Line != 4 || lines[2].Line != 6) {
		t.Errorf("the drained lines are numbered %d..%d, want 4..6", lines[0].Line, lines[2].Line)
	}
	// The new file is followed in its turn.
	testfile.Append(t, path, idLines("d", 1))
	f.checkAll()
	takePending(f, state)
	if want := append(ids("c", 4), "d0"); !slices.Equal(state.ids[path], want) {
		t.Errorf("after the new file grew: %v, want %v", state.ids[path], want)
	}
}

// TestFollowRotationInADirectoryCountsOnce rotates a log of a followed
// directory into a new name there (run.jsonl to run.1.jsonl, a new
// run.jsonl): after every update the consumer holds each line once, the
// old file's last lines come before the reload, and in the end the old
// lines are the new name's and the new file's are the old name's.
func TestFollowRotationInADirectoryCountsOnce(t *testing.T) {
	dir := t.TempDir()
	path, rotated := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "run.1.jsonl")
	writeText(t, path, idLines("a", 3))
	f, state := newTestFollower(t, dir)
	testfile.Append(t, path, idLines("b", 2))
	if err := os.Rename(path, rotated); err != nil {
		t.Fatal(err)
	}
	writeText(t, path, idLines("c", 4))
	f.checkAll()
	us := f.pending
	f.pending = nil
	for k, u := range us {
		state.apply(u)
		held := 0
		for _, got := range state.ids {
			held += len(got)
		}
		if held > 3+2+4 {
			t.Errorf("after update %d the consumer holds %d lines, %v; there are 9", k, held, state.ids)
		}
	}
	if got := updateIDs(us[0]); !slices.Equal(got, ids("b", 2)) {
		t.Errorf("first update %v, want the rotated log's last lines b0, b1", got)
	}
	if want := append(ids("a", 3), ids("b", 2)...); !slices.Equal(state.ids[rotated], want) || !slices.Equal(state.ids[path], ids("c", 4)) {
		t.Errorf("in the end %v; want %s: %v, %s: c0..c3", state.ids, rotated, want, path)
	}
}

// TestFollowRotatedTwiceBeforeTheConsumerLooks rotates a log, lets the
// new one grow, and rotates it again before the consumer takes anything:
// every line of the middle log, its reading and its last lines, still
// reaches the consumer before the newest log replaces it.
func TestFollowRotatedTwiceBeforeTheConsumerLooks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log.jsonl")
	writeText(t, path, idLines("a", 1))
	f, state := newTestFollower(t, path)
	rotate := func(suffix, next string) {
		if err := os.Rename(path, path+suffix); err != nil {
			t.Fatal(err)
		}
		writeText(t, path, next)
		f.checkAll()
	}
	testfile.Append(t, path, idLines("b", 1))
	rotate(".1", idLines("c", 2))
	testfile.Append(t, path, idLines("d", 2))
	rotate(".2", idLines("e", 1))
	var got []string
	for _, u := range takePending(f, state) {
		got = append(got, updateIDs(u)...)
	}
	if want := []string{"b0", "c0", "c1", "d0", "d1", "e0"}; !slices.Equal(got, want) {
		t.Errorf("the consumer was sent %v, want %v", got, want)
	}
	if !slices.Equal(state.ids[path], ids("e", 1)) {
		t.Errorf("in the end %v, want e0", state.ids[path])
	}
}

// TestFollowRewritesQueueOnce rewrites a CSV file (read whole when it
// changes) five times before the consumer takes anything: one update
// waits, the last reading, not five copies of the file.
func TestFollowRewritesQueueOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.csv")
	csvOf := func(prefix string, n int) string {
		var b strings.Builder
		b.WriteString("id,a\n")
		for i := range n {
			fmt.Fprintf(&b, "%s%d,%d\n", prefix, i, i)
		}
		return b.String()
	}
	writeText(t, path, csvOf("a", 2))
	f, state := newTestFollower(t, path)
	for k := range 5 {
		writeText(t, path, csvOf(fmt.Sprintf("r%d-", k), 3+k))
		f.checkAll()
	}
	us := takePending(f, state)
	if len(us) != 1 || !slices.Equal(updateIDs(us[0]), ids("r4-", 7)) {
		t.Fatalf("%d updates waiting, the last %v; want one, the last reading r4-0..r4-6", len(us), updateIDs(us[len(us)-1]))
	}
	if !slices.Equal(state.ids[path], ids("r4-", 7)) {
		t.Errorf("the consumer holds %v, want r4-0..r4-6", state.ids[path])
	}
}

// TestFollowDeletedFileIsReadToItsEnd appends lines to a followed file,
// then deletes it before the follower looks: the lines still come, with
// the file reported gone.
func TestFollowDeletedFileIsReadToItsEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	writeText(t, path, idLines("a", 2))
	f, state := newTestFollower(t, path)
	testfile.Append(t, path, idLines("b", 2))
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	f.checkAll()
	takePending(f, state)
	if want := append(ids("a", 2), ids("b", 2)...); !slices.Equal(state.ids[path], want) || !slices.Equal(state.gone, []string{path}) {
		t.Errorf("loaded %v, gone %v; want %v, and the file gone", state.ids[path], state.gone, want)
	}
}

// TestFollowKeepsFewDescriptors follows more tail files than keep their
// descriptors: those that grew last keep theirs, the others are read
// through their paths, and every line still comes once.
func TestFollowKeepsFewDescriptors(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range maxOpenFollowed + 6 {
		p := filepath.Join(dir, fmt.Sprintf("log-%03d.jsonl", i))
		writeText(t, p, idLines(fmt.Sprintf("f%d-", i), 1))
		paths = append(paths, p)
	}
	f, state := newTestFollower(t, dir)
	testfile.Append(t, paths[0], idLines("late", 2))
	f.checkAll()
	takePending(f, state)
	open := 0
	for _, ff := range f.files {
		if ff.file != nil {
			open++
		}
	}
	if open != maxOpenFollowed || f.byPath[paths[0]].file == nil {
		t.Errorf("%d descriptors kept (want %d), the file that grew keeps its: %v", open, maxOpenFollowed, f.byPath[paths[0]].file != nil)
	}
	last := paths[len(paths)-1]
	for _, p := range paths[1:] {
		if f.byPath[p].file == nil {
			last = p // one without its descriptor
		}
	}
	testfile.Append(t, last, idLines("more", 1))
	f.checkAll()
	takePending(f, state)
	if got := state.ids[last]; len(got) != 2 || got[1] != "more0" {
		t.Errorf("a file read through its path again: %v", got)
	}
}

// TestFollowLaterFilesArePicked follows a directory with Options.Pick: a
// large file that appears later, and the lines that a followed file grows
// by, come picked (the keys' values, no metadata map, no response), as
// lean as a first reading that streams; only the lines parsed before the
// first one was looked at, a block's worth, come whole.
func TestFollowLaterFilesArePicked(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "log-1.jsonl")
	writeText(t, first, idLines("a", 3))
	pick := &scoring.Pick{Keys: []string{"a"}}
	calls := 0
	opts := FollowOptions{Poll: time.Hour, NoWatch: true}
	opts.Pick = func(*scoring.Trajectory) *scoring.Pick { calls++; return pick }
	f, state := newTestFollowerWith(t, opts, dir)
	later := filepath.Join(dir, "log-2.jsonl")
	const n = 100000 // many blocks
	writeText(t, later, idLines("b", n))
	testfile.Append(t, first, idLines("c", 2))
	f.checkAll()
	us := takePending(f, state)
	picked, whole := 0, 0
	for _, u := range us {
		for _, tr := range u.Trajectories {
			switch {
			case tr.Pick == pick && tr.Metadata == nil && len(tr.Picked) == 1:
				if got := tr.Picked[0].Number; strconv.Itoa(int(got)) != strings.TrimLeft(tr.ID, "abc") {
					t.Fatalf("%s picked a = %v", tr.ID, got)
				}
				picked++
			case tr.Metadata != nil:
				whole++
			}
		}
	}
	if len(state.ids[later]) != n || len(state.ids[first]) != 5 {
		t.Fatalf("%d and %d trajectories, want %d and 5", len(state.ids[later]), len(state.ids[first]), n)
	}
	// The lines parsed before the first was looked at: the blocks the
	// parsers hold and those queued for them (jsonread.ReadJSONL), at most.
	lineBytes := len(idLines("b", n)) / n
	if most := (2*runtime.GOMAXPROCS(0) + 1) * jsonread.BlockBytes / lineBytes; whole > most || picked != n+2-whole || calls != 2 {
		t.Errorf("%d trajectories picked, %d whole (at most %d), Pick called %d times (once a file): a later file must come picked", picked, whole, most, calls)
	}
}

// TestUpdateErrorsByFile: an update's errors are told file by file, each
// file once (its errors of updates merged for a slow consumer joined),
// in the order Err joins them, so that every file that failed can be
// said, not only the first.
func TestUpdateErrorsByFile(t *testing.T) {
	a1, b1, a2 := errors.New("a.jsonl:3:1: invalid JSON"), errors.New("b.jsonl: permission denied"), errors.New("a.jsonl:9:1: invalid JSON")
	var u Update
	u.add("a.jsonl", fileChange{err: a1})
	u.add("b.jsonl", fileChange{err: b1})
	u.add("c.jsonl", fileChange{res: &Result{}})
	u.add("a.jsonl", fileChange{err: a2})
	if len(u.FileErrs()) != 2 || u.FileErrs()[0].Path != "a.jsonl" || u.FileErrs()[1].Path != "b.jsonl" {
		t.Fatalf("FileErrs %v, want a.jsonl's then b.jsonl's", u.FileErrs())
	}
	if !errors.Is(u.FileErrs()[0].Err, a1) || !errors.Is(u.FileErrs()[0].Err, a2) || errors.Is(u.FileErrs()[0].Err, b1) || u.FileErrs()[1].Err != b1 {
		t.Errorf("a.jsonl's errors %v, b.jsonl's %v", u.FileErrs()[0].Err, u.FileErrs()[1].Err)
	}
	if !errors.Is(u.Err(), a1) || !errors.Is(u.Err(), b1) || !errors.Is(u.Err(), a2) {
		t.Errorf("Err %v does not join every file's", u.Err())
	}
}

// TestFollowSaysFilesLeftOut: a file that appears in a followed directory
// named as an input with one more extension that is not read (a .bz2, a
// rotated log, a backup) is said once (Update.LeftOut), in the start's
// note's words; one there at the start is not (the start's note names
// it), nor is an editor's or an atomic write's temporary file, nor a file
// said before that changes.
func TestFollowSaysFilesLeftOut(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "step_0.jsonl"), idLines("a", 1))
	writeText(t, filepath.Join(dir, "step_0.jsonl.bz2"), "BZh91AY&SY")
	f, state := newTestFollower(t, dir)
	for _, name := range []string{"step_1.jsonl.bz2", "step_1.jsonl.1", "step_1.jsonl.bak", "step_1.jsonl.tmp", ".step_1.jsonl.swp", "step_1.jsonl~", "step_1.jsonl"} {
		writeText(t, filepath.Join(dir, name), idLines("b", 1))
	}
	f.checkAll()
	var said []LeftOutFile
	for _, u := range takePending(f, state) {
		said = append(said, u.LeftOut...)
	}
	want := "left out " + filepath.Join(dir, "step_1.jsonl.1") + " (a rotated log, not read), " +
		filepath.Join(dir, "step_1.jsonl.bak") + " (a backup, not read), " +
		filepath.Join(dir, "step_1.jsonl.bz2") + " (compressed with bzip2, which is not read: decompress it, or gzip it)"
	if got := LeftOutNote(said); got != want {
		t.Errorf("said %q, want %q", got, want)
	}
	if got := state.ids[filepath.Join(dir, "step_1.jsonl")]; !slices.Equal(got, []string{"b0"}) {
		t.Errorf("the new input: read %v", got)
	}

	writeText(t, filepath.Join(dir, "step_1.jsonl.bz2"), "BZh91AY&SY again")
	f.checkAll()
	for _, u := range takePending(f, state) {
		if len(u.LeftOut) > 0 {
			t.Errorf("said again: %v", u.LeftOut)
		}
	}
}
