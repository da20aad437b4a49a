package loaders

import (
	"bufio"
	"strings"
	"testing"
)

// TestFormatTable checks that everything that names formats reads the
// table: each name and alias parses to its format, each extension selects
// it (gzipped too, for a text format) and is an input name, the error of
// an unknown name lists every name, and whether a format can be reread or
// followed by tail is the table's.
func TestFormatTable(t *testing.T) {
	for _, spec := range formats {
		for _, name := range append([]string{string(spec.format)}, spec.aliases...) {
			if f, err := ParseFormat(strings.ToUpper(name)); err != nil || f != spec.format {
				t.Errorf("ParseFormat(%q) = %q, %v; want %q", strings.ToUpper(name), f, err, spec.format)
			}
		}
		for _, ext := range spec.extensions {
			empty := bufio.NewReader(strings.NewReader(""))
			if f := detectFormat("run/step_1"+strings.ToUpper(ext), empty); f != spec.format {
				t.Errorf("detectFormat of *%s = %q, want %q", ext, f, spec.format)
			}
			if !isInputName("step_1" + ext) {
				t.Errorf("*%s is not an input name", ext)
			}
			if got := isInputName("step_1" + ext + ".gz"); got == spec.binary {
				t.Errorf("isInputName(*%s.gz) = %v, want %v", ext, got, !spec.binary)
			}
		}
		if got := spec.format.spec(); got == nil || got.format != spec.format {
			t.Errorf("%q.spec() is not its table entry", spec.format)
		}
	}
	_, err := ParseFormat("yaml")
	for _, name := range FormatNames() {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("the error of an unknown format, %v, does not list %q", err, name)
		}
	}
	if isInputName("notes.txt") || isInputName("data.parquet.gz") {
		t.Error("a file of no format, or a gzipped Parquet file, is an input name")
	}
	for f, want := range map[Format][2]bool{JSON: {true, false}, JSONL: {true, true}, CSV: {true, false}, Parquet: {false, false}} {
		if spec := f.spec(); (spec.reread != nil) != want[0] || spec.tails != want[1] {
			t.Errorf("%s: rereadable %v, tailed %v; want %v, %v", f, spec.reread != nil, spec.tails, want[0], want[1])
		}
	}
	if Format("yaml").spec() != nil || Format("").spec() != nil {
		t.Error("an unknown or empty format has a table entry")
	}
}
