package loaders

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testfile"
)

// liveDir is the fixture of a live run's directory (testdata/live/README.md).
func liveDir(name string) string { return filepath.Join("testdata", "live", name) }

// idBatches returns the IDs of res's trajectories, in order, and each one's
// batch: "ID/BATCH".
func idBatches(res *Result) []string {
	var out []string
	for _, t := range res.Trajectories {
		out = append(out, fmt.Sprintf("%s/%d", t.ID, t.Batch))
	}
	return out
}

// TestLoadUnfinishedNewestFile: the newest file of a directory (the last
// in natural order: step_10 after step_2) is read without its last line
// when that line has no line end and is not a record yet, or left out
// when it is empty or a Parquet file without its footer, with or without
// SkipInvalid: the trajectories of the other files and the complete
// lines, and a warning naming the file, nothing skipped.
func TestLoadUnfinishedNewestFile(t *testing.T) {
	const tail = " (the newest file of its directory: its run is probably still writing it)"
	parquetIDs := func() []string {
		// completions_00001 and 00002 of the TRL sample: 12 rows each,
		// named by their position in their file.
		var out []string
		for b := range 2 {
			for i := range 12 {
				out = append(out, fmt.Sprintf("%d/%d", i, b))
			}
		}
		return out
	}()
	for _, c := range []struct {
		dir     string
		ids     []string
		warning string
	}{
		{"jsonl", []string{"1a/0", "1b/0", "2a/1", "2b/1", "10a/2"},
			"step_10.jsonl: last line left out: no line end, and not complete JSON" + tail},
		{"csv", []string{"1a/0", "1b/0", "2a/1"},
			"step_2.csv: last line left out: no line end, and not a complete CSV row" + tail},
		{"parquet", parquetIDs,
			"completions_00003.parquet: left out: no Parquet footer yet" + tail},
		{"empty", []string{"1a/0"},
			"step_2.parquet: left out: empty" + tail},
		{"json", []string{"1a/0", "1b/0"},
			"step_2.json: left out: its JSON ends before its value does" + tail},
		{"wandb", []string{"1a/0", "1b/0"},
			"step_2.table.json: left out: its JSON ends before its value does" + tail},
		// A complete last line without its line end is read, NaN and all.
		{"jsonl-last-complete", []string{"1a/0", "2a/1", "2b/1"}, ""},
	} {
		for _, skip := range []bool{false, true} {
			res, err := Load([]string{liveDir(c.dir)}, Options{SkipInvalid: skip})
			if err != nil {
				t.Errorf("%s (skip %t): %v", c.dir, skip, err)
				continue
			}
			if got := idBatches(res); !slices.Equal(got, c.ids) {
				t.Errorf("%s (skip %t): trajectories %q, want %q", c.dir, skip, got, c.ids)
			}
			var warnings []string
			for _, u := range res.Unfinished {
				warnings = append(warnings, u.String())
			}
			want := []string{filepath.Join(liveDir(c.dir), c.warning)}
			if c.warning == "" {
				want = nil
			}
			if !slices.Equal(warnings, want) || res.Skipped != 0 {
				t.Errorf("%s (skip %t): warnings %q, %d skipped; want %q, none", c.dir, skip, warnings, res.Skipped, want)
			}
		}
	}
}

// TestLoadUnfinishedStreams: Stream hands over the complete lines of the
// newest file only, and they can be read again by offset.
func TestLoadUnfinishedStreams(t *testing.T) {
	var got []string
	var kept []scoring.Trajectory
	res, err := Stream([]string{liveDir("jsonl")}, Options{}, func(ts []scoring.Trajectory) error {
		for _, t := range ts {
			got = append(got, t.ID)
			t.Metadata = nil
			kept = append(kept, t)
		}
		return nil
	})
	if err != nil || len(res.Unfinished) != 1 {
		t.Fatalf("error %v, unfinished %v", err, res)
	}
	if want := []string{"1a", "1b", "2a", "2b", "10a"}; !slices.Equal(got, want) {
		t.Errorf("streamed %q, want %q", got, want)
	}
	last := kept[len(kept)-1]
	again, err := Reread(&last, nil)
	if err != nil || again.Metadata["acc"] != 0.25 {
		t.Errorf("read again: %v, %v", again.Metadata, err)
	}
}

// TestLoadUnfinishedOnlyNewest: the newest file stays an error when it is
// not the last of a directory: a broken file that is not the newest, and
// a file named on the command line, however unfinished it looks.
func TestLoadUnfinishedOnlyNewest(t *testing.T) {
	for _, skip := range []bool{false, true} {
		_, err := Load([]string{liveDir("broken-older")}, Options{SkipInvalid: skip})
		bad := filepath.Join(liveDir("broken-older"), "step_1.jsonl")
		if !skip {
			if err == nil || !strings.HasPrefix(err.Error(), bad+":2:") {
				t.Errorf("a broken older file: error %v, want one at %s:2", err, bad)
			}
		} else if err != nil {
			t.Errorf("a broken older file, skipping: %v", err)
		}
		named := filepath.Join(liveDir("jsonl"), "step_10.jsonl")
		if res, err := Load([]string{named}, Options{SkipInvalid: skip}); !skip && (err == nil || !strings.HasPrefix(err.Error(), named+":2:")) {
			t.Errorf("a file named: error %v, want one at %s:2", err, named)
		} else if skip && (err != nil || res.Skipped != 1 || len(res.Unfinished) != 0) {
			t.Errorf("a file named, skipping: %v, %+v", err, res)
		}
	}
	// A JSON array cut short that is not the newest, and the newest whose
	// syntax error comes before its cut end, say where.
	for dir, want := range map[string]string{
		"json-older":  "step_1.json:2:28: invalid JSON: unexpected end of input",
		"json-syntax": "step_2.json:2:2: invalid JSON: expected comma after array element",
	} {
		for _, skip := range []bool{false, true} {
			if _, err := Load([]string{liveDir(dir)}, Options{SkipInvalid: skip}); err == nil || err.Error() != filepath.Join(liveDir(dir), want) {
				t.Errorf("%s (skip %t): error %v, want %s", dir, skip, err, filepath.Join(liveDir(dir), want))
			}
		}
	}
	res, err := Load([]string{liveDir("broken-older")}, Options{SkipInvalid: true})
	if err == nil && (res.Skipped != 1 || len(res.Unfinished) != 0 || !slices.Equal(idBatches(res), []string{"1a/0", "2a/1"})) {
		t.Errorf("a broken older file, skipping: %d skipped, %v unfinished, %q", res.Skipped, res.Unfinished, idBatches(res))
	}
}

// TestLoadUnfinishedNothingElse: a directory whose only file is unfinished
// has no trajectories yet, an error that says why.
func TestLoadUnfinishedNothingElse(t *testing.T) {
	_, err := Load([]string{liveDir("only-unfinished")}, Options{SkipInvalid: true})
	want := "no trajectories yet: " + filepath.Join(liveDir("only-unfinished"), "run.jsonl") + ": left out: its only line has no line end, and is not complete JSON"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %q...", err, want)
	}
}

// TestLiveSpan: which ends of a newest file are unfinished, format by
// format; the limit is what Load reads of it.
func TestLiveSpan(t *testing.T) {
	par, err := os.ReadFile(filepath.Join(liveDir("parquet"), "completions_00001.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		format     Format
		limit      int64 // -1: left out whole
		reason     string
	}{
		{"a.jsonl", "{}\n{\"a\":", "", 3, reasonJSONLine},
		{"a.jsonl", "{}\n{\"a\":1}", "", 10, ""},
		{"a.jsonl", "{}\n{\"a\":-Infinity}  ", "", 20, ""},
		{"a.jsonl", "{}\n{\"a\":1}\n", "", 11, ""},
		{"a.jsonl", "{}\n   ", "", 6, ""},
		{"a.jsonl", "\xef\xbb\xbf{\"a\"", "", -1, reasonOnlyLine},
		{"a.jsonl", "\xef\xbb\xbf{\"a\":1}", "", 10, ""},
		{"a.jsonl", "{}\n{\"a\"", "", 3, reasonJSONLine},
		{"a.txt", "{}\n{\"a\"", JSONL, 3, reasonJSONLine},
		{"a.txt", "{}\n{\"a\"", "", 3, reasonJSONLine}, // JSONL by its content
		{"a.csv", "id,x\n1,2\n3", "", 9, reasonCSVRow},
		{"a.csv", "id,x\n1,2\n3,\"4", "", 9, reasonCSVRow},
		{"a.csv", "id,x\n1,2\n3,4", "", 12, ""},
		{"a.csv", "id,x", "", 4, ""}, // the header alone: read, to fail
		{"a.json", "[{}", "", -1, reasonJSONCut},
		{"a.json", "[{}]", "", 4, ""},
		{"a.json", "  [{\"a\":\"x]}", "", -1, reasonJSONCut}, // in a string
		{"a.json", "[{\"a\":\"x\\", "", -1, reasonJSONCut},   // in an escape
		{"a.json", "[{\"a\":NaN},{\"b\":-Infinity", "", -1, reasonJSONCut},
		{"a.json", "[{\"a\":\"\\\"]}]", "", -1, reasonJSONCut}, // an escaped quote: in the string still
		{"a.json", "[{\"a\":\"\\\\\"}]", "", 12, ""},           // an escaped backslash, then the string's end
		{"a.json", "[{\"a\":1}x,{", "", 11, ""},                // a syntax error before the end: read, to fail
		{"a.json", "[{\"a\":1}] [", "", 11, ""},                // a value complete, then more: read, to fail
		{"a.json", "[{\"a\":1}]]", "", 10, ""},                 // a bracket too many
		{"a.txt", "\xef\xbb\xbf[{}", "", -1, reasonJSONCut},    // JSON by its content
		{"a.table.json", "{\"columns\":[\"a\"],\"data\":[[1],[", "", -1, reasonJSONCut},
		{"a.table.json", "{\"columns\":[\"a\"],\"data\":[[1]]}", "", 30, ""},
		{"a.parquet", "", "", -1, reasonEmpty},
		{"a.jsonl", "", "", -1, reasonEmpty},
		{"a.parquet", "PA", "", -1, reasonNoFooter},
		{"a.parquet", string(par[:len(par)-1]), "", -1, reasonNoFooter},
		{"a.parquet", string(par), "", int64(len(par)), ""},
		{"a.parquet", "not parquet at all", "", 18, ""}, // read, to fail
	} {
		path := writeFile(t, t.TempDir(), c.name, []byte(c.text))
		limit, textLimit, format, u, err := liveSpan(path, Options{Format: c.format}, false)
		reason := ""
		if u != nil {
			reason = u.Reason
			if u.Whole {
				limit = -1
			}
		}
		if err != nil || limit != c.limit || textLimit != -1 || reason != c.reason {
			t.Errorf("%s %q: limit %d, reason %q, error %v; want %d, %q", c.name, c.text, limit, reason, err, c.limit, c.reason)
		}
		// The format handed to the reading is the one it would find.
		if want := pathFormat(path, c.format); limit >= 0 && format != want {
			t.Errorf("%s %q: format %q, the reading's %q", c.name, c.text, format, want)
		}
	}
}

// TestFollowParquetWithoutFooter: a followed Parquet file without its
// footer yet has no trajectories yet, a warning of the first reading
// (Result.Unfinished) rather than an error; once the writer completes
// it, it is read whole.
func TestFollowParquetWithoutFooter(t *testing.T) {
	defer goleak.VerifyNone(t)
	whole, err := os.ReadFile(filepath.Join(liveDir("parquet"), "completions_00002.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, dir, "completions_00001.parquet", whole)
	path := writeFile(t, dir, "completions_00002.parquet", whole[:len(whole)/2])
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, ch, err := Follow(ctx, []string{dir}, followOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	want := path + ": left out: no Parquet footer yet (its run is probably still writing it: read when it changes)"
	if len(res.Unfinished) != 1 || res.Unfinished[0].String() != want || len(res.Trajectories) != 12 {
		t.Fatalf("first reading: %d trajectories, unfinished %v; want 12 and %q", len(res.Trajectories), res.Unfinished, want)
	}
	f := newFollowed(res)
	testfile.Append(t, path, string(whole[len(whole)/2:]))
	f.await(t, ch, "the completed file", func() bool { return len(f.ids[path]) == 12 })
	cancel()
	for range ch {
	}
	if len(f.errs) > 0 {
		t.Errorf("errors: %v", f.errs)
	}
}

// gzipParts returns parts gzipped: the stream flushed after each of parts
// but the last, and cut short (no end: its run still writing it) when
// cut, else closed.
func gzipParts(t *testing.T, cut bool, parts ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for i, p := range parts {
		if _, err := zw.Write([]byte(p)); err != nil {
			t.Fatal(err)
		}
		if i < len(parts)-1 || cut {
			if err := zw.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !cut {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// TestLiveSpanGzip: a gzipped newest file is judged on its text, as the
// file uncompressed would be; a gzip stream cut short ends its text where
// it was cut, read up to its last complete line (textLimit, in bytes of
// the text past a byte order mark).
func TestLiveSpanGzip(t *testing.T) {
	for _, c := range []struct {
		name      string
		cut       bool
		parts     []string
		textLimit int64 // -1: all; with a reason and no limit: left out whole
		reason    string
		whole     bool
	}{
		{"a.jsonl.gz", false, []string{"{}\n{\"a\":"}, 3, reasonJSONLine, false},
		{"a.jsonl.gz", false, []string{"{}\n{\"a\":1}\n"}, -1, "", false},
		{"a.jsonl.gz", false, []string{"{}\n{\"a\":1}"}, -1, "", false},
		{"a.jsonl.gz", false, []string{"\xef\xbb\xbf{}\n{\"a\":"}, 3, reasonJSONLine, false},
		{"a.jsonl.gz", false, []string{"{\"a\":"}, -1, reasonOnlyLine, true},
		{"a.jsonl.gz", true, []string{"{\"a\":1}\n", "{\"b\":"}, 8, reasonJSONLine, false},
		{"a.jsonl.gz", true, []string{"{\"a\":1}\n"}, 8, "", false},
		{"a.jsonl.gz", true, []string{"{\"a\":1}\n", "{\"b\":2}"}, 15, "", false},
		{"a.jsonl.gz", true, nil, -1, reasonEmpty, true},        // the gzip header alone
		{"a.jsonl.gz", true, []string{}, -1, reasonEmpty, true}, // 4 bytes of it
		{"a.csv.gz", false, []string{"id,x\n1,2\n3"}, 9, reasonCSVRow, false},
		{"a.csv.gz", true, []string{"id,x\n1,2\n", "3,4"}, 12, "", false},
		{"a.json.gz", false, []string{"[{}"}, -1, reasonJSONCut, true},
		{"a.json.gz", false, []string{"[{}]"}, -1, "", false},
		{"a.json.gz", true, []string{"[{}]"}, -1, reasonJSONCut, true},
		{"a.json.gz", true, []string{"[{}x"}, -1, "", false},      // a syntax error first: read, to fail
		{"a.gz", false, []string{"[{}"}, -1, reasonJSONCut, true}, // JSON by its content
	} {
		data := gzipParts(t, c.cut, c.parts...)
		switch {
		case c.parts == nil:
			data = gzipParts(t, true, "")[:10] // what gzip.Writer writes before any text
		case len(c.parts) == 0:
			data = gzipParts(t, true, "")[:4]
		}
		path := writeFile(t, t.TempDir(), c.name, data)
		limit, textLimit, format, u, err := liveSpan(path, Options{}, false)
		reason, whole := "", false
		if u != nil {
			reason, whole = u.Reason, u.Whole
		}
		if err != nil || limit != -1 || textLimit != c.textLimit && !whole || reason != c.reason || whole != c.whole {
			t.Errorf("%s %q (cut %t): limit %d, text limit %d, reason %q, whole %t, error %v; want -1, %d, %q, %t",
				c.name, c.parts, c.cut, limit, textLimit, reason, whole, err, c.textLimit, c.reason, c.whole)
		}
		if want := pathFormat(path, ""); !whole && format != want {
			t.Errorf("%s %q (cut %t): format %q, the reading's %q", c.name, c.parts, c.cut, format, want)
		}
	}
}

// TestLoadUnfinishedGzip: Load and Stream read a gzipped newest file up
// to its last complete line, its gzip stream whole or cut short, and
// warn of a last line left out; the file not the newest, cut short,
// stays an error.
func TestLoadUnfinishedGzip(t *testing.T) {
	const first = "{\"id\":\"1a\",\"metadata\":{\"acc\":1}}\n"
	const second = "{\"id\":\"2a\",\"metadata\":{\"acc\":1}}\n"
	const cutLine = "{\"id\":\"2b\",\"metadata\":{\"acc\":0."
	for _, c := range []struct {
		cut     bool
		parts   []string
		ids     []string
		warning string
	}{
		{false, []string{second + cutLine}, []string{"1a/0", "2a/1"}, "last line left out: no line end, and not complete JSON"},
		{true, []string{second, cutLine}, []string{"1a/0", "2a/1"}, "last line left out: no line end, and not complete JSON"},
		{true, []string{second}, []string{"1a/0", "2a/1"}, ""},
		{false, []string{second}, []string{"1a/0", "2a/1"}, ""},
	} {
		dir := t.TempDir()
		writeFile(t, dir, "step_1.jsonl", []byte(first))
		newest := writeFile(t, dir, "step_2.jsonl.gz", gzipParts(t, c.cut, c.parts...))
		var want []string
		if c.warning != "" {
			want = []string{newest + ": " + c.warning + " (the newest file of its directory: its run is probably still writing it)"}
		}
		for _, skip := range []bool{false, true} {
			res, err := Load([]string{dir}, Options{SkipInvalid: skip})
			if err != nil {
				t.Errorf("%q (cut %t, skip %t): %v", c.parts, c.cut, skip, err)
				continue
			}
			var warnings []string
			for _, u := range res.Unfinished {
				warnings = append(warnings, u.String())
			}
			if got := idBatches(res); !slices.Equal(got, c.ids) || !slices.Equal(warnings, want) || res.Skipped != 0 {
				t.Errorf("%q (cut %t, skip %t): %q, warnings %q, %d skipped; want %q, %q, none", c.parts, c.cut, skip, got, warnings, res.Skipped, c.ids, want)
			}
		}
		var streamed []string
		if _, err := Stream([]string{dir}, Options{}, func(ts []scoring.Trajectory) error {
			for _, t := range ts {
				streamed = append(streamed, t.ID)
			}
			return nil
		}); err != nil || len(streamed) != len(c.ids) {
			t.Errorf("%q (cut %t): streamed %q, error %v", c.parts, c.cut, streamed, err)
		}
	}
	dir := t.TempDir()
	older := writeFile(t, dir, "step_1.jsonl.gz", gzipParts(t, true, first, cutLine))
	writeFile(t, dir, "step_2.jsonl", []byte(second))
	if _, err := Load([]string{dir}, Options{}); err == nil || !strings.HasPrefix(err.Error(), older+":2:") {
		t.Errorf("a gzipped file cut short, not the newest: error %v, want one at %s:2", err, older)
	}
}

// TestFollowJSONCutShort: a followed JSON array cut short has no
// trajectories yet, a warning of the first reading rather than an error,
// as a Parquet file without its footer; once its writer completes it, it
// is read whole.
func TestFollowJSONCutShort(t *testing.T) {
	defer goleak.VerifyNone(t)
	dir := t.TempDir()
	writeFile(t, dir, "step_1.json", []byte("[{\"id\":\"1a\",\"metadata\":{\"acc\":1}}]\n"))
	const whole = "[{\"id\":\"2a\",\"metadata\":{\"acc\":1}},{\"id\":\"2b\",\"metadata\":{\"acc\":0}}]\n"
	const cutAt = 40
	path := writeFile(t, dir, "step_2.json", []byte(whole[:cutAt]))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, ch, err := Follow(ctx, []string{dir}, followOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	want := path + ": left out: its JSON ends before its value does (its run is probably still writing it: read when it changes)"
	if len(res.Unfinished) != 1 || res.Unfinished[0].String() != want || len(res.Trajectories) != 1 {
		t.Fatalf("first reading: %d trajectories, unfinished %v; want 1 and %q", len(res.Trajectories), res.Unfinished, want)
	}
	f := newFollowed(res)
	testfile.Append(t, path, whole[cutAt:])
	f.await(t, ch, "the completed file", func() bool { return len(f.ids[path]) == 2 })
	cancel()
	for range ch {
	}
	if len(f.errs) > 0 {
		t.Errorf("errors: %v", f.errs)
	}
}

// TestBracketScanParts: counting brackets outside strings gives the same
// whatever the parts the text comes in (a string, an escape cut between
// two reads).
func TestBracketScanParts(t *testing.T) {
	for _, text := range []string{
		`[{"a":"x\\\"]}]`, `[{"a":"\\\\"},{"b":["]"]}]`, `{"columns":["a"],"data":[["\\\\\\"", 1], [`,
	} {
		var whole bracketScan
		whole.scan([]byte(text))
		for cut := range len(text) + 1 {
			var parts bracketScan
			parts.scan([]byte(text[:cut]))
			parts.scan([]byte(text[cut:]))
			if parts != whole {
				t.Errorf("%s cut at %d: %+v, whole %+v", text, cut, parts, whole)
			}
		}
	}
	var s bracketScan
	s.scan([]byte(`[{"a":"x\\\"]}]`))
	if !s.inString || s.depth != 2 {
		t.Errorf("an escaped quote: %+v, want in the string, depth 2", s)
	}
}

// TestJSONCutShortShrunk: a text shorter than the size its stat found
// (the file shrank under the check) is not taken as cut short: its
// reading tells, which a follower does again.
func TestJSONCutShortShrunk(t *testing.T) {
	open := func() io.Reader { return strings.NewReader("[{}") }
	if !jsonCutShort(open, 3) || jsonCutShort(open, 4) {
		t.Errorf("cut short: %t at its size, %t at a size larger; want true, false", jsonCutShort(open, 3), jsonCutShort(open, 4))
	}
}
