package loaders

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
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
