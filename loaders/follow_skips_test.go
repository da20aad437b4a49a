package loaders

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestFollowCountsAMalformedRecordOnce: a followed file grows by a
// malformed record, then is replaced by one that holds it again, at the
// same place, and a new one: the new one alone is counted (with
// SkipInvalid) or warned of (without): a record read again is not skipped
// anew. A JSONL file and a JSON array, read whole.
func TestFollowCountsAMalformedRecordOnce(t *testing.T) {
	for _, c := range []struct {
		name, first, grown, replaced string
		oldLine, newLine             int
	}{
		{"run.jsonl", `{"id":"a"}` + "\n",
			`{"id":"a"}` + "\n{oops\n" + `{"id":"b"}` + "\n",
			`{"id":"a"}` + "\n{oops\n" + `{"id":"b"}` + "\n[1]\n" + `{"id":"c"}` + "\n", 2, 4},
		{"run.json", "[\n{\"id\":\"a\"}\n]\n",
			"[\n{\"id\":\"a\"},\n5,\n{\"id\":\"b\"}\n]\n",
			"[\n{\"id\":\"a\"},\n5,\n{\"id\":\"b\"},\n6,\n{\"id\":\"c\"}\n]\n", 3, 5},
	} {
		for _, skip := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s skip=%v", c.name, skip), func(t *testing.T) {
				opts := followOptions(false)
				opts.SkipInvalid = skip
				path, f, ch, stop := followNewWith(t, c.name, []byte(c.first), opts)
				defer stop()
				write := func(text string) { renameOver(t, path, text) }
				write(c.grown)
				f.await(t, ch, "grown", func() bool { return len(f.ids[path]) == 2 })
				write(c.replaced)
				f.await(t, ch, "replaced", func() bool { return len(f.ids[path]) == 3 })
				var said []int // the lines each warning says were skipped
				for _, err := range f.errs {
					var m *MalformedError
					if !errors.As(err, &m) || m.First == nil {
						t.Fatalf("error %v, want a MalformedError", err)
					}
					for range m.Skipped {
						said = append(said, m.First.Line)
					}
				}
				if skip && f.skipped != 2 {
					t.Errorf("skipped records counted %d, want 2 (lines %d and %d)", f.skipped, c.oldLine, c.newLine)
				}
				if !skip && fmt.Sprint(said) != fmt.Sprintf("[%d %d]", c.oldLine, c.newLine) {
					t.Errorf("malformed records warned of at lines %v, want [%d %d]", said, c.oldLine, c.newLine)
				}
			})
		}
	}
}

// TestFollowCountsAnotherMalformedRecordAtItsPlace: a followed file
// replaced by one whose malformed line at the same place, for the same
// reason, is another line counts it: a record is told by its text too.
func TestFollowCountsAnotherMalformedRecordAtItsPlace(t *testing.T) {
	first, replaced := `{"id":"a"}`+"\n[1]\n", `{"id":"a"}`+"\n[2]\n"+`{"id":"b"}`+"\n"
	a, errA := readString("run.jsonl", first, Options{SkipInvalid: true})
	b, errB := readString("run.jsonl", replaced, Options{SkipInvalid: true})
	if errA != nil || errB != nil || a.Skipped != 1 || b.Skipped != 1 || a.SkipReasons[0].Error() != b.SkipReasons[0].Error() {
		t.Fatalf("the fixture must hold a malformed line 2 said alike: %v %v, %+v, %+v", errA, errB, a, b)
	}
	path, f, ch := followSkipping(t, "run.jsonl", first, nil)
	tmp := filepath.Join(filepath.Dir(path), "new")
	if err := os.WriteFile(tmp, []byte(replaced), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	f.await(t, ch, "replaced", func() bool { return len(f.ids[path]) == 2 })
	if f.skipped != 1 {
		t.Errorf("the replaced file's skipped records counted %d, want 1: its line 2", f.skipped)
	}
}

// TestFollowCountsAMalformedRecordOfAFailedReading: a followed JSON array
// replaced by a broken version (a malformed element, then a syntax
// error: one cut short would be left out, unread, until complete), whose
// reading fails, then by the whole file: the malformed element is
// counted (with SkipInvalid) or warned of (without) once, by the reading
// that delivers it.
func TestFollowCountsAMalformedRecordOfAFailedReading(t *testing.T) {
	const first, half, whole = "[\n{\"id\":\"a\"}\n]\n", "[\n{\"id\":\"a\"},\n5,\n{\"id\":\"b\"},]\n", "[\n{\"id\":\"a\"},\n5,\n{\"id\":\"b\"}\n]\n"
	for _, skip := range []bool{true, false} {
		t.Run(fmt.Sprintf("skip=%v", skip), func(t *testing.T) {
			opts := followOptions(false)
			opts.SkipInvalid = skip
			path, f, ch, stop := followNewWith(t, "run.json", []byte(first), opts)
			defer stop()
			write := func(text string) { renameOver(t, path, text) }
			write(half)
			f.await(t, ch, "the half-written file's error", func() bool { return len(f.errs) > 0 })
			failed := len(f.errs)
			write(whole)
			f.await(t, ch, "the whole file", func() bool { return len(f.ids[path]) == 2 })
			warned := 0
			for _, err := range f.errs[failed:] {
				var m *MalformedError
				if errors.As(err, &m) {
					warned += m.Skipped
				}
			}
			if skip && f.skipped != 1 {
				t.Errorf("skipped records counted %d, want 1 (line 3)", f.skipped)
			}
			if !skip && warned != 1 {
				t.Errorf("malformed records warned of %d, want 1 (line 3): errors %v", warned, f.errs)
			}
		})
	}
}

// TestFollowCountsTheMalformedRecordsOfARotatedLog: a followed log
// rotated (renamed away, a new one at its path) whose successor's line 1
// reads as the old one's, malformed alike, counts it again: it is another
// file's record.
func TestFollowCountsTheMalformedRecordsOfARotatedLog(t *testing.T) {
	path, f, ch := followSkipping(t, "run.jsonl", "# run log v1\n{\"id\":\"a\"}\n", nil)
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("# run log v1\n{\"id\":\"b\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.await(t, ch, "the new log", func() bool { return slices.Contains(f.ids[path], "b") })
	if f.skipped != 1 {
		t.Errorf("the new log's skipped records counted %d, want 1: its line 1", f.skipped)
	}
}

// TestFollowCountsAnotherRecordFailingAtItsPlace: a followed file edited
// in place, whose record at a line fails as the record there before did,
// counts it: a record is told by its text, or its fields, there too. A
// JSON array whose record fails the group_by expression, and a W&B table
// whose row has too many cells.
func TestFollowCountsAnotherRecordFailingAtItsPlace(t *testing.T) {
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, first, edited string
		fields              *scoring.RecordFields
	}{
		{"run.json", "[\n{\"prompt\":\"p\",\"step\":0},\n{\"step\":1,\"id\":\"x\"}\n]\n", "[\n{\"prompt\":\"p\",\"step\":0},\n{\"step\":1,\"id\":\"y\"}\n]\n", fields},
		{"run.table.json", `{"columns":["id","x"],"data":[["a",1],[5,6,7]]}`, `{"columns":["id","x"],"data":[["a",1],[8,9,0]]}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, f, ch := followSkipping(t, c.name, c.first, c.fields)
			// Written over in place, never truncated: the same file
			// throughout.
			file, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := file.WriteAt([]byte(c.edited), 0); err != nil {
				t.Fatal(err)
			}
			if err := file.Close(); err != nil {
				t.Fatal(err)
			}
			f.await(t, ch, "the edit", func() bool { return f.skipped > 0 || len(f.reloaded) > 0 })
			if f.skipped != 1 {
				t.Errorf("the edited record skipped counted %d, want 1: another record", f.skipped)
			}
		})
	}
}

// TestFollowCountsTheDrainedRecordsOnce: a followed log that grows by a
// malformed line, then is replaced before that line was read by a file
// that holds it and a line more: the line, read from the old file's last
// lines (drained), is not counted again as the new file is read, nor is
// the one counted before.
func TestFollowCountsTheDrainedRecordsOnce(t *testing.T) {
	const first, grown = "{\"id\":\"a\"}\n[1]\n", "[2]\n{\"id\":\"b\"}\n"
	path := writeTemp(t, "run.jsonl", first)
	opts := Options{SkipInvalid: true}
	ff := &followedFile{path: path, store: &partStore{}}
	defer ff.closeFile()
	if res, _, err := ff.load(opts, true, nil, nil, nil); err != nil || res.Skipped != 1 {
		t.Fatalf("first reading: %+v, %v; want 1 skipped", res, err)
	}
	appendText(t, path, grown)
	renameOver(t, path, first+grown+"{\"id\":\"c\"}\n")
	c := ff.check(opts)
	if c.err != nil || c.drained == nil || c.drained.Skipped != 1 || c.res == nil || c.res.Skipped != 0 || len(c.res.Trajectories) != 3 {
		t.Errorf("replaced: %+v, drained %+v; want line 3 skipped once, as drained", c, c.drained)
	}
}

// appendText writes text at the end of path: a file that grows.
func appendText(t *testing.T, path, text string) {
	t.Helper()
	file, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := file.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := file.Close(); err != nil {
		t.Fatal(err)
	}
}

// renameOver writes text to a new file beside path, then renames it over
// path: a file replaced whole, as a trainer's atomic write replaces it.
func renameOver(t *testing.T, path, text string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "new")
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// followSkipping follows a new file called name holding text, its invalid
// records skipped (fields, when not nil, deriving the record fields),
// failing t unless its first reading skipped one: its path, what was
// read of it and the updates, until t ends.
func followSkipping(t *testing.T, name, text string, fields *scoring.RecordFields) (string, *followed, <-chan Update) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := followOptions(false)
	opts.SkipInvalid, opts.Fields = true, fields
	res, ch, err := Follow(t.Context(), []string{path}, opts)
	if err != nil || res.Skipped != 1 {
		t.Fatalf("first reading: skipped %v, %v; want 1", res, err)
	}
	return path, newFollowed(res), ch
}

// TestFollowGrowthOfBinaryLines: a followed JSONL file's growth that holds
// lines of binary data (NUL bytes, as a crash leaves where a write did
// not land), at its start or in its middle, reads as any malformed line
// does in the one-shot load with --skip-invalid-lines: the good rows
// before and after it are read, and it is skipped, said once (without
// SkipInvalid) or counted once (with), at its line; the next growth
// brings its own rows alone, without an error.
func TestFollowGrowthOfBinaryLines(t *testing.T) {
	for _, c := range []struct {
		name, growth string
		ids          []string
		bad          []int
	}{
		{"in its middle", `{"id":"b"}` + "\n\x00\x00\x00\x00\n" + `{"id":"c"}` + "\n", []string{"b", "c"}, []int{3}},
		{"at its start", "\x00\x00\x00\x00\n" + `{"id":"b"}` + "\n" + "\x00\x00" + `{"id":"x"}` + "\n" + `{"id":"c"}` + "\n", []string{"b", "c"}, []int{2, 4}},
	} {
		for _, skip := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s skip=%v", c.name, skip), func(t *testing.T) {
				path := writeTemp(t, "run.jsonl", `{"id":"a"}`+"\n")
				ff := followedAt(t, path)
				opts := Options{SkipInvalid: skip}
				appendText(t, path, c.growth)
				got := ff.check(opts)
				if got.res == nil || !slices.Equal(trajectoryIDs(got.res.Trajectories), c.ids) {
					t.Fatalf("growth: read %v, %v; want %v", got.res, got.err, c.ids)
				}
				var lines []int
				if skip {
					if got.err != nil {
						t.Fatalf("growth: error %v, want none (skipped)", got.err)
					}
					for _, e := range got.res.SkipReasons {
						lines = append(lines, e.Line)
					}
					if got.res.Skipped != len(c.bad) {
						t.Errorf("growth: %d skipped, want %d", got.res.Skipped, len(c.bad))
					}
				} else {
					var m *MalformedError
					if !errors.As(got.err, &m) || m.Skipped != len(c.bad) {
						t.Fatalf("growth: error %v, want a MalformedError of %d lines", got.err, len(c.bad))
					}
					lines = append(lines, m.First.Line)
				}
				if lines[0] != c.bad[0] {
					t.Errorf("growth: first bad line %v, want %d", lines, c.bad[0])
				}
				appendText(t, path, `{"id":"d"}`+"\n")
				got = ff.check(opts)
				if got.err != nil || got.res == nil || got.res.Skipped != 0 || !slices.Equal(trajectoryIDs(got.res.Trajectories), []string{"d"}) {
					t.Fatalf("second growth: read %v, %v; want d alone, no error", got.res, got.err)
				}
				if d := got.res.Trajectories[0]; d.Line != 2+strings.Count(c.growth, "\n") {
					t.Errorf("second growth: d at line %d, want %d", d.Line, 2+strings.Count(c.growth, "\n"))
				}
			})
		}
	}
}

// TestFollowGrowthStoppedPartWay: a followed JSONL file's growth whose
// reading stops part-way on a read error (not a malformed line, which is
// skipped) says the error at its file and line, delivers none of its
// rows, and the file is read again from where that reading started once
// it changes: every row of the growth, and of the next, comes once, at
// its line, the error then gone (recovered). The error's line is the
// file's, not the growth's.
func TestFollowGrowthStoppedPartWay(t *testing.T) {
	path := writeTemp(t, "run.jsonl", `{"id":"a"}`+"\n")
	ff := followedAt(t, path)
	growth := `{"id":"b"}` + "\n" + `{"id":"c"}` + "\n" + `{"id":"d"}` + "\n"
	appendText(t, path, growth)
	eio := errors.New("input/output error")
	t.Cleanup(func() { duringGrowth = nil })
	duringGrowth = func(r io.Reader) io.Reader {
		return io.MultiReader(io.LimitReader(r, int64(len(growth)-5)), iotest.ErrReader(eio))
	}
	c := ff.check(Options{})
	if !errors.Is(c.err, eio) || !strings.HasPrefix(c.err.Error(), path+":4: read: ") || c.res != nil {
		t.Fatalf("stopped growth: %v, %v; want the read error at %s:4, d's line, no rows", c.res, c.err, path)
	}
	duringGrowth = nil
	if c := ff.check(Options{}); c.err != nil || c.res != nil {
		t.Fatalf("unchanged since: %v, %v; want nothing, read again once it changes", c.res, c.err)
	}
	appendText(t, path, `{"id":"e"}`+"\n")
	c = ff.check(Options{})
	if c.err != nil || c.res == nil || !c.recovered {
		t.Fatalf("changed: %v, %v (recovered %v); want its rows, recovered", c.res, c.err, c.recovered)
	}
	var got []string
	for _, tr := range c.res.Trajectories {
		got = append(got, fmt.Sprintf("%s@%d", tr.ID, tr.Line))
	}
	if want := []string{"b@2", "c@3", "d@4", "e@5"}; !slices.Equal(got, want) {
		t.Errorf("changed: read %v, want %v", got, want)
	}
}
