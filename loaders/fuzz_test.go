package loaders

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"

	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// The fuzz targets read arbitrary bytes in one format, strictly and with
// SkipInvalid, and check what must hold whatever the input.

func FuzzJSONL(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","batch":2,"group":"g","step_count":5,"response":"hi","done":false,"metadata":{"x":1.5,"s":"t","b":true,"n":null}}`,
		"{}\n\n{\"id\":7}\r\n{x}\n",
		`{"metadata":{"a":NaN,"b":-Infinity,"s":"NaN"},"response":[Infinity]}`,
		"\ufeff{\"batch\":3.0,\"step_count\":-1}",
		"{\"metadata\":{\"s\":\"\xffN\",\"n\":NaN}}",
		`[1]`,
		`{"batch":1e400,"step_count":"2","done":"yes","metadata":{"k":{}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res := checkBothModes(t, "fuzz.jsonl", data, JSONL)
		if res != nil && !bytes.HasPrefix(data, input.GzipMagic) {
			// Every line that is not blank is a trajectory or a skip.
			text := bytes.TrimPrefix(data, input.UTF8BOM)
			lines := 0
			for line := range bytes.SplitSeq(text, []byte("\n")) {
				if jsonscan.SkipSpace(line) < len(line) {
					lines++
				}
			}
			if got := len(res.Trajectories) + res.Skipped; got != lines {
				t.Fatalf("%d trajectories and %d skipped from %d lines", len(res.Trajectories), res.Skipped, lines)
			}
		}
	})
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{
		`[{"id":"a","batch":2,"group":"g","step_count":5,"response":"hi","done":false,"metadata":{"x":1.5,"s":"t","b":true,"n":null}}]`,
		"[\n {\"id\":1},\n {}, 5, null\n]\n",
		`[{"metadata":{"a":NaN,"b":-Infinity,"s":"NaN"},"response":[Infinity]}]`,
		"\ufeff[{\"batch\":3.0,\"step_count\":-1}]",
		"[{\"metadata\":{\"s\":\"\xffN\",\"n\":NaN}}]",
		`{"a":1}`,
		`[{}] [`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkBothModes(t, "fuzz.json", data, JSON)
	})
}

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"id,batch,group,step_count,response,done,metadata,accuracy\na,2,g,5,hi,false,\"{\"\"x\"\":1}\",0.5\n",
		"x,y\nnan,-Inf\n,abc\n1\n",
		"\ufeff,id\r\n0,a\r\n",
		"id,id\n",
		"a\"b\n",
		"metadata,m\n\"{\"\"m\"\":NaN}\",1\n",
		"step_count,batch\n-1,1.5\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkBothModes(t, "fuzz.csv", data, CSV)
	})
}

// checkBothModes reads data strictly and with SkipInvalid, checks each
// outcome, and checks that a strict success reads the same with
// SkipInvalid. It returns the result with SkipInvalid, or nil.
func checkBothModes(t *testing.T, name string, data []byte, format Format) *Result {
	strict, err := Read(bytes.NewReader(data), name, 2, Options{Format: format})
	checkOutcome(t, name, strict, err)
	lenient, lerr := Read(bytes.NewReader(data), name, 2, Options{Format: format, SkipInvalid: true})
	checkOutcome(t, name, lenient, lerr)
	if err == nil {
		if lerr != nil || lenient.Skipped != 0 || !slices.Equal(briefs(strict), briefs(lenient)) {
			t.Fatalf("strict reading succeeds, SkipInvalid gives %v", lerr)
		}
	}
	return lenient
}

// checkOutcome checks what Read returned for the input name.
func checkOutcome(t *testing.T, name string, res *Result, err error) {
	if err != nil {
		if res != nil {
			t.Fatalf("a result with the error %v", err)
		}
		var le *LineError
		if errors.As(err, &le) {
			checkPlace(t, name, le)
		} else if !strings.Contains(err.Error(), name) {
			t.Fatalf("error %q does not name the input", err)
		}
		return
	}
	if len(res.Trajectories) == 0 {
		t.Fatal("success without trajectories")
	}
	for _, tr := range res.Trajectories {
		if tr.ID == "" || tr.Metadata == nil || tr.StepCount < 0 || tr.Source != name || tr.Line < 1 {
			t.Fatalf("bad trajectory %s", brief(tr))
		}
		for k, v := range tr.Metadata {
			switch v.(type) {
			case float64, string, bool, nil:
			default:
				t.Fatalf("metadata %q is a %T", k, v)
			}
		}
	}
	if res.Skipped < len(res.SkipReasons) || len(res.SkipReasons) > input.MaxSkipReasons {
		t.Fatalf("%d skipped with %d reasons", res.Skipped, len(res.SkipReasons))
	}
	for _, le := range res.SkipReasons {
		checkPlace(t, name, le)
	}
}

// checkPlace checks that le is a place in the input name.
func checkPlace(t *testing.T, name string, le *LineError) {
	if le.Path != name || le.Line < 1 || le.Col < 0 || le.Msg == "" {
		t.Fatalf("bad LineError %#v", le)
	}
}

// FuzzParquetText writes a Parquet file whose first row holds arbitrary
// text in a field's column (group) and a metadata column (tag): the
// reading holds both to UTF-8, as the text formats' strings are, and
// keeps valid text as it is.
func FuzzParquetText(f *testing.F) {
	for _, s := range [][2]string{{"g", "t"}, {"caf\xe9", "t"}, {"g", "\xff"}, {"", "é\x00"}, {"\xed\xa0\x80", "ok"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, group, tag string) {
		type row struct {
			ID    string `parquet:"id"`
			Group string `parquet:"group"`
			Tag   string `parquet:"tag"`
		}
		var buf bytes.Buffer
		if err := parquet.Write(&buf, []row{{"a", group, tag}, {"b", "g", "t"}}); err != nil {
			t.Fatal(err)
		}
		lenient := checkBothModes(t, "fuzz.parquet", buf.Bytes(), Parquet)
		_, err := Read(bytes.NewReader(buf.Bytes()), "fuzz.parquet", 0, Options{Format: Parquet})
		if !utf8.ValidString(group) || !utf8.ValidString(tag) {
			if err == nil || !strings.Contains(err.Error(), "fuzz.parquet:1: column ") || !strings.Contains(err.Error(), "invalid UTF-8") {
				t.Fatalf("text not UTF-8 read: error %v", err)
			}
			if lenient == nil || len(lenient.Trajectories) != 1 || lenient.Skipped != 1 {
				t.Fatalf("skipping: %v", lenient)
			}
			return
		}
		if err != nil || lenient == nil || lenient.Trajectories[0].Metadata["tag"] != tag {
			t.Fatalf("valid text: error %v, read %v", err, lenient)
		}
	})
}
