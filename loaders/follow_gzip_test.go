package loaders

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// gzipRun writes a gzipped file as a run does: through compress/gzip,
// each save appending to the file the bytes written since the last.
type gzipRun struct {
	t     *testing.T
	path  string
	buf   bytes.Buffer
	zw    *gzip.Writer
	saved int
}

func newGzipRun(t *testing.T, name string) *gzipRun {
	t.Helper()
	r := &gzipRun{t: t, path: filepath.Join(t.TempDir(), name)}
	if err := os.WriteFile(r.path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// write writes text to the member being written, a new one when the last
// was closed.
func (r *gzipRun) write(text string) {
	if r.zw == nil {
		r.zw = gzip.NewWriter(&r.buf)
	}
	if _, err := r.zw.Write([]byte(text)); err != nil {
		r.t.Fatal(err)
	}
}

// flush flushes the member being written (gzip.Writer.Flush), and saves.
func (r *gzipRun) flush() {
	if err := r.zw.Flush(); err != nil {
		r.t.Fatal(err)
	}
	r.save()
}

// close ends the member being written (its checksum and size), and saves.
func (r *gzipRun) close() {
	if err := r.zw.Close(); err != nil {
		r.t.Fatal(err)
	}
	r.zw = nil
	r.save()
}

func (r *gzipRun) save() {
	appendText(r.t, r.path, r.buf.String()[r.saved:])
	r.saved = r.buf.Len()
}

// gzipStep is what a run does to its file, then what a check of the
// followed file must bring: the IDs of the rows, and the line left
// unended (0 for none).
type gzipStep struct {
	do      func(r *gzipRun)
	ids     []string
	unended int
}

// TestFollowGzipCutMidStream: a followed gzipped JSONL or CSV file whose
// gzip stream is cut short, as its run writes it through compress/gzip
// (a member flushed with Flush, or closed and another appended), is read
// to its last row end, no error, the rest waiting (its line unended), as
// an uncompressed file's last line does; each check of it grown brings
// the rows after those read before, none twice nor lost, never said
// reloaded.
func TestFollowGzipCutMidStream(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps []gzipStep
	}{
		{"run.jsonl.gz", []gzipStep{
			{func(r *gzipRun) { r.write(`{"id":"a"}` + "\n" + `{"id":"b"}` + "\n" + `{"id":"c`); r.flush() }, []string{"a", "b"}, 3},
			{func(r *gzipRun) { r.write(`"}` + "\n" + `{"id":"d"}` + "\n"); r.flush() }, []string{"c", "d"}, 0},
			{func(r *gzipRun) { r.write(`{"id":"e"}` + "\n"); r.close() }, []string{"e"}, 0},
			// A member appended (gzip.open(path, "at")), flushed
			// mid-line, then closed.
			{func(r *gzipRun) { r.write(`{"id":"f"}` + "\n" + `{"id"`); r.flush() }, []string{"f"}, 7},
			{func(r *gzipRun) { r.write(`:"g"}` + "\n"); r.close() }, []string{"g"}, 0},
		}},
		{"run.csv.gz", []gzipStep{
			// Cut within a quoted field that holds a line end.
			{func(r *gzipRun) { r.write("id,note\na,\"x\"\nb,\"one\ntw"); r.flush() }, []string{"a"}, 3},
			{func(r *gzipRun) { r.write("o\"\nc,z\n"); r.close() }, []string{"b", "c"}, 0},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newGzipRun(t, c.name)
			ff := &followedFile{path: r.path}
			t.Cleanup(ff.closeFile)
			for i, step := range c.steps {
				step.do(r)
				var ids []string
				var err error
				reloaded := false
				if i == 0 {
					var res *Result
					if res, _, err = ff.load(Options{}, true, nil, nil, nil); res != nil {
						ids = trajectoryIDs(res.Trajectories)
					}
				} else {
					ch := ff.check(Options{})
					if ch.res != nil {
						ids = trajectoryIDs(ch.res.Trajectories)
					}
					err, reloaded = ch.err, ch.reloaded
				}
				if err != nil || reloaded || !slices.Equal(ids, step.ids) {
					t.Fatalf("step %d: read %v (reloaded %v), %v; want %v, no error", i, ids, reloaded, err, step.ids)
				}
				if ff.unended.Line != step.unended {
					t.Errorf("step %d: line %d unended, want %d", i, ff.unended.Line, step.unended)
				}
			}
		})
	}
}

// TestFollowGzipNoRowYet: a followed gzipped file whose stream is cut
// before its first row ends, or within its gzip header, has no rows yet,
// no error: its rows come as it grows.
func TestFollowGzipNoRowYet(t *testing.T) {
	for name, headerCut := range map[string]bool{"a partial line": false, "a header cut short": true} {
		t.Run(name, func(t *testing.T) {
			r := newGzipRun(t, "run.jsonl.gz")
			if headerCut {
				// A member written whole, the file holding 4 bytes of
				// its 10-byte header so far.
				r.write(`{"id":"a"}` + "\n")
				if err := r.zw.Close(); err != nil {
					t.Fatal(err)
				}
				r.zw = nil
				appendText(t, r.path, r.buf.String()[:4])
				r.saved = 4
			} else {
				r.write(`{"id":`)
				r.flush()
			}
			ff := &followedFile{path: r.path}
			t.Cleanup(ff.closeFile)
			if res, _, err := ff.load(Options{}, true, nil, nil, nil); err != nil || len(res.Trajectories) != 0 {
				t.Fatalf("first reading: %v, %v; want no rows, no error", res, err)
			}
			if headerCut {
				r.save()
			} else {
				r.write(`"a"}` + "\n")
				r.close()
			}
			c := ff.check(Options{})
			if c.err != nil || c.res == nil || !slices.Equal(trajectoryIDs(c.res.Trajectories), []string{"a"}) {
				t.Fatalf("grown: %v, %v; want the row a", c.res, c.err)
			}
		})
	}
}

// TestFollowGzipCorrupt: a followed gzipped file that is corrupt, not
// cut short (a bad gzip header, a complete member whose checksum is
// wrong), is an error naming it, and the line for a bad checksum.
func TestFollowGzipCorrupt(t *testing.T) {
	good := gzipped(`{"id":"a"}` + "\n" + `{"id":"b"}` + "\n")
	badSum := slices.Clone(good)
	badSum[len(badSum)-5] ^= 0xff // the CRC-32, before the size
	badHeader := slices.Clone(good)
	badHeader[2] = 7 // a compression method that is not deflate
	for name, c := range map[string]struct {
		content []byte
		err     error
		where   string
	}{
		"bad checksum": {badSum, gzip.ErrChecksum, "run.jsonl.gz:3: "},
		"bad header":   {badHeader, gzip.ErrHeader, "run.jsonl.gz: "},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.jsonl.gz")
			if err := os.WriteFile(path, c.content, 0o644); err != nil {
				t.Fatal(err)
			}
			ff := &followedFile{path: path}
			t.Cleanup(ff.closeFile)
			_, _, err := ff.load(Options{}, true, nil, nil, nil)
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.where) {
				t.Fatalf("error %v, want %v at %q", err, c.err, c.where)
			}
		})
	}
}

// TestHeldTextBoundsALongLine: the text held back after the last line
// end of a followed gzip stream is given to the reader once it is longer
// than the longest record (for the reader to reject): a line without end
// of megabytes (a gzip bomb), the stream then cut, is never held whole.
func TestHeldTextBoundsALongLine(t *testing.T) {
	const maxRecord = 64 << 10
	long := strings.Repeat("x", 4<<20)
	text := io.MultiReader(strings.NewReader(`{"id":"a"}`+"\n"+long), iotest.ErrReader(io.ErrUnexpectedEOF))
	h := newHeldText(text, JSONL, maxRecord)
	n, err := io.Copy(io.Discard, h)
	if given := n - int64(len(`{"id":"a"}`+"\n")); err != nil || given < int64(len(long))-maxRecord {
		t.Fatalf("read %d bytes, %v; want the long line given out, but for at most %d bytes held at the cut", n, err, maxRecord)
	}
	if limit := 4 * maxRecord; cap(h.buf) > limit {
		t.Errorf("held up to %d bytes, want at most %d", cap(h.buf), limit)
	}
	if line, bytes := h.unended(); line != 2 || bytes != int64(len(long)) {
		t.Errorf("unended line %d of %d bytes, want line 2 of %d", line, bytes, len(long))
	}
}

// TestPeekGzipCutShort: Peek, which the layouts' wait for a followed
// file's first record calls, finds nothing to tell yet, no error, in a
// gzipped file named itself whose gzip stream is cut short before its
// first line ends or within its header, as the follower reads it; and
// the first record once its line ends, the stream still cut.
func TestPeekGzipCutShort(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(r *gzipRun)
		names []string // nil: nothing to tell yet
	}{
		{"a partial first line", func(r *gzipRun) { r.write(`{"input":"q",`); r.flush() }, nil},
		{"a header cut short", func(r *gzipRun) {
			r.write(`{"input":"q"}` + "\n")
			r.flush()
			if err := os.Truncate(r.path, 4); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"a first line ended", func(r *gzipRun) { r.write(`{"input":"q","score":1}` + "\n" + `{"inp`); r.flush() }, []string{"input", "score"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newGzipRun(t, "run.jsonl.gz")
			c.write(r)
			files, err := Peek([]string{r.path}, Options{})
			if err != nil {
				t.Fatalf("error %v, want none", err)
			}
			var names []string
			if len(files) > 0 {
				names = files[0].Names
			}
			if !slices.Equal(names, c.names) {
				t.Errorf("told %v (%d files), want %v", names, len(files), c.names)
			}
		})
	}
}

// TestFollowGzipGrowing: Follow of a gzipped JSONL file its run writes
// through compress/gzip, first cut short mid-line, delivers its rows as
// its stream goes on, each once, in order, never reloaded nor an error.
func TestFollowGzipGrowing(t *testing.T) {
	r := newGzipRun(t, "run.jsonl.gz")
	r.write(idLines("a", 3) + `{"id":"b`)
	r.flush()
	ctx, cancel := context.WithCancel(context.Background())
	res, ch, err := Follow(ctx, []string{r.path}, followOptions(false))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	defer func() {
		cancel()
		for range ch {
		}
	}()
	f := newFollowed(res)
	if !slices.Equal(f.ids[r.path], ids("a", 3)) {
		t.Fatalf("first reading: %v, want %v", f.ids[r.path], ids("a", 3))
	}
	r.write(`0"}` + "\n")
	r.close()
	r.write(idLines("c", 2))
	r.flush()
	want := append(append(ids("a", 3), "b0"), ids("c", 2)...)
	f.await(t, ch, "grown", func() bool { return len(f.ids[r.path]) >= len(want) })
	if !slices.Equal(f.ids[r.path], want) || len(f.errs) != 0 || len(f.reloaded) != 0 {
		t.Errorf("read %v (errors %v, reloaded %v), want %v", f.ids[r.path], f.errs, f.reloaded, want)
	}
}
