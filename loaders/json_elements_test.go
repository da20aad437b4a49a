package loaders

import (
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestJSONElementsAsDecoder: the elements read as JSONL's lines are, and
// the decoder taking over at the first text they cannot be read so, give
// what the decoder alone gives (a row limit past the input makes it read
// alone): the same trajectories with their lines and offsets, the same
// first error or skipped elements, wherever the text that needs the
// decoder stands: a NaN, a 0xFF byte, an element that is not an object,
// two on a line, one over lines, a missing or extra comma, data after
// the array, a byte order mark, blank lines first; and over several
// blocks.
func TestJSONElementsAsDecoder(t *testing.T) {
	many := func(n int, odd func(i int) string) string {
		var b strings.Builder
		b.WriteString("[\n")
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			if s := odd(i); s != "" {
				b.WriteString(s)
				continue
			}
			fmt.Fprintf(&b, `{"id": "t%d", "batch": %d, "group": "g%d", "response": "r é %d", "metadata": {"o1": %d.5, "o2": -1e-3}}`, i, i%3, i/8, i, i)
		}
		b.WriteString("\n]\n")
		return b.String()
	}
	inputs := map[string]string{
		"plain":        many(5000, func(int) string { return "" }),
		"bad fields":   many(5000, func(i int) string { return map[bool]string{true: `{"id": "b", "batch": "x"}`}[i%1500 == 7] }),
		"nan":          many(5000, func(i int) string { return map[bool]string{true: `{"id": "n", "metadata": {"o1": NaN}}`}[i == 4321] }),
		"ff":           many(3000, func(i int) string { return map[bool]string{true: "{\"id\": \"f\xff\"}"}[i == 2000] }),
		"not object":   many(3000, func(i int) string { return map[bool]string{true: `5`}[i == 2999] }),
		"over lines":   many(3000, func(i int) string { return map[bool]string{true: "{\"id\":\n  \"l\",\n \"batch\": \"y\"}"}[i%700 == 1] }),
		"small":        `[{"id": "a"}, {"id": "b", "batch": 1}, {"batch": "z"}]`,
		"two a line":   "[{\"id\": \"a\"}, {\"id\": \"b\"},\n{\"batch\": \"z\"}]",
		"no comma":     "[{\"id\": \"a\"}\n{\"id\": \"b\"}]",
		"extra comma":  "[{\"id\": \"a\"},\n]",
		"after":        "[{\"id\": \"a\"}] x",
		"bom":          "\xef\xbb\xbf[{\"id\": \"a\", \"batch\": \"q\"}]",
		"blank first":  "\n\n  [ {\"id\": \"a\"},\n\t{\"batch\": 2.5} ]",
		"empty":        "  \n",
		"empty array":  "[ ]",
		"object":       `{"id": "a"}`,
		"cut":          `[{"id": "a"}, {"id": `,
		"nested":       `[{"id": "a", "metadata": {"x": [1, {"y": null}], "z": true}}, {"metadata": 3}]`,
		"inf at start": `[{"metadata": {"a": -Infinity}}, {"id": "b"}]`,
	}
	for name, input := range inputs {
		for _, skip := range []bool{false, true} {
			got, gotErr := readString("t.json", input, Options{SkipInvalid: skip})
			want, wantErr := readString("t.json", input, Options{SkipInvalid: skip, rowLimit: 1 << 30})
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s, skip %t: error %v, want %v", name, skip, gotErr, wantErr)
				continue
			}
			if got == nil || want == nil {
				continue
			}
			if g, w := briefs(got), briefs(want); !reflect.DeepEqual(g, w) {
				t.Errorf("%s, skip %t: %d trajectories, want %d", name, skip, len(g), len(w))
				continue
			}
			for i := range got.Trajectories {
				if g, w := got.Trajectories[i].Offset, want.Trajectories[i].Offset; g != w {
					t.Errorf("%s, skip %t: trajectory %d at offset %d, want %d", name, skip, i, g, w)
					break
				}
			}
			if got.Skipped != want.Skipped || fmt.Sprint(got.SkipReasons) != fmt.Sprint(want.SkipReasons) {
				t.Errorf("%s, skip %t: skipped %d %v, want %d %v", name, skip, got.Skipped, got.SkipReasons, want.Skipped, want.SkipReasons)
			}
		}
	}
}

// TestJSONElementsPicked: when the scorer picks its keys, the elements
// read as JSONL's lines are carry the values the decoder's reading puts
// in their metadata, before and after the decoder takes over (at a NaN).
func TestJSONElementsPicked(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 30000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		o2 := fmt.Sprint(-i)
		switch i {
		case 29500:
			o2 = "NaN"
		case 7, 27007:
			o2 = `"text"`
		case 8, 27008:
			o2 = "null"
		}
		fmt.Fprintf(&b, `{"id": "t%d", "metadata": {"o1": %d.25, "o2": %s}, "response": "r%d"}`, i, i, o2, i)
	}
	b.WriteString("]")
	pick := &scoring.Pick{Keys: []string{"o1", "o2"}, Response: true}
	var picked []scoring.Trajectory
	_, err := read(strings.NewReader(b.String()), "t.json", 0, Options{Pick: func(*scoring.Trajectory) *scoring.Pick { return pick }}, 0, func(ts []scoring.Trajectory) error {
		for _, tr := range ts {
			// Both are recycled once handed over.
			tr.Picked = slices.Clone(tr.Picked)
			tr.Metadata = maps.Clone(tr.Metadata)
			picked = append(picked, tr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want, err := readString("t.json", b.String(), Options{rowLimit: 1 << 30})
	if err != nil || len(want.Trajectories) != len(picked) {
		t.Fatalf("%v: %d trajectories, want %d", err, len(picked), len(want.Trajectories))
	}
	nPicked := 0
	for _, tr := range picked {
		if tr.Picked != nil {
			nPicked++
		}
	}
	if nPicked == 0 {
		t.Error("no element read with its keys picked")
	}
	for i, tr := range picked {
		w := want.Trajectories[i]
		if tr.ID != w.ID || tr.Line != w.Line || tr.Offset != w.Offset || string(tr.Response) != string(w.Response) {
			t.Fatalf("trajectory %d: %s at %d:%d, want %s at %d:%d", i, tr.ID, tr.Line, tr.Offset, w.ID, w.Line, w.Offset)
		}
		for k, key := range pick.Keys {
			var got string
			if tr.Picked != nil {
				switch v := tr.Picked[k]; v.Kind {
				case scoring.PickedNumber:
					got = fmt.Sprint(v.Number)
				case scoring.PickedAbsent:
					got = "<nil>"
				default:
					got = "other"
				}
				if _, isString := w.Metadata[key].(string); isString {
					got = map[string]string{"other": "text"}[got]
				}
			} else {
				got = fmt.Sprint(tr.Metadata[key])
			}
			if want := fmt.Sprint(w.Metadata[key]); got != want {
				t.Errorf("trajectory %d, %s: %s, want %s", i, key, got, want)
			}
		}
	}
}

// TestJSONElementsReuseBlocks: the blocks of elements are filled again
// once taken, not made anew and grown block after block: streaming 40k
// elements (about 4 MB) allocates at most 6 bytes per byte of input
// (the trajectories, their strings and the stream's chunks), about half
// what making the blocks anew took.
func TestJSONElementsReuseBlocks(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 40000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": "t%d", "group": "g%d", "response": "The answer is %d.", "metadata": {"o1": %d.25, "o2": 0.5}}`, i, i/8, i%97, i)
	}
	b.WriteString("]")
	text := b.String()
	pick := &scoring.Pick{Keys: []string{"o1", "o2"}}
	opts := Options{Pick: func(*scoring.Trajectory) *scoring.Pick { return pick }}
	read := func() uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		n := 0
		if _, err := read(strings.NewReader(text), "t.json", 0, opts, 0, func(ts []scoring.Trajectory) error { n += len(ts); return nil }); err != nil || n != 40000 {
			t.Fatalf("%v: %d trajectories", err, n)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	read() // the first reading may fill pools
	if got := read(); got > 6*uint64(len(text)) {
		t.Errorf("streaming %d bytes of JSON allocated %d bytes", len(text), got)
	}
}

// TestJSONElementRecordErrorPlaced: a record field's expression that
// fails on an element of a one-line JSON array says the element as its
// trajectory would be placed (PATH:element N), not the line all share,
// read by the elements' path or the decoder's (a row limit); a
// pretty-printed array keeps its lines. Following, two elements alike
// that it fails on are each counted: their places differ.
func TestJSONElementRecordErrorPlaced(t *testing.T) {
	fields, err := scoring.NewRecordFields("", "metadata.step", "")
	if err != nil {
		t.Fatal(err)
	}
	elems := []string{`{"id": "a", "metadata": {"step": 1}}`, `{"id": "b", "metadata": {"step": "x"}}`, `{"id": "b", "metadata": {"step": "x"}}`}
	for _, c := range []struct{ text, at string }{
		{"[" + strings.Join(elems, ", ") + "]", ":element 2: "},
		{"[\n" + strings.Join(elems, ",\n") + "\n]\n", ":3: "},
	} {
		path := writeTemp(t, "run.json", c.text)
		for _, maxRows := range []int{0, 10} {
			_, err := Load([]string{path}, Options{Fields: fields, MaxRows: maxRows})
			if want := path + c.at + `batch_by "metadata.step": must be an integer`; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%q, max rows %d: error %v; want %s...", c.text, maxRows, err, want)
			}
		}
		ff := &followedFile{path: path}
		res, _, err := ff.load(Options{Fields: fields}, true, nil, nil, nil)
		if err != nil || res.Skipped != 2 {
			t.Errorf("%q followed: %v skipped, %v; want both elements alike counted", c.text, res, err)
		}
	}
}
