package loaders

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/testfile"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// bigJSONL returns a JSONL text of n lines spanning several blocks of the
// parallel parser: a byte order mark, CRLF on every third line, a blank
// line every seventh, an invalid line every 50th (skipped with
// SkipInvalid), lines without an id (the default, their position), and
// a NaN token. want holds the text each loaded trajectory's line starts
// with, in order.
func bigJSONL(n int) (text string, want []string) {
	var b strings.Builder
	b.Write(input.UTF8BOM)
	pad := strings.Repeat("x", 300)
	for i := range n {
		end := "\n"
		if i%3 == 0 {
			end = "\r\n"
		}
		switch {
		case i%7 == 0:
			b.WriteString("  \r\n")
		case i%50 == 0:
			b.WriteString(`{"id":"bad` + fmt.Sprint(i) + `","batch":"x"}` + end)
			continue
		}
		line := fmt.Sprintf(`{"id":"t%d","response":"%s","metadata":{"a":%d,"n":NaN}}`, i, pad, i)
		if i%11 == 0 {
			line = fmt.Sprintf(`{"response":"%d","metadata":{"a":%d}}`, i, i)
		}
		b.WriteString(line + end)
		want = append(want, line)
	}
	return b.String(), want
}

// writeTemp writes text to name in a new directory and returns its path.
func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkOffsets fails t unless each trajectory of res has format and its
// record, in text, starting at its Offset with the matching want.
func checkOffsets(t *testing.T, res *Result, text, format string, want []string) {
	t.Helper()
	if len(res.Trajectories) != len(want) {
		t.Fatalf("got %d trajectories, want %d", len(res.Trajectories), len(want))
	}
	for i, tr := range res.Trajectories {
		if tr.Format != format {
			t.Fatalf("%s: Format %q, want %q", tr.Where(), tr.Format, format)
		}
		if !strings.HasPrefix(text[tr.Offset:], want[i]) {
			t.Fatalf("%s: at offset %d: %.40q, want %.40q", tr.Where(), tr.Offset, text[tr.Offset:], want[i])
		}
	}
}

// checkRereads fails t unless Reread gives back every trajectory of res,
// whole, after its body was dropped.
func checkRereads(t *testing.T, res *Result) {
	t.Helper()
	for _, full := range res.Trajectories {
		lean := full
		if !lean.DropBody() {
			t.Fatalf("%s: cannot drop its body (Format %q)", full.Where(), full.Format)
		}
		got, err := Reread(&lean, nil)
		if err != nil {
			t.Fatal(err)
		}
		if brief(got) != brief(full) || got.Offset != full.Offset || got.Format != full.Format || got.Lean {
			t.Fatalf("reread\n got %s (offset %d)\nwant %s (offset %d)", brief(got), got.Offset, brief(full), full.Offset)
		}
	}
}

// TestOffsetsJSONL loads a JSONL file of many blocks, read in parallel,
// with CRLF and blank lines and invalid lines skipped: every trajectory's
// Offset is where its line starts, and Reread gives it back whole.
func TestOffsetsJSONL(t *testing.T) {
	text, want := bigJSONL(6000) // about 2 MB: 8 blocks
	path := writeTemp(t, "big.jsonl", text)
	res, err := Load([]string{path}, Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped == 0 {
		t.Fatal("no line skipped")
	}
	checkOffsets(t, res, text, "jsonl", want)
	if got, want := res.Trajectories[0].Offset, int64(len(input.UTF8BOM)+len("  \r\n")); got != want {
		t.Errorf("first offset %d, want %d (past the byte order mark and a blank line)", got, want)
	}
	checkRereads(t, res)
}

// TestOffsetsStream checks the offsets that Stream hands over.
func TestOffsetsStream(t *testing.T) {
	text, want := bigJSONL(3000)
	path := writeTemp(t, "big.jsonl", text)
	all := &Result{}
	_, err := Stream([]string{path}, Options{SkipInvalid: true}, func(ts []scoring.Trajectory) error {
		for _, tr := range ts {
			tr.Metadata = nil // recycled by Stream
			all.Trajectories = append(all.Trajectories, tr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkOffsets(t, all, text, "jsonl", want)
}

// TestOffsetsJSON loads a JSON array whose elements span lines and hold
// NaN tokens, which the reader rewrites to longer text.
func TestOffsetsJSON(t *testing.T) {
	elems := []string{
		`{"id":"a","metadata":{"x":NaN,"y":-Infinity}}`,
		"{\n  \"id\": \"b\",\n  \"response\": \"two\\nlines\",\n  \"metadata\": {\"x\": Infinity}\n}",
		`{"metadata":{"x":1}}`,
		`{"id":"d","response":{"nested":[NaN,1]},"done":false}`,
	}
	// Pretty-printed, and on one line: its elements placed by number.
	for _, text := range []string{
		"\ufeff[\n  " + strings.Join(elems, ",\n  ") + "\n]\n",
		"[" + strings.Join(elems, ", ") + "]",
	} {
		path := writeTemp(t, "run.json", text)
		res, err := Load([]string{path}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkOffsets(t, res, text, "json", elems)
		checkRereads(t, res)
	}
}

// TestOffsetsCSV loads a CSV file with quoted fields over several lines
// and CRLF line ends.
func TestOffsetsCSV(t *testing.T) {
	rows := []string{
		"a,p1,\"first\r\nresponse\",0.5",
		`b,p1,"a ""quoted"", comma",NaN`,
		"c,p2,\"x\n\ny\",",
		`,p2,plain,2`,
	}
	text := "id,group,response,accuracy\r\n" + strings.Join(rows, "\r\n") + "\r\n"
	path := writeTemp(t, "run.csv", text)
	res, err := Load([]string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkOffsets(t, res, text, "csv", rows)
	checkRereads(t, res)

	// Blank lines before a record are part of it for its offset.
	text = "\ufeff" + strings.ReplaceAll(text, "\r\n,p2", "\r\n\r\n\n,p2")
	res, err = Load([]string{writeTemp(t, "blank.csv", text)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkRereads(t, res)
}

// TestOffsetsFollow follows a JSONL file that grows: the appended lines'
// offsets are where they start in the file.
func TestOffsetsFollow(t *testing.T) {
	first := "\ufeff" + idLines("a", 3)
	path := writeTemp(t, "run.jsonl", first)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, updates, err := Follow(ctx, []string{path}, followOptions(false))
	if err != nil {
		t.Fatal(err)
	}
	more := "\r\n" + strings.ReplaceAll(idLines("b", 3), "\n", "\r\n")
	testfile.Append(t, path, more)
	text := first + more
	all := &Result{Trajectories: res.Trajectories}
	for len(all.Trajectories) < 6 {
		select {
		case u := <-updates:
			all.Trajectories = append(all.Trajectories, u.Trajectories...)
		case <-time.After(10 * time.Second):
			t.Fatal("timed out")
		}
	}
	want := strings.Fields(idLines("a", 3) + idLines("b", 3))
	checkOffsets(t, all, text, "jsonl", want)
	checkRereads(t, all)
}

// TestRereadChanged rereads trajectories whose file changed: another
// record at the offset, a line that no longer parses, a file removed.
func TestRereadChanged(t *testing.T) {
	text := `{"id":"a","metadata":{"x":1}}` + "\n" + `{"id":"b","metadata":{"x":2}}` + "\n"
	path := writeTemp(t, "run.jsonl", text)
	res, err := Load([]string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Trajectories[1]
	b.DropBody()
	edits := []struct{ text, err string }{
		{`{"id":"a","metadata":{"x":1}}` + "\n" + `{"id":"c","metadata":{"x":2}}` + "\n",
			`:2: trajectory "b" changed since it was loaded: the record there now has id "c"`},
		{`{"id":"a"}` + "\n" + `{"id":"b","metadata":{"x":2}}` + "\n",
			`:2: trajectory "b" changed since it was loaded: invalid JSON`},
		{`{"id":"a","metadata":{"x":1}}` + "\n" + `{"id":"b","batch":3}` + "\n",
			`:2: trajectory "b" changed since it was loaded: the record there now has other batch, group, step_count or done`},
	}
	for _, e := range edits {
		if err := os.WriteFile(path, []byte(e.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Reread(&b, nil)
		if err == nil || !strings.HasPrefix(err.Error(), path+e.err) {
			t.Errorf("after writing %q: error %v, want %s%s...", e.text, err, path, e.err)
		}
	}
	os.Remove(path)
	if _, err := Reread(&b, nil); err == nil || !strings.HasPrefix(err.Error(), path+":2: cannot read it again: open ") {
		t.Errorf("removed file: error %v", err)
	}
}

// TestNotRereadable checks that trajectories from standard input or a gzip
// file keep their bodies: they cannot be read again by offset.
func TestNotRereadable(t *testing.T) {
	line := `{"id":"a","response":"r","metadata":{"x":1}}` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(line))
	zw.Close()
	path := writeTemp(t, "run.jsonl.gz", gz.String())
	fromGzip, err := Load([]string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fromStdin, err := Load([]string{"-"}, Options{Stdin: strings.NewReader(line)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []scoring.Trajectory{fromGzip.Trajectories[0], fromStdin.Trajectories[0]} {
		if tr.Format != "" || tr.DropBody() || tr.Lean || tr.Metadata == nil {
			t.Errorf("%s: Format %q, body dropped", tr.Where(), tr.Format)
		}
		if _, err := Reread(&tr, nil); err == nil || !strings.Contains(err.Error(), "cannot be read again") {
			t.Errorf("%s: Reread: %v", tr.Where(), err)
		}
	}
}

// TestRereaderInOrder: one Rereader reading a file's trajectories in file
// order (skipping ahead in its buffer), in reverse order and by every
// third, gives each back whole, as Reread does one at a time.
func TestRereaderInOrder(t *testing.T) {
	text, _ := bigJSONL(1500)
	var csvText strings.Builder
	csvText.WriteString("id,batch,a,b\n")
	for i := range 600 {
		fmt.Fprintf(&csvText, "r%d,%d,%d,\"%s\"\n", i, i%7, i, strings.Repeat("y", i%90))
	}
	for _, c := range []struct{ name, text string }{{"big.jsonl", text}, {"big.csv", csvText.String()}} {
		path := writeTemp(t, c.name, c.text)
		res, err := Load([]string{path}, Options{SkipInvalid: true})
		if err != nil {
			t.Fatal(err)
		}
		n := len(res.Trajectories)
		for _, order := range [][]int{seq(n, 0, 1), seq(n, n-1, -1), seq(n/3, 0, 3)} {
			r := NewRereader(nil)
			for _, i := range order {
				full := res.Trajectories[i]
				lean := full
				lean.DropBody()
				got, err := r.Reread(&lean)
				if err != nil {
					t.Fatal(err)
				}
				if brief(got) != brief(full) {
					t.Fatalf("%s: trajectory %d read again\n got %s\nwant %s", c.name, i, brief(got), brief(full))
				}
			}
			r.Close()
		}
	}
}

// seq returns n indices from first by step.
func seq(n, first, step int) []int {
	out := make([]int, n)
	for j := range out {
		out[j] = first + j*step
	}
	return out
}

// TestRereadChangedPlacedAsLoaded: a record of a one-line JSON array
// changed since it was loaded is said at its element, as the load
// placed its trajectory (Where), not at the line every element shares;
// one of a pretty-printed array at its line.
func TestRereadChangedPlacedAsLoaded(t *testing.T) {
	elems := []string{`{"id": "a", "metadata": {"x": 1}}`, `{"id": "b", "metadata": {"x": 2}}`}
	for _, c := range []struct{ text, at string }{
		{"[" + strings.Join(elems, ", ") + "]", ":element 2: "},
		{"[\n" + strings.Join(elems, ",\n") + "\n]\n", ":3: "},
	} {
		path := writeTemp(t, "run.json", c.text)
		res, err := Load([]string{path}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b := res.Trajectories[1]
		b.DropBody()
		if err := os.WriteFile(path, []byte(strings.Replace(c.text, `"b"`, `"c"`, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = Reread(&b, nil)
		if want := path + c.at + `trajectory "b" changed since it was loaded: the record there now has id "c"`; err == nil || err.Error() != want || !strings.HasPrefix(err.Error(), b.Where()+": ") {
			t.Errorf("%q: error %v; want %s", c.text, err, want)
		}
	}
}
