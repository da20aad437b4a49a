package loaders

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

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
	parquetOf := func(ids ...string) []byte {
		rows := make([]idRow, len(ids))
		for i, id := range ids {
			rows[i] = idRow{ID: id, A: float64(i)}
		}
		var b bytes.Buffer
		if err := parquet.Write(&b, rows, parquet.MaxRowsPerRowGroup(1)); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	pqGrown := parquetOf("a", "b")
	// The footer's length, before the magic at the end, past the start.
	pqBroken := slices.Clone(pqGrown)
	copy(pqBroken[len(pqBroken)-8:], []byte{0xff, 0xff, 0xff, 0x7f})
	jsonGrown := []byte(`[{"id": "a", "a": 1}, {"id": "b", "a": 2}]`)
	return []changingCase{
		// The footer cut off: the reading finds the file shorter than
		// its stat said.
		{"r.parquet", parquetOf("a"), pqGrown, pqBroken, len(pqGrown) - 8},
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
		path := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(path, tc.first, 0o644); err != nil {
			t.Fatal(err)
		}
		ff := followedAt(t, path)
		if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
			t.Fatal(err)
		}
		setAfterStat(t, func(path string) {
			if err := os.Truncate(path, int64(tc.cut)); err != nil {
				t.Error(err)
			}
		})
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
// reading fails while it stays as its check found it is said at once,
// by its path.
func TestFollowWholeBrokenUnchangedSaid(t *testing.T) {
	for _, tc := range changingCases(t) {
		path := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(path, tc.first, 0o644); err != nil {
			t.Fatal(err)
		}
		ff := followedAt(t, path)
		if err := os.WriteFile(path, tc.broken, 0o644); err != nil {
			t.Fatal(err)
		}
		if c := ff.check(Options{}); c.err == nil || !strings.HasPrefix(c.err.Error(), path+":") {
			t.Errorf("%s broken, unchanged: error %v; want it said, by its path", tc.name, c.err)
		}
	}
}

// TestFollowWholeChangingSaid: a followed file that changes under every
// reading is read again at each check, unsaid until maxChangedReadings
// in a row, then said once, by its path; once a reading finds it
// unchanged, it is read.
func TestFollowWholeChangingSaid(t *testing.T) {
	for _, tc := range changingCases(t) {
		path := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(path, tc.first, 0o644); err != nil {
			t.Fatal(err)
		}
		ff := followedAt(t, path)
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
// reading's own stat (a writer that ended between the two), is read
// again at the next check, which says the file broken if it still is.
func TestFollowWholeChangedSinceCheck(t *testing.T) {
	for _, tc := range changingCases(t) {
		path := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(path, tc.first, 0o644); err != nil {
			t.Fatal(err)
		}
		ff := followedAt(t, path)
		if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
			t.Fatal(err)
		}
		checked, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, tc.broken, 0o644); err != nil {
			t.Fatal(err)
		}
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
		if err := os.WriteFile(path, tc.grown, 0o644); err != nil {
			t.Fatal(err)
		}
		setAfterStat(t, func(path string) {
			if err := os.Truncate(path, int64(tc.cut)); err != nil {
				t.Error(err)
			}
		})
		_, _, err := Follow(context.Background(), []string{path}, FollowOptions{NoWatch: true})
		if want := path + ": changed while being read ("; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s changed under the first reading: %v; want %q first", tc.name, err, want)
		}
	}
}
