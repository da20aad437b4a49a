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

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// TestFollowCSVPartialRowWaits: a followed CSV file's last row without
// its line end yet, cut within a quoted field that spans lines or after
// its last value, is neither an error nor read, however long it waits; it
// is read once its line end comes.
func TestFollowCSVPartialRowWaits(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, watch := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "r.csv")
		if err := os.WriteFile(path, []byte("id,note,x\na,,1\nb,,2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		res, ch, err := Follow(ctx, []string{path}, followOptions(watch))
		if err != nil {
			t.Fatal(err)
		}
		f := newFollowed(res)
		settle := func(what string) {
			t.Helper()
			for deadline := time.After(150 * time.Millisecond); ; {
				select {
				case u := <-ch:
					f.apply(u)
					continue
				case <-deadline:
				}
				break
			}
			if len(f.errs) > 0 || !slices.Equal(f.ids[path], []string{"a", "b"}) {
				t.Fatalf("watch=%v, %s: loaded %v, errors %v", watch, what, f.ids, f.errs)
			}
		}
		testfile.Append(t, path, "c")
		settle("a row cut in its first field")
		testfile.Append(t, path, ",\"two\nlines")
		settle("a row cut in a quoted field after its line break")
		testfile.Append(t, path, "\",3")
		settle("a row cut after a value")
		testfile.Append(t, path, "0\n")
		f.await(t, ch, "the completed row", func() bool { return slices.Equal(f.ids[path], []string{"a", "b", "c"}) })
		if len(f.errs) > 0 || !slices.Equal(f.lines[path], []int{2, 3, 4}) {
			t.Errorf("watch=%v: lines %v, errors %v", watch, f.lines[path], f.errs)
		}
		cancel()
		for range ch {
		}
	}
}

// TestCSVRowsEnd: where a followed CSV's complete rows end: after the
// last line end out of a quoted field, a quoted field being one that
// starts with '"' ("" within it an escaped quote); a '"' inside an
// unquoted field is literal, so that the row is read and the reader says
// what is wrong with it, rather than every line after it taken as quoted
// and nothing more read, silently.
func TestCSVRowsEnd(t *testing.T) {
	// A quoted field that opens at the first byte of csvRowsEnd's second
	// read (its buffer is 64 KiB), its line end within the quotes.
	boundary := "id,x\n" + strings.Repeat("a", 64<<10-len("id,x\n")-1) + ",\"q\nr"
	for _, tc := range []struct {
		text  string
		end   int
		lines int
	}{
		{boundary, len("id,x\n"), 1},
		{"id,x\na,1\nb,2", len("id,x\na,1\n"), 2},
		{"id,x\n\"a\nb\",1\nc,2", len("id,x\n\"a\nb\",1\n"), 3},
		{"id,x\n\"a \"\"q\"\"\nb\",1\n", len("id,x\n\"a \"\"q\"\"\nb\",1\n"), 3},
		{"id,x\n\"a\nb", len("id,x\n"), 1},                               // a quoted field being written
		{"id,x\n\"a \"\"q\"\"\nb", len("id,x\n"), 1},                     // one with escaped quotes
		{"id,x\nb,g\"x\nc,2\nd,3\n", len("id,x\nb,g\"x\nc,2\nd,3\n"), 4}, // a bare quote
		{"id,x\nb, \"x\nc,2\n", len("id,x\nb, \"x\nc,2\n"), 3},           // a quote after a space is bare too
	} {
		path := filepath.Join(t.TempDir(), "r.csv")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		end, lines, err := csvRowsEnd(f, int64(len(tc.text)))
		f.Close()
		if err != nil || end != int64(tc.end) || lines != tc.lines {
			t.Errorf("%q: end %d, %d lines, %v; want %d, %d", tc.text, end, lines, err, tc.end, tc.lines)
		}
	}
}

// TestFollowCSVGrownIsNotReloaded: a followed CSV file, read whole
// whenever it changes, brings the row its run appends, not Reloaded
// (nothing to tell); truncated and written again, it is.
func TestFollowCSVGrownIsNotReloaded(t *testing.T) {
	defer goleak.VerifyNone(t)
	path, f, ch, stop := followNew(t, "r.csv", []byte("id,x\na,1\n"), false)
	defer stop()
	var reloaded int
	watch := func(u Update) {
		f.apply(u)
		reloaded += len(u.Reloaded)
	}
	testfile.Append(t, path, "b,2\n")
	awaitUpdates(t, ch, "the appended row", watch, func() bool { return slices.Equal(f.ids[path], []string{"a", "b"}) }, func() string { return fmt.Sprint(f.ids) })
	if reloaded != 0 {
		t.Errorf("appended to: reloaded %d; want none", reloaded)
	}
	if err := os.WriteFile(path, []byte("id,x\nc,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	awaitUpdates(t, ch, "the rewritten file", watch, func() bool { return slices.Equal(f.ids[path], []string{"c"}) }, func() string { return fmt.Sprint(f.ids) })
	if reloaded == 0 {
		t.Error("rewritten shorter: not said to be read again")
	}
	stop()
}

// TestFollowCSVManyBadRowsThenOneMore: a followed CSV file that grew by
// more bad rows than a Result keeps reasons for (MaxSkipReasons), then by
// one bad row more, is reported both times without SkipInvalid, with a
// line, the follower running on: the second growth has no reason of its
// own left to cut from the reasons kept (reading the first of none
// brought the follower, and the dashboard or stats --follow with it,
// down), so the file is read again, its reasons with it.
func TestFollowCSVManyBadRowsThenOneMore(t *testing.T) {
	defer goleak.VerifyNone(t)
	path, f, ch, stop := followNew(t, "r.csv", []byte("id,a\nr0,1\n"), false)
	defer stop()
	testfile.Append(t, path, strings.Repeat("x,1,2\n", input.MaxSkipReasons+20))
	f.await(t, ch, "the bad rows", func() bool { return len(f.errs) == 1 })
	testfile.Append(t, path, "x,1,2\n")
	f.await(t, ch, "one bad row more", func() bool { return len(f.errs) == 2 })
	// Past the reasons kept, the growth is still a growth: the one row
	// skipped counted, nothing read again.
	if m := (*MalformedError)(nil); !errors.As(f.errs[1], &m) || m.Path != path || m.Skipped != 1 || len(f.reloaded) != 0 {
		t.Errorf("one bad row more: %v, files read again %v; want one malformed row of %s, none read again", f.errs[1], f.reloaded, path)
	}
	testfile.Append(t, path, "r1,2\n")
	f.await(t, ch, "a good row after them", func() bool { return len(f.ids[path]) == 2 })
	if !slices.Equal(f.ids[path], []string{"r0", "r1"}) || len(f.errs) != 2 {
		t.Errorf("loaded %v, errors %v; want r0 and r1, the two errors", f.ids[path], f.errs)
	}
	stop()
}

// TestMalformedErrorWithoutReasons: the lines skipped without their
// reasons (beyond MaxSkipReasons) are said by their count and file.
func TestMalformedErrorWithoutReasons(t *testing.T) {
	for _, tc := range []struct {
		skipped int
		want    string
	}{
		{1, "r.csv: 1 malformed line skipped"},
		{3, "r.csv: 3 malformed lines skipped"},
	} {
		if err := malformedError("r.csv", &Result{Skipped: tc.skipped}); err == nil || err.Error() != tc.want {
			t.Errorf("%d skipped: %v; want %q", tc.skipped, err, tc.want)
		}
	}
}

// TestMalformedErrorIsTyped: the error of lines skipped while following
// is a *MalformedError, joined or not, so that a consumer counts them
// (stats --follow's status), and still unwraps to the first's
// *LineError.
func TestMalformedErrorIsTyped(t *testing.T) {
	first := &LineError{Path: "r.jsonl", Line: 3, Col: 1, Msg: "invalid JSON"}
	err := errors.Join(errors.New("other.jsonl: permission denied"), malformedError("r.jsonl", &Result{Skipped: 2, SkipReasons: []*LineError{first}}))
	var m *MalformedError
	var le *LineError
	if !errors.As(err, &m) || m.Path != "r.jsonl" || m.Skipped != 2 || m.First != first || !errors.As(err, &le) || le != first {
		t.Errorf("%v: %+v, %v", err, m, le)
	}
	if err := malformedError("r.jsonl", &Result{Skipped: 1}); errors.Unwrap(err) != nil {
		t.Errorf("without a reason, it unwraps to %v", errors.Unwrap(err))
	}
}
