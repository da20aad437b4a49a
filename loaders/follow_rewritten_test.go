package loaders

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// rowFormat writes the rows of a followed file its run rewrites in place
// (pandas' to_csv, to_json(lines=True) each step): a CSV file, read
// whole, and a JSONL file, read as it grows.
type rowFormat struct {
	name   string
	header string
	row    func(id string) string // one row, its line end included
}

var rowFormats = []rowFormat{
	{"run.csv", "id,x\n", func(id string) string { return id + ",1\n" }},
	{"run.jsonl", "", func(id string) string { return fmt.Sprintf(`{"id":%q,"x":1}`+"\n", id) }},
}

// text returns the file holding the rows of ids.
func (r rowFormat) text(ids ...string) string {
	var b strings.Builder
	b.WriteString(r.header)
	for _, id := range ids {
		b.WriteString(r.row(id))
	}
	return b.String()
}

// rewrittenCatch is what a check finds of a file its run is writing anew
// in place, which had rows a, b and c: text, as changed by hook (nil for
// none) between the reading's stat and its reading.
type rewrittenCatch struct {
	name string
	text func(r rowFormat) string
	hook func(t *testing.T, r rowFormat, path string)
}

var rewrittenCatches = []rewrittenCatch{
	{"its last line without its line end", func(r rowFormat) string { return r.text("a", "b") + strings.TrimSuffix(r.row("c"), "\n") }, nil},
	{"its last line ended, written on as it is read", func(r rowFormat) string { return r.text("a", "b") }, func(t *testing.T, _ rowFormat, path string) {
		later := time.Now().Add(time.Hour)
		if err := os.Chtimes(path, later, later); err != nil {
			t.Error(err)
		}
	}},
	{"it emptied, then written in part as it is read", func(rowFormat) string { return "" }, func(t *testing.T, r rowFormat, path string) {
		writeInPlace(t, path, r.text("a", "b"))
	}},
}

// followedRows writes r's rows a, b and c to a file and returns its path
// and the file followed after its first reading.
func followedRows(t *testing.T, r rowFormat) (string, *followedFile) {
	t.Helper()
	path := filepath.Join(t.TempDir(), r.name)
	if err := os.WriteFile(path, []byte(r.text("a", "b", "c")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, followedAt(t, path)
}

// writeInPlace writes text over the file at path, truncated: the same
// file, as open(path, "w") leaves it.
func writeInPlace(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFollowRewrittenInPlaceWaited: a followed CSV or JSONL file that its
// run writes anew in place, caught with fewer rows than it had while it
// is still written (its last line without its line end, its
// modification time changing under the reading, or the rows written
// under a reading that found it emptied), is not read as a file
// of those fewer rows (the others would leave the dashboard and come
// back): it is read again at the next check, which finds it written and
// brings its new row (a CSV file grown, what was read of it there) or
// all its rows again (a JSONL file read from the start).
func TestFollowRewrittenInPlaceWaited(t *testing.T) {
	for _, r := range rowFormats {
		for _, caught := range rewrittenCatches {
			path, ff := followedRows(t, r)
			writeInPlace(t, path, caught.text(r))
			if caught.hook != nil {
				setAfterStat(t, func(path string) { caught.hook(t, r, path) })
			}
			if c := ff.check(Options{}); c.err != nil || c.res != nil || c.reloaded {
				t.Errorf("%s caught with %s: %v (reloaded %v), %v; want nothing, read again at the next check", r.name, caught.name, c.res, c.reloaded, c.err)
			}
			afterStat = nil
			writeInPlace(t, path, r.text("a", "b", "c", "d"))
			want, reloaded := []string{"d"}, false
			if r.name == "run.jsonl" {
				want, reloaded = []string{"a", "b", "c", "d"}, true
			}
			c := ff.check(Options{})
			if c.err != nil || c.res == nil || c.reloaded != reloaded || !slices.Equal(trajectoryIDs(c.res.Trajectories), want) {
				t.Errorf("%s written after caught with %s: %v (reloaded %v), %v; want %v (reloaded %v)", r.name, caught.name, c.res, c.reloaded, c.err, want, reloaded)
			}
		}
	}
}

// TestFollowShrankTaken: a followed CSV or JSONL file written anew with
// fewer rows, its last line ended, unchanged as it is read (a run
// restarted), is read again from the start at once, its rows those
// fewer.
func TestFollowShrankTaken(t *testing.T) {
	for _, r := range rowFormats {
		path, ff := followedRows(t, r)
		writeInPlace(t, path, r.text("a", "b"))
		c := ff.check(Options{})
		if c.err != nil || c.res == nil || !c.reloaded || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"a", "b"}) {
			t.Errorf("%s shrank: %v (reloaded %v), %v; want a and b, reloaded", r.name, c.res, c.reloaded, c.err)
		}
	}
}

// TestFollowRewrittenLeftUnendedTaken: a followed CSV or JSONL file
// written anew with fewer rows and left so, its last line without its
// line end, is taken as it is (reloaded with its complete rows) at the
// maxChangedReadings-th reading in a row, the readings before saying
// nothing.
func TestFollowRewrittenLeftUnendedTaken(t *testing.T) {
	for _, r := range rowFormats {
		path, ff := followedRows(t, r)
		writeInPlace(t, path, rewrittenCatches[0].text(r))
		for reading := 1; reading < maxChangedReadings; reading++ {
			if c := ff.check(Options{}); c.err != nil || c.res != nil || c.reloaded {
				t.Fatalf("%s left unended, reading %d: %v (reloaded %v), %v; want nothing until reading %d", r.name, reading, c.res, c.reloaded, c.err, maxChangedReadings)
			}
		}
		c := ff.check(Options{})
		if c.err != nil || c.res == nil || !c.reloaded || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"a", "b"}) {
			t.Errorf("%s left unended, reading %d: %v (reloaded %v), %v; want a and b, reloaded", r.name, maxChangedReadings, c.res, c.reloaded, c.err)
		}
	}
}

// malformedText returns r's text of rows ids after a malformed record
// (a CSV row of a cell more than the header's, a JSONL line cut short).
func malformedText(r rowFormat) func(ids ...string) string {
	malformed := "a,1,2\n"
	if r.name == "run.jsonl" {
		malformed = `{"id":"a",` + "\n"
	}
	return func(ids ...string) string { return r.header + malformed + strings.TrimPrefix(r.text(ids...), r.header) }
}

// followedMalformed writes malformedText(r) of rows b and c to a new
// file and follows it, its first reading done (the malformed record
// counted).
func followedMalformed(t *testing.T, r rowFormat) (string, *followedFile) {
	t.Helper()
	path := filepath.Join(t.TempDir(), r.name)
	writeInPlace(t, path, malformedText(r)("b", "c"))
	ff := &followedFile{path: path}
	t.Cleanup(ff.closeFile)
	if res, _, err := ff.load(Options{}, true, nil, nil, nil); err != nil || res.Skipped != 1 {
		t.Fatalf("%s: first reading: %v, %v; want its malformed record counted", r.name, res, err)
	}
	return path, ff
}

// TestFollowRewrittenInPlaceSkipsCountedOnce: a malformed record of a
// followed file, counted at its first reading, is not counted (nor said)
// again when the file, written anew in place as it was and grown, was
// caught half written before (emptied, for a CSV file read whole, or
// with fewer rows): the reading thrown away leaves the records counted,
// and what the next reading compares the file with, as they were.
func TestFollowRewrittenInPlaceSkipsCountedOnce(t *testing.T) {
	for _, r := range rowFormats {
		text := malformedText(r)
		caught := map[string]string{"fewer rows": text("b") + strings.TrimSuffix(r.row("c"), "\n")}
		if r.name == "run.csv" {
			caught["emptied"] = ""
		}
		for name, half := range caught {
			path, ff := followedMalformed(t, r)
			writeInPlace(t, path, half)
			if c := ff.check(Options{}); c.err != nil || c.res != nil {
				t.Errorf("%s caught %s: %v, %v; want nothing, read again at the next check", r.name, name, c.res, c.err)
			}
			writeInPlace(t, path, text("b", "c", "d"))
			c := ff.check(Options{})
			if c.err != nil || c.res == nil || c.res.Skipped != 0 || !slices.Contains(trajectoryIDs(c.res.Trajectories), "d") {
				t.Errorf("%s written after caught %s: %v, %v; want d, its malformed record not counted again", r.name, name, c.res, c.err)
			}
		}
	}
}

// TestFollowRewrittenAnewSkipsCountedAnew: a followed JSONL file written
// anew in place with other lines, caught half written, is compared, once
// written, with what was read of it before, not with the reading thrown
// away: its line too long to read (known by its place and fault alone)
// is another file's and is counted, and said, though the old file's line
// there was too long too.
func TestFollowRewrittenAnewSkipsCountedAnew(t *testing.T) {
	opts := Options{MaxRecordBytes: 64}
	long := func(id string, n int) string {
		return fmt.Sprintf(`{"id":%q,"pad":%q}`+"\n", id, strings.Repeat("y", n))
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	writeInPlace(t, path, `{"id":"a"}`+"\n"+long("l1", 120)+`{"id":"c"}`+"\n")
	ff := &followedFile{path: path}
	t.Cleanup(ff.closeFile)
	if res, _, err := ff.load(opts, true, nil, nil, nil); err != nil || res.Skipped != 1 {
		t.Fatalf("first reading: %v, %v; want its line too long counted", res, err)
	}
	// Shorter than the old file: a truncated file's records are not those
	// counted (one as large is an edit in place, which keeps them).
	anew := `{"id":"b"}` + "\n" + long("l2", 80) + `{"id":"d"}` + "\n"
	writeInPlace(t, path, anew[:len(`{"id":"b"}`)+4])
	if c := ff.check(opts); c.err != nil || c.res != nil {
		t.Fatalf("caught half written: %v, %v; want nothing, read again at the next check", c.res, c.err)
	}
	writeInPlace(t, path, anew)
	c := ff.check(opts)
	if c.err == nil || !strings.HasPrefix(c.err.Error(), path+":2: ") || c.res == nil || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"b", "d"}) {
		t.Errorf("written anew: %v, %v; want b and d, its line 2 too long said", c.res, c.err)
	}
}

// TestFollowFailedChangingSkipsCountedOnce: a malformed record of a
// followed CSV or JSONL file, counted at its first reading, is not
// counted (nor said) again when its run replaced the file by a new one
// (renamed over it), read from the start as it changed and failing (its
// start not yet written: NUL bytes, binary data), then wrote it whole as
// it was: the reading thrown away leaves the records counted, and how
// far the file was read, which the file is compared with, as they were.
// The rows come, then those added after them, once each.
func TestFollowFailedChangingSkipsCountedOnce(t *testing.T) {
	for _, r := range rowFormats {
		text := malformedText(r)
		path, ff := followedMalformed(t, r)
		// Another file: the offset and hash of the part read decide
		// whether it holds the records counted.
		renameOver(t, path, "\x00\x00\x00\n\x00\x00\x00\n")
		setAfterStat(t, func(path string) {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(path, later, later); err != nil {
				t.Error(err)
			}
		})
		if c := ff.check(Options{}); c.err != nil || c.res != nil {
			t.Errorf("%s read failing as it changed: %v, %v; want nothing, read again at the next check", r.name, c.res, c.err)
		}
		afterStat = nil
		writeInPlace(t, path, text("b", "c"))
		c := ff.check(Options{})
		if c.err != nil || c.res == nil || c.res.Skipped != 0 || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"b", "c"}) {
			t.Errorf("%s written anew: %v, %v; want b and c, its malformed record not counted again", r.name, c.res, c.err)
		}
		appendText(t, path, r.row("d"))
		c = ff.check(Options{})
		if c.err != nil || c.res == nil || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"d"}) {
			t.Errorf("%s grown: %v, %v; want d alone", r.name, c.res, c.err)
		}
	}
}

// TestFollowHalfWrittenThenChangingSaid: a followed CSV or JSONL file
// whose last maxChangedReadings readings were thrown away, some as it
// changed under them and the others as they found it half written (its
// last line without its line end, unchanged under the reading), the last
// failing as it changed, is said with how many did each: not as changed
// under each of them. Once read whole, the count starts again: its next
// maxChangedReadings readings, each failing as it changed, are said as
// such.
func TestFollowHalfWrittenThenChangingSaid(t *testing.T) {
	const changing = 4 // the first 3 readings and the last
	for _, r := range rowFormats {
		path, ff := followedRows(t, r)
		for reading := 1; reading <= maxChangedReadings; reading++ {
			switch {
			case reading < changing:
				writeInPlace(t, path, r.text("a", "b"))
				setAfterStat(t, func(path string) {
					later := time.Now().Add(time.Duration(reading) * time.Hour)
					if err := os.Chtimes(path, later, later); err != nil {
						t.Error(err)
					}
				})
			case reading < maxChangedReadings:
				afterStat = nil
				writeInPlace(t, path, rewrittenCatches[0].text(r))
			default: // its start not yet written as it is read
				setAfterStat(t, func(path string) { writeInPlace(t, path, "\x00\x00\x00\n\x00\x00\x00\n") })
			}
			c := ff.check(Options{})
			if reading < maxChangedReadings && (c.err != nil || c.res != nil) {
				t.Fatalf("%s, reading %d: %v, %v; want nothing until reading %d", r.name, reading, c.res, c.err, maxChangedReadings)
			}
			if reading < maxChangedReadings {
				continue
			}
			want := fmt.Sprintf("%s: not read: of its last %d readings, %d found it changing under them and %d found it half written (fewer rows than it had, or failing, as a run writing it anew in place leaves it), the last failing (", path, maxChangedReadings, changing, maxChangedReadings-changing)
			if c.err == nil || !strings.HasPrefix(c.err.Error(), want) {
				t.Errorf("%s, reading %d: %v; want %s...", r.name, reading, c.err, want)
			}
		}
		afterStat = nil
		writeInPlace(t, path, r.text("a", "b", "c", "d"))
		if c := ff.check(Options{}); c.err != nil || c.res == nil {
			t.Fatalf("%s written whole: %v, %v; want it read", r.name, c.res, c.err)
		}
		writeInPlace(t, path, r.text("e", "d", "c", "b", "a")) // read from the start
		var said []string
		for reading := 1; reading <= maxChangedReadings; reading++ {
			// A size of its own each time: a change whatever the clock's
			// granularity.
			setAfterStat(t, func(path string) { writeInPlace(t, path, strings.Repeat("\x00\n", reading+1)) })
			if c := ff.check(Options{}); c.err != nil {
				said = append(said, c.err.Error())
			}
		}
		want := fmt.Sprintf("%s: not read: it changed while each of its last %d readings read it, the last failing (", path, maxChangedReadings)
		if len(said) != 1 || !strings.HasPrefix(said[0], want) {
			t.Errorf("%s changing under each reading after: said %q; want once: %s...", r.name, said, want)
		}
		afterStat = nil
	}
}
