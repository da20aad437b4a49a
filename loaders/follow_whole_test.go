package loaders

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"go.uber.org/goleak"

	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// wholeCase is a file of a format read whole, as first written, then
// grown by its run (what was there kept), then rewritten by another as
// large or larger.
type wholeCase struct {
	name                      string
	first, grown, rewritten   []byte
	firstIDs, grownIDs, rwIDs []string
}

// parquetOfIDs is a Parquet file of idRows with ids, a row group a row.
func parquetOfIDs(t *testing.T, ids ...string) []byte {
	t.Helper()
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

// wholeCases are a CSV file, a JSON array (the list dumped again, one
// element more) and a Parquet file (a row group more), each rewritten at
// its grown size with other rows: what a growth looks like to a stat.
func wholeCases(t *testing.T) []wholeCase {
	t.Helper()
	return []wholeCase{
		{"r.csv", []byte("id,a\na,1\n"), []byte("id,a\na,1\nb,2\n"), []byte("id,a\nc,1\nd,2\n"), []string{"a"}, []string{"a", "b"}, []string{"c", "d"}},
		{"r.json", []byte("[\n  {\"id\": \"a\", \"a\": 1}\n]\n"), []byte("[\n  {\"id\": \"a\", \"a\": 1},\n  {\"id\": \"b\", \"a\": 2}\n]\n"),
			[]byte("[\n  {\"id\": \"c\", \"a\": 1},\n  {\"id\": \"d\", \"a\": 2}\n]\n"), []string{"a"}, []string{"a", "b"}, []string{"c", "d"}},
		{"r.parquet", parquetOfIDs(t, "a"), parquetOfIDs(t, "a", "b"), parquetOfIDs(t, "cc", "dd"), []string{"a"}, []string{"a", "b"}, []string{"cc", "dd"}},
	}
}

// TestFollowWholeGrownOrRewritten: a followed file read whole (CSV, a JSON
// array, Parquet) that grew, what was read of it unchanged, brings its
// new trajectories alone, not Reloaded (a consumer keeps what it read of
// the old ones); rewritten in place as large as that, with other rows,
// it is Reloaded: said, not taken for growth.
func TestFollowWholeGrownOrRewritten(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tc := range wholeCases(t) {
		if len(tc.rewritten) < len(tc.grown) {
			t.Fatalf("%s: the fixture must rewrite at the grown size or larger", tc.name)
		}
		path, f, ch, stop := followNew(t, tc.name, tc.first, false)
		var got []Update
		watch := func(u Update) {
			f.apply(u)
			got = append(got, u)
		}
		state := func() string { return fmt.Sprintf("%s: loaded %v, errors %v", tc.name, f.ids, f.errs) }
		if !slices.Equal(f.ids[path], tc.firstIDs) {
			t.Fatalf("first reading: %s", state())
		}
		writeOver(t, path, tc.grown)
		awaitUpdates(t, ch, tc.name+" grown", watch, func() bool { return slices.Equal(f.ids[path], tc.grownIDs) }, state)
		for _, u := range got {
			if len(u.Reloaded) > 0 || len(u.Trajectories) != len(tc.grownIDs)-len(tc.firstIDs) {
				t.Errorf("%s grown: %d trajectories, reloaded %v; want the new ones alone", tc.name, len(u.Trajectories), u.Reloaded)
			}
		}
		got = nil
		writeOver(t, path, tc.rewritten)
		awaitUpdates(t, ch, tc.name+" rewritten", watch, func() bool { return slices.Equal(f.ids[path], tc.rwIDs) }, state)
		if len(got) == 0 || !slices.Equal(got[len(got)-1].Reloaded, []string{path}) {
			t.Errorf("%s rewritten at its size: %+v; want it Reloaded", tc.name, got)
		}
		stop()
	}
}

// writeOver writes data over the file at path from its start, in one
// write, not truncating it first: data is as long as the file or longer,
// and a check sees the file before or after, never emptied between.
func writeOver(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(data, 0); err != nil {
		t.Fatal(err)
	}
}

// TestFollowParquetRowGroupAdded: a followed Parquet file to which its
// run adds a row group, its footer not written again yet, keeps what was
// read of it (no Reloaded, nothing said) and brings the new rows once the
// footer is there.
func TestFollowParquetRowGroupAdded(t *testing.T) {
	defer goleak.VerifyNone(t)
	parquetOf := func(ids ...string) []byte {
		rows := make([]idRow, len(ids))
		for i, id := range ids {
			rows[i] = idRow{ID: id, A: float64(i)}
		}
		var b bytes.Buffer
		if err := parquet.Write(&b, rows, parquet.MaxRowsPerRowGroup(1), parquet.Compression(&parquet.Uncompressed)); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	// Long ids: the row groups outweigh the footer, so that the file
	// without it is larger than the file before.
	a, b := "a"+strings.Repeat("x", 2000), "b"+strings.Repeat("y", 2000)
	first, grown := parquetOf(a), parquetOf(a, b)
	dataEnd, err := parquetread.DataEnd(bytes.NewReader(grown), int64(len(grown)))
	if err != nil || dataEnd < int64(len(first)) {
		t.Fatalf("the fixture: its row groups end at %d (%v), the first file is %d bytes", dataEnd, err, len(first))
	}
	path, f, ch, stop := followNew(t, "r.parquet", first, false)
	defer stop()
	var reloaded []string
	watch := func(u Update) {
		f.apply(u)
		reloaded = append(reloaded, u.Reloaded...)
	}
	state := func() string { return fmt.Sprintf("loaded %v, reloaded %v, errors %v", f.ids, reloaded, f.errs) }
	writeOver(t, path, grown[:dataEnd])
	// The follower checks every 5 ms: it sees the file without its footer.
	for settled := time.After(100 * time.Millisecond); ; {
		select {
		case u := <-ch:
			watch(u)
			continue
		case <-settled:
		}
		break
	}
	if len(reloaded) > 0 || !slices.Equal(f.ids[path], []string{a}) {
		t.Fatalf("without its footer: %s", state())
	}
	writeOver(t, path, grown)
	awaitUpdates(t, ch, "the footer written", watch, func() bool { return slices.Equal(f.ids[path], []string{a, b}) }, state)
	if len(reloaded) > 0 || len(f.errs) > 0 {
		t.Errorf("with its footer: %s", state())
	}
	stop()
}

// TestFollowWholeEditedInTheMiddle: a followed file read whole (CSV, a
// JSON array) whose row in the middle is edited in place, the file as
// large, its first bytes and its last 4 KiB unchanged, is read again with
// the new value (Reloaded), not taken for a growth of nothing; a growth
// after that brings its new row alone.
func TestFollowWholeEditedInTheMiddle(t *testing.T) {
	defer goleak.VerifyNone(t)
	const rows = 1000
	ids := make([]string, rows)
	for i := range ids {
		ids[i] = fmt.Sprintf("r%03d", i)
	}
	csvOf := func(ids []string) []byte {
		var b bytes.Buffer
		b.WriteString("id,a\n")
		for _, id := range ids {
			fmt.Fprintf(&b, "%s,1\n", id)
		}
		return b.Bytes()
	}
	jsonOf := func(ids []string) []byte {
		elems := make([]string, len(ids))
		for i, id := range ids {
			elems[i] = fmt.Sprintf("  {\"id\": %q, \"a\": 1}", id)
		}
		return []byte("[\n" + strings.Join(elems, ",\n") + "\n]\n")
	}
	edited := slices.Clone(ids)
	edited[10] = "e010"
	grown := append(slices.Clone(edited), "r1000")
	for _, tc := range []struct {
		name string
		of   func([]string) []byte
	}{{"r.csv", csvOf}, {"r.json", jsonOf}} {
		first, edit := tc.of(ids), tc.of(edited)
		// The 4 KiB before the part read ends, a JSON array's closing
		// bracket after it, unchanged too.
		tail := beforeSize + len("\n]\n")
		if len(edit) != len(first) || !bytes.Equal(edit[:headSize], first[:headSize]) ||
			!bytes.Equal(edit[len(edit)-tail:], first[len(first)-tail:]) {
			t.Fatalf("%s: the fixture must edit a value in the middle, at the same size", tc.name)
		}
		path, f, ch, stop := followNew(t, tc.name, first, false)
		var got []Update
		watch := func(u Update) {
			f.apply(u)
			got = append(got, u)
		}
		state := func() string {
			return fmt.Sprintf("%s: loaded %d, errors %v, updates %d", tc.name, len(f.ids[path]), f.errs, len(got))
		}
		writeOver(t, path, edit)
		// A later modification time, as an edit a moment after the
		// writing has: the stat sees a change whatever its clock's grain.
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, st.ModTime(), st.ModTime().Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		awaitUpdates(t, ch, tc.name+" edited", watch, func() bool { return slices.Equal(f.ids[path], edited) }, state)
		if !slices.Equal(got[len(got)-1].Reloaded, []string{path}) {
			t.Errorf("%s edited: reloaded %v; want it read again", tc.name, got[len(got)-1].Reloaded)
		}
		got = nil
		writeOver(t, path, tc.of(grown))
		awaitUpdates(t, ch, tc.name+" grown", watch, func() bool { return slices.Equal(f.ids[path], grown) }, state)
		// Read while being written, the file may give an update of nothing
		// first: what counts is that the new row alone came, once.
		added := 0
		for _, u := range got {
			added += len(u.Trajectories)
			if len(u.Reloaded) > 0 {
				t.Errorf("%s grown after the edit: reloaded %v; want the new row alone", tc.name, u.Reloaded)
			}
		}
		if added != 1 {
			t.Errorf("%s grown after the edit: %d trajectories came; want the new one alone", tc.name, added)
		}
		stop()
	}
}

// TestFollowJSONLastValueEdited: a JSON array whose last element's last
// number is edited in place, the file a byte larger (1 to 12), is read
// again: the last element's closing brace is its value's, compared, not
// a closer a growth rewrites.
func TestFollowJSONLastValueEdited(t *testing.T) {
	defer goleak.VerifyNone(t)
	path, f, ch, stop := followNew(t, "r.json", []byte(`[{"id": "a", "reward": 1}]`), false)
	writeOver(t, path, []byte(`[{"id": "a", "reward": 12}]`))
	f.await(t, ch, "the last value edited", func() bool { return slices.Contains(f.reloaded, path) })
	stop()
}

// TestFollowWholeReadsTheSizeJudged: a followed file read whole is read
// to the size its check judged and no further, as it may be written
// meanwhile: a Parquet file complete at that size, bytes written after
// it since, gives its rows, not "does not end with PAR1"; a JSON array
// gives its elements, not what was written after its end.
func TestFollowWholeReadsTheSizeJudged(t *testing.T) {
	var pq bytes.Buffer
	if err := parquet.Write(&pq, []idRow{{ID: "a", A: 1}}, parquet.Compression(&parquet.Uncompressed)); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"r.parquet": pq.Bytes(), "r.json": []byte(`[{"id":"a","metadata":{"a":1}}]`)} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, append(slices.Clone(content), "being written"...), 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		f := &followedFile{path: path}
		res, _, _, err := f.loadWhole(file, int64(len(content)), Options{}, nil, nil)
		file.Close()
		if err != nil || res == nil || len(res.Trajectories) != 1 || res.Trajectories[0].ID != "a" {
			t.Errorf("%s: read %v, %v; want its one trajectory, a", name, res, err)
		}
	}
}
