package loaders

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// countTextReadings counts, until the test ends, the readings of an
// input's text (openText) and the bytes they read.
func countTextReadings(t *testing.T) (readings, bytes *atomic.Int64) {
	readings, bytes = &atomic.Int64{}, &atomic.Int64{}
	t.Cleanup(func() { openText = input.Open })
	openText = func(r io.Reader) (input.Opened, error) {
		readings.Add(1)
		return input.Open(readerFunc(func(p []byte) (int, error) {
			n, err := r.Read(p)
			bytes.Add(int64(n))
			return n, err
		}))
	}
	return readings, bytes
}

// TestFollowJSONReadOnce: a check that finds a followed JSON array or
// W&B table changed, plain or gzipped, reads its text once, whole,
// whether it is cut short (left out) or complete (read).
func TestFollowJSONReadOnce(t *testing.T) {
	const array = `[{"id":"a","metadata":{"acc":1}},{"id":"b","metadata":{"acc":0}}]`
	const table = `{"columns":["id","acc"],"data":[["a",1],["b",0]]}`
	for _, c := range []struct {
		name  string
		whole string
		zip   bool
	}{
		{"run.json", array, false},
		{"run.json.gz", array, true},
		{"run.table.json", table, false},
		{"run.table.json.gz", table, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.name)
			save := func(text string) int64 {
				data := []byte(text)
				if c.zip {
					data = gzipped(text)
				}
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				return int64(len(data))
			}
			save(c.whole[:len(c.whole)/2])
			ff := &followedFile{path: path}
			if _, _, err := ff.load(Options{}, true, nil, nil, nil); err != nil {
				t.Fatal(err)
			}
			readings, read := countTextReadings(t)
			for _, text := range []string{c.whole[:len(c.whole)-3], c.whole} {
				size := save(text)
				readings.Store(0)
				read.Store(0)
				ch := ff.check(Options{})
				if ch.err != nil {
					t.Fatalf("%q: %v", text, ch.err)
				}
				if readings.Load() != 1 || read.Load() != size {
					t.Errorf("%q: %d readings of its text, %d bytes read; want 1 of all its %d", text, readings.Load(), read.Load(), size)
				}
			}
			if ff.count != 2 {
				t.Errorf("completed: %d rows, want 2", ff.count)
			}
		})
	}
}

// TestFollowJSONCutShortAsChecked: a followed JSON array or W&B table,
// plain or gzipped, cut at each of its bytes, is found cut short by its
// reading exactly when jsonCutShort, the check that Load makes of a
// directory's newest file before reading it, finds it so; any other
// reading of it gives its rows or its error.
func TestFollowJSONCutShortAsChecked(t *testing.T) {
	for _, c := range []struct{ name, whole string }{
		{"run.json", "[\n{\"id\":\"a\",\"response\":\"x\\\"]}\",\"metadata\":{\"acc\":1}},\n5,\n{\"id\":\"b\",\"metadata\":{\"acc\":NaN}}\n]\n"},
		{"run.table.json", `{"columns": ["id", "acc"], "data": [["a", 1], ["b]", 0]]}` + "\n"},
	} {
		for _, zip := range []bool{false, true} {
			data := []byte(c.whole)
			name := c.name
			if zip {
				data, name = gzipped(c.whole), name+".gz"
			}
			path := filepath.Join(t.TempDir(), name)
			for cut := 1; cut <= len(data); cut++ {
				if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
					t.Fatal(err)
				}
				ff := &followedFile{path: path}
				res, _, err := ff.load(Options{}, true, nil, nil, nil)
				want := jsonCutShort(func() io.Reader { return bytes.NewReader(data[:cut]) }, int64(cut))
				if got := err == nil && len(res.Unfinished) == 1; got != want {
					t.Errorf("%s cut at %d: left out %t (error %v), want %t", name, cut, got, err, want)
				}
			}
		}
	}
}

// TestFollowJSONCutShortSkipsLater: the records a reading of a JSON array
// cut short skipped are said by the reading that delivers them, once the
// array is complete, not counted by the one that left it out.
func TestFollowJSONCutShortSkipsLater(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	const whole = `[5, {"id":"a","metadata":{"acc":1}}]`
	if err := os.WriteFile(path, []byte(whole[:10]), 0o644); err != nil {
		t.Fatal(err)
	}
	ff := &followedFile{path: path}
	res, _, err := ff.load(Options{}, true, nil, nil, nil)
	if err != nil || len(res.Unfinished) != 1 {
		t.Fatalf("cut short: unfinished %v, error %v; want it left out", res, err)
	}
	if err := os.WriteFile(path, []byte(whole), 0o644); err != nil {
		t.Fatal(err)
	}
	c := ff.check(Options{})
	if c.res == nil || len(c.res.Trajectories) != 1 || c.err == nil || !strings.Contains(c.err.Error(), path+":1:2:") {
		t.Errorf("completed: %+v, error %v; want its row and the element skipped at %s:1:2", c.res, c.err, path)
	}
}

// TestLoadNewestJSONReadings: Load opens the text of a directory's
// newest JSON array, complete, plain or gzipped, larger than the peek
// buffer, twice: the peek that finds its format (at most
// input.BufferSize of it), then the reading, which tells whether it is
// cut short; no check before the reading reads it a third time.
func TestLoadNewestJSONReadings(t *testing.T) {
	var array strings.Builder
	array.WriteString("[")
	for i := range 4000 {
		if i > 0 {
			array.WriteString(",")
		}
		id := fmt.Sprintf("%x", sha256.Sum256([]byte(strconv.Itoa(i)))) // compresses little
		fmt.Fprintf(&array, `{"id":%q,"metadata":{"acc":%d}}`, id, i%2)
	}
	array.WriteString("]")
	for _, zip := range []bool{false, true} {
		dir := t.TempDir()
		data, name := []byte(array.String()), "run.json"
		if zip {
			data, name = gzipped(array.String()), name+".gz"
		}
		if len(data) <= 2*input.BufferSize {
			t.Fatalf("%s: %d bytes, not larger than two peeks (%d)", name, len(data), 2*input.BufferSize)
		}
		writeFile(t, dir, name, data)
		readings, read := countTextReadings(t)
		res, err := Load([]string{dir}, Options{})
		if err != nil || len(res.Trajectories) != 4000 {
			t.Fatalf("%s: %v", name, err)
		}
		if readings.Load() != 2 || read.Load() < int64(len(data)) || read.Load() > int64(len(data)+input.BufferSize) {
			t.Errorf("%s: %d openings of its text, %d bytes read; want 2: a peek of at most %d bytes, then all its %d", name, readings.Load(), read.Load(), input.BufferSize, len(data))
		}
	}
}

// TestLoadNewestJSONReadOnce: Load reads a directory's newest file, a
// JSON array or W&B table, plain or gzipped, once: its reading, not a
// check before it, tells that it is cut short (then left out, as the
// check would have left it). Its text is read once, but for the peek that
// finds its format (at most input.BufferSize of it more). Stream, which
// hands rows on as it reads them, still checks first.
func TestLoadNewestJSONReadOnce(t *testing.T) {
	var array, table strings.Builder
	array.WriteString("[")
	table.WriteString(`{"columns":["id","acc"],"data":[`)
	for i := range 20000 {
		if i > 0 {
			array.WriteString(",")
			table.WriteString(",")
		}
		id := fmt.Sprintf("%x", sha256.Sum256([]byte(strconv.Itoa(i)))) // compresses little
		fmt.Fprintf(&array, `{"id":%q,"metadata":{"acc":%d}}`, id, i%2)
		fmt.Fprintf(&table, `[%q,%d]`, id, i%2)
	}
	array.WriteString("]")
	table.WriteString("]}")
	for _, c := range []struct {
		name, whole string
		zip         bool
	}{
		{"step_2.json", array.String(), false},
		{"step_2.json.gz", array.String(), true},
		{"step_2.table.json.gz", table.String(), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeText(t, filepath.Join(dir, "step_1.jsonl"), `{"id":"a","metadata":{"acc":1}}`+"\n")
			path := filepath.Join(dir, c.name)
			for _, text := range []string{c.whole, c.whole[:len(c.whole)-2]} {
				data := []byte(text)
				if c.zip {
					data = gzipped(text)
				}
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				readings, read := countTextReadings(t)
				res, err := Load([]string{dir}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				complete := text == c.whole
				switch {
				case complete && (len(res.Trajectories) != 20001 || len(res.Unfinished) != 0):
					t.Errorf("complete: %d trajectories, unfinished %v", len(res.Trajectories), res.Unfinished)
				case !complete && (len(res.Trajectories) != 1 || len(res.Unfinished) != 1 || res.Unfinished[0].Reason != reasonJSONCut):
					t.Errorf("cut short: %d trajectories, unfinished %v; want the older file's, the newest left out", len(res.Trajectories), res.Unfinished)
				}
				// The older file's text, the newest's peek, then its reading.
				if complete && read.Load() > int64(len(`{"id":"a","metadata":{"acc":1}}`+"\n")+input.BufferSize+len(data)) {
					t.Errorf("complete: %d readings of the texts, %d bytes read; want the newest's %d once, and a peek", readings.Load(), read.Load(), len(data))
				}
			}
		})
	}
}
