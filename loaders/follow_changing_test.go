package loaders

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// changingCase is a followed file read whole as first written, then
// grown by its run: the check that sees it grown reads it as the writer
// is cut short, at cut bytes (the hook, afterStat). broken is the grown
// file spoilt, which no reading can read.
type changingCase struct {
	name                 string
	first, grown, broken []byte
	cut                  int
}

func changingCases(t *testing.T) []changingCase {
	t.Helper()
	pqGrown := parquetOfIDs(t, "a", "b")
	// The footer's length, before the magic at the end, past the start.
	pqBroken := slices.Clone(pqGrown)
	copy(pqBroken[len(pqBroken)-8:], []byte{0xff, 0xff, 0xff, 0x7f})
	jsonGrown := []byte(`[{"id": "a", "a": 1}, {"id": "b", "a": 2}]`)
	return []changingCase{
		// The footer cut off: the reading finds the file shorter than
		// its stat said.
		{"r.parquet", parquetOfIDs(t, "a"), pqGrown, pqBroken, len(pqGrown) - 8},
		{"r.json", []byte(`[{"id": "a", "a": 1}]`), jsonGrown, []byte(`[{"id": "a", "a": 1}, {"id": "b", "a": }]`), len(jsonGrown) - 12},
	}
}

// followedAt returns the followed file at path, read once.
func followedAt(t *testing.T, path string) *followedFile {
	t.Helper()
	ff := &followedFile{path: path}
	t.Cleanup(ff.closeFile)
	if res, _, err := ff.load(Options{}, true, nil, nil, nil); err != nil || len(res.Trajectories) == 0 {
		t.Fatalf("%s: first reading: %v, %v", path, res, err)
	}
	return ff
}

// followedCase writes tc's first content to a file of its name and
// returns its path and the file followed after its first reading.
func followedCase(t *testing.T, tc changingCase) (string, *followedFile) {
	t.Helper()
	path := filepath.Join(t.TempDir(), tc.name)
	if err := os.WriteFile(path, tc.first, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, followedAt(t, path)
}

// grownCutWhileRead writes tc's grown file at path and has every reading
// find it cut at tc.cut, after the check's stat: a writer writing it anew
// under the reading.
func grownCutWhileRead(t *testing.T, path string, tc changingCase) {
	t.Helper()
	if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
		t.Fatal(err)
	}
	setAfterStat(t, func(path string) {
		if err := os.Truncate(path, int64(tc.cut)); err != nil {
			t.Error(err)
		}
	})
}

// setAfterStat sets the hook afterStat for the test.
func setAfterStat(t *testing.T, hook func(path string)) {
	t.Helper()
	t.Cleanup(func() { afterStat = nil })
	afterStat = hook
}

// TestFollowWholeChangedWhileRead: a followed file read whole (Parquet, a
// JSON array) that its writer changes between the check's stat and its
// reading, the reading failing, is not said to be broken: it is read
// again at the next check, which finds it written and brings its new
// rows, with no error.
func TestFollowWholeChangedWhileRead(t *testing.T) {
	for _, tc := range changingCases(t) {
		path, ff := followedCase(t, tc)
		grownCutWhileRead(t, path, tc)
		if c := ff.check(Options{}); c.err != nil || c.res != nil {
			t.Errorf("%s read as it changed: %v, %v; want nothing said, read again at the next check", tc.name, c.res, c.err)
		}
		afterStat = nil
		if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
			t.Fatal(err)
		}
		c := ff.check(Options{})
		if c.err != nil || c.res == nil || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"b"}) {
			t.Errorf("%s written: %v, %v; want its new row b alone", tc.name, c.res, c.err)
		}
	}
}

// TestFollowWholeBrokenUnchangedSaid: a followed file read whole whose
// reading fails while it stays as its check found it is said by its
// path, as what is wrong with it: at once when another file replaced it
// (renamed over it, written whole), at the maxChangedReadings-th reading
// in a row when it was written in place (halfWritten: a run's writing it
// is waited for until then).
func TestFollowWholeBrokenUnchangedSaid(t *testing.T) {
	for _, tc := range changingCases(t) {
		for _, inPlace := range []bool{false, true} {
			path, ff := followedCase(t, tc)
			readings := 1
			if inPlace {
				readings = maxChangedReadings
				if err := os.WriteFile(path, tc.broken, 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				renameOver(t, path, string(tc.broken))
			}
			for reading := 1; reading <= readings; reading++ {
				c := ff.check(Options{})
				switch {
				case reading < readings && (c.err != nil || c.res != nil):
					t.Errorf("%s broken in place, reading %d: %v, %v; want nothing said until reading %d", tc.name, reading, c.res, c.err, readings)
				case reading == readings && (c.err == nil || !strings.HasPrefix(c.err.Error(), path+":") || strings.Contains(c.err.Error(), "changed while")):
					t.Errorf("%s broken (in place %v), reading %d: error %v; want what is wrong with it said, by its path", tc.name, inPlace, reading, c.err)
				}
			}
			if c := ff.check(Options{}); c.err != nil || c.res != nil {
				t.Errorf("%s broken (in place %v), checked again unchanged: %v, %v; want nothing, said once", tc.name, inPlace, c.res, c.err)
			}
		}
	}
}

// TestFollowWholeChangingSaid: a followed file that changes under every
// reading is read again at each check, unsaid until maxChangedReadings
// in a row, then said once, by its path; once a reading finds it
// unchanged, it is read.
func TestFollowWholeChangingSaid(t *testing.T) {
	for _, tc := range changingCases(t) {
		path, ff := followedCase(t, tc)
		if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
			t.Fatal(err)
		}
		// Each reading finds the file a byte shorter than its stat said.
		setAfterStat(t, func(path string) {
			st, err := os.Stat(path)
			if err == nil {
				err = os.Truncate(path, st.Size()-1)
			}
			if err != nil {
				t.Error(err)
			}
		})
		var said []string
		for check := 1; check <= maxChangedReadings+2; check++ {
			if c := ff.check(Options{}); c.err != nil {
				said = append(said, fmt.Sprintf("check %d: %v", check, c.err))
			} else if c.res != nil {
				t.Fatalf("%s, check %d: read %v as it changed", tc.name, check, c.res)
			}
		}
		want := fmt.Sprintf("check %d: %s: not read: it changed while each of its last %d readings read it, the last failing", maxChangedReadings, path, maxChangedReadings)
		if len(said) != 1 || !strings.HasPrefix(said[0], want) {
			t.Errorf("%s changing: said %q; want once, at check %d: %s", tc.name, said, maxChangedReadings, want)
		}
		afterStat = nil
		if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
			t.Fatal(err)
		}
		c := ff.check(Options{})
		if c.err != nil || c.res == nil || !slices.Contains(trajectoryIDs(c.res.Trajectories), "b") || ff.changedReadings != 0 {
			t.Errorf("%s unchanged at last: %v, %v, %d readings counted; want it read, the count over", tc.name, c.res, c.err, ff.changedReadings)
		}
	}
}

// trajectoryIDs returns the IDs of ts, in order.
func trajectoryIDs(ts []scoring.Trajectory) []string {
	ids := make([]string, len(ts))
	for i := range ts {
		ids[i] = ts[i].ID
	}
	return ids
}

// TestFollowWholeChangedSinceCheck: a reading that fails on a file that
// changed since the check that found it changed, though not since the
// reading's own stat (a writer that ended between the two, replacing
// it), is read again at the next check, which says the file broken if
// it still is.
func TestFollowWholeChangedSinceCheck(t *testing.T) {
	for _, tc := range changingCases(t) {
		path, ff := followedCase(t, tc)
		if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
			t.Fatal(err)
		}
		checked, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		renameOver(t, path, string(tc.broken))
		if c := ff.reload(Options{}, checked); c.err != nil || c.res != nil {
			t.Errorf("%s changed since its check: %v, %v; want nothing said, read again at the next check", tc.name, c.res, c.err)
		}
		if c := ff.check(Options{}); c.err == nil || !strings.HasPrefix(c.err.Error(), path+":") {
			t.Errorf("%s broken at the next check: error %v; want it said, by its path", tc.name, c.err)
		}
	}
}

// TestFollowFirstReadingChanged: Follow's first reading that fails as
// the file changes under it says so, by the file's path: it cannot be
// read again as a later check's is, as its rows may have gone to Each.
func TestFollowFirstReadingChanged(t *testing.T) {
	for _, tc := range changingCases(t) {
		path := filepath.Join(t.TempDir(), tc.name)
		grownCutWhileRead(t, path, tc)
		_, _, err := Follow(context.Background(), []string{path}, FollowOptions{NoWatch: true})
		if want := path + ": changed while being read ("; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s changed under the first reading: %v; want %q first", tc.name, err, want)
		}
	}
}

// TestFollowJSONLFailedReloadReadAgain: a followed JSONL file rewritten
// in place whose reading from the start fails midway (its context ends
// as the reading starts, as an I/O error would stop it) is read from the
// start again by the next check that finds it changed, not from where
// the failed reading stopped: the rewritten file's lines come, each
// once, in place of the old ones.
func TestFollowJSONLFailedReloadReadAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a"}`+"\n"+`{"id":"b"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ff := followedAt(t, path)
	if err := os.WriteFile(path, []byte(`{"id":"c"}`+"\n"+`{"id":"d"}`+"\n"+`{"id":"e"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkFailing(t, ff)
	appendText(t, path, `{"id":"f"}`+"\n")
	c := ff.check(Options{})
	if c.err != nil || c.res == nil || !c.reloaded || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"c", "d", "e", "f"}) {
		t.Fatalf("grown after the failed reading: %v (reloaded %v), %v; want c, d, e, f, reloaded", c.res, c.reloaded, c.err)
	}
	appendText(t, path, `{"id":"g"}`+"\n")
	c = ff.check(Options{})
	if c.err != nil || c.res == nil || c.reloaded || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"g"}) || c.res.Trajectories[0].Line != 5 {
		t.Errorf("grown again: %v (reloaded %v), %v; want g alone, at line 5", c.res, c.reloaded, c.err)
	}
}

// checkFailing checks ff, changed, with a reading that fails as it
// starts: its context ends there, as an I/O error would stop it.
func checkFailing(t *testing.T, ff *followedFile) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	setAfterStat(t, func(string) { cancel() })
	if c := ff.check(Options{Context: ctx}); c.err == nil || c.res != nil {
		t.Fatalf("the reading stopped: %v, %v; want its error alone", c.res, c.err)
	}
	afterStat = nil
}

// TestFollowJSONLFailedReloadOfAnEditReadAgain: a followed JSONL file
// edited in place in the middle, as large as it was, whose reading from
// the start fails, then grows, is read from the start: the edit is not
// missed as the growth alone would be.
func TestFollowJSONLFailedReloadOfAnEditReadAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	var text strings.Builder
	for i := range 400 {
		fmt.Fprintf(&text, `{"id":"r%03d","a":1}`+"\n", i)
	}
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ff := followedAt(t, path)
	edited := strings.Replace(text.String(), `{"id":"r010","a":1}`, `{"id":"r010","a":2}`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The edit, past the first bytes and before the last 4 KiB read, as
	// large as the file was: its modification time tells it.
	later := ff.info.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	checkFailing(t, ff)
	appendText(t, path, `{"id":"r400","a":1}`+"\n")
	c := ff.check(Options{})
	if c.err != nil || c.res == nil {
		t.Fatalf("grown after the failed reading of the edit: %v, %v", c.res, c.err)
	}
	if !c.reloaded || len(c.res.Trajectories) != 401 || c.res.Trajectories[10].Metadata["a"] != 2.0 {
		t.Errorf("grown after the failed reading of the edit: %d trajectories (reloaded %v); want 401, reloaded, r010's a 2", len(c.res.Trajectories), c.reloaded)
	}
}

// TestFollowWholeWrittenInPlaceWaited: a followed file read whole that
// its run writes anew in place, grown (open with "w" truncates it, then
// json.dump or to_parquet writes it), found by a check empty or half
// written, its size steady, is not read as a file without those rows
// (Reloaded, none: the dashboard's tabs empty, then fill) nor said
// broken: it is read again at the next check, which finds it written
// and brings its new row alone.
func TestFollowWholeWrittenInPlaceWaited(t *testing.T) {
	for _, tc := range changingCases(t) {
		for _, found := range []string{"empty", "half written", "written past what was read"} {
			path, ff := followedCase(t, tc)
			written := map[string][]byte{"empty": nil, "half written": tc.grown[:len(tc.first)/2], "written past what was read": tc.grown[:tc.cut]}[found]
			if err := os.WriteFile(path, written, 0o644); err != nil {
				t.Fatal(err)
			}
			if c := ff.check(Options{}); c.err != nil || c.res != nil || c.reloaded {
				t.Errorf("%s found %s: %v (reloaded %v), %v; want nothing, read again at the next check", tc.name, found, c.res, c.reloaded, c.err)
			}
			if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
				t.Fatal(err)
			}
			c := ff.check(Options{})
			if c.err != nil || c.res == nil || c.reloaded || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"b"}) {
				t.Errorf("%s written after found %s: %v (reloaded %v), %v; want its new row b alone", tc.name, found, c.res, c.reloaded, c.err)
			}
		}
	}
}

// TestFollowWholeLeftEmptyTaken: a followed file read whole emptied in
// place and left so is taken as it is, a file without rows (Reloaded),
// at the maxChangedReadings-th reading in a row, the readings before
// saying nothing.
func TestFollowWholeLeftEmptyTaken(t *testing.T) {
	for _, tc := range changingCases(t) {
		path, ff := followedCase(t, tc)
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		for reading := 1; reading < maxChangedReadings; reading++ {
			if c := ff.check(Options{}); c.err != nil || c.res != nil || c.reloaded {
				t.Fatalf("%s emptied, reading %d: %v (reloaded %v), %v; want nothing until reading %d", tc.name, reading, c.res, c.reloaded, c.err, maxChangedReadings)
			}
		}
		c := ff.check(Options{})
		if c.err != nil || c.res == nil || !c.reloaded || len(c.res.Trajectories) != 0 {
			t.Errorf("%s emptied, reading %d: %v (reloaded %v), %v; want it reloaded, without rows", tc.name, maxChangedReadings, c.res, c.reloaded, c.err)
		}
	}
}

// TestFollowChangedSaidThenReadRecovers: after its 10 changed readings
// are said, the reading that reads the file at last (grown: no reload)
// says it Recovered, so that a consumer forgets the error; a reading
// after it, the error over, says nothing of it.
func TestFollowChangedSaidThenReadRecovers(t *testing.T) {
	for _, tc := range changingCases(t) {
		path, ff := followedCase(t, tc)
		grownCutWhileRead(t, path, tc)
		var said Update
		for range maxChangedReadings {
			said.add(path, ff.check(Options{}))
			if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if len(said.FileErrs()) != 1 || !strings.Contains(said.FileErrs()[0].Err.Error(), "not read: it changed") {
			t.Fatalf("%s: FileErrs %v, want the changed readings said", tc.name, said.FileErrs())
		}
		afterStat = nil
		var read Update
		read.add(path, ff.check(Options{}))
		if read.Err() != nil || len(read.Trajectories) != 1 || len(read.Reloaded) != 0 || !slices.Equal(read.Recovered, []string{path}) {
			t.Errorf("%s read at last: err %v, %d rows, Reloaded %v, Recovered %v; want its 1 new row, Recovered", tc.name, read.Err(), len(read.Trajectories), read.Reloaded, read.Recovered)
		}
		if err := os.WriteFile(path, append(slices.Clone(tc.grown), ' '), 0o644); err != nil {
			t.Fatal(err)
		}
		var next Update
		next.add(path, ff.check(Options{}))
		if len(next.Recovered) != 0 {
			t.Errorf("%s: the next reading says Recovered %v again", tc.name, next.Recovered)
		}
	}
}

// TestFollowErrorThenRecoveredMerged: a file's error and then a reading
// of it without one, merged into one Update for a slow consumer, leave
// the error in Err (it happened) but not in FileErrs: the file is
// Recovered; an error after the recovery stays in FileErrs, alone, and
// Err holds every error, in order.
func TestFollowErrorThenRecoveredMerged(t *testing.T) {
	failed, denied := errors.New("a.jsonl: permission denied"), errors.New("b.jsonl: permission denied")
	failedAgain := errors.New("a.jsonl: permission denied again")
	var u Update
	u.add("a.jsonl", fileChange{err: failed})
	u.add("b.jsonl", fileChange{err: denied})
	u.add("a.jsonl", fileChange{res: &Result{}, recovered: true})
	if !errors.Is(u.Err(), failed) || len(u.FileErrs()) != 1 || u.FileErrs()[0].Path != "b.jsonl" || !slices.Equal(u.Recovered, []string{"a.jsonl"}) {
		t.Errorf("error then recovered: Err %v, FileErrs %v, Recovered %v", u.Err(), u.FileErrs(), u.Recovered)
	}
	u.add("a.jsonl", fileChange{err: failedAgain})
	if fe := u.FileErrs(); len(fe) != 2 || fe[0].Err != denied || fe[1].Path != "a.jsonl" || fe[1].Err != failedAgain {
		t.Errorf("failing again after its recovery: FileErrs %v, want b.jsonl's, then a.jsonl's new one alone", fe)
	}
	if joined := u.Err().(interface{ Unwrap() []error }).Unwrap(); !slices.Equal(joined, []error{failed, denied, failedAgain}) {
		t.Errorf("Err joins %v, want every error in order", joined)
	}
}

// TestFollowNeverReadGone: a file that appeared and whose every reading
// failed, its error said, is Gone when removed (the consumer forgets its
// error), and its error is said again should it come back failing.
func TestFollowNeverReadGone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	broken := []byte(`[{"id": "a", "a": }]`)
	if err := os.WriteFile(path, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	ff := &followedFile{path: path}
	t.Cleanup(ff.closeFile)
	if c := ff.check(Options{}); c.err == nil {
		t.Fatalf("a broken file read without error")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if c := ff.check(Options{}); !c.gone || c.err != nil {
		t.Errorf("removed: gone %v, err %v; want gone", c.gone, c.err)
	}
	if err := os.WriteFile(path, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	if c := ff.check(Options{}); c.err == nil {
		t.Errorf("back, broken as before: its error is not said again")
	}
}

// TestFollowFileErrsLatestFirst: two errors of one file merged into one
// Update for a slow consumer are joined the latest first, so the first
// line a status line shows is the file's latest error (CONTRACT).
func TestFollowFileErrsLatestFirst(t *testing.T) {
	older, latest := errors.New("a.jsonl: permission denied"), errors.New("a.jsonl:3:1: invalid JSON")
	var u Update
	u.add("a.jsonl", fileChange{err: older})
	u.add("a.jsonl", fileChange{err: latest})
	fe := u.FileErrs()
	if len(fe) != 1 {
		t.Fatalf("FileErrs %v, want a.jsonl's alone", fe)
	}
	if first := strings.SplitN(fe[0].Err.Error(), "\n", 2)[0]; first != latest.Error() {
		t.Errorf("the first line of a.jsonl's errors is %q, want the latest, %q", first, latest)
	}
	if !errors.Is(fe[0].Err, older) {
		t.Errorf("a.jsonl's errors %v lose the older one", fe[0].Err)
	}
}

// TestFollowAppearedUnreadableThenRecovers: a file that appears in a
// followed directory and cannot be read at its first reading (a symbolic
// link to itself: too many levels of symbolic links; mode 000 to another
// user) is said, and once it is read, at the next check, it is said
// Recovered, so that a consumer forgets the error rather than keep the
// file unread.
func TestFollowAppearedUnreadableThenRecovers(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "a_0.jsonl"), idLines("a", 1))
	f, state := newTestFollower(t, dir)
	path := filepath.Join(dir, "a_1.jsonl")
	if err := os.Symlink("a_1.jsonl", path); err != nil {
		t.Fatal(err)
	}
	f.checkAll()
	failed := takePending(f, state)
	if len(failed) != 1 || len(failed[0].FileErrs()) != 1 || failed[0].FileErrs()[0].Path != path {
		t.Fatalf("appeared unreadable: %+v, want its error", failed)
	}
	tmp := filepath.Join(dir, "tmp")
	writeText(t, tmp, idLines("b", 1))
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	f.checkAll()
	read := takePending(f, state)
	if len(read) != 1 || read[0].Err() != nil || !slices.Equal(updateIDs(read[0]), []string{"b0"}) || !slices.Equal(read[0].Recovered, []string{path}) {
		t.Errorf("read at last: %+v, want its row, Recovered", read)
	}
}
