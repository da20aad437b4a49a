package jsonscan

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// rewrite returns the rewriter's output for input.
func rewrite(t *testing.T, input string) string {
	t.Helper()
	out, err := io.ReadAll(NewRewriter(bufio.NewReader(strings.NewReader(input)), 0))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestRewriter(t *testing.T) {
	tests := []struct{ in, out string }{
		{`{"a":NaN,"b":Infinity,"c":-Infinity,"d":-1}`, "{\"a\":\"\xffN\",\"b\":\"\xffI\",\"c\":\"\xff-\",\"d\":-1}"},
		{`[NaN,[Infinity],{"x":[-Infinity]}]`, "[\"\xffN\",[\"\xffI\"],{\"x\":[\"\xff-\"]}]"},
		{`NaN`, "\"\xffN\""},
		// Strings, escaped quotes and keys are left alone.
		{`{"NaN":"NaN Infinity","s":"\"NaN\\","t":NaN}`, "{\"NaN\":\"NaN Infinity\",\"s\":\"\\\"NaN\\\\\",\"t\":\"\xffN\"}"},
		{`{NaN:1}`, `{NaN:1}`},
		{`{"a":1,NaN:1}`, `{"a":1,NaN:1}`},
		// Only whole tokens.
		{`[Na,Inf,-Inf,-I,nan,N]`, `[Na,Inf,-Inf,-I,nan,N]`},
		// 0xFF in a string becomes an escape, except right after a backslash.
		{"[\"a\xffb\",\"\\\xff\"]", "[\"a\\ufffdb\",\"\\\xff\"]"},
		{"\xff", "\xff"},
	}
	for _, tt := range tests {
		if got := rewrite(t, tt.in); got != tt.out {
			t.Errorf("rewrite(%q) = %q, want %q", tt.in, got, tt.out)
		}
	}
}

func TestLocate(t *testing.T) {
	// Output: {"a":"\xffN","b":"\ufffd"}\n["\xff-", x]
	input := "{\"a\":NaN,\"b\":\"\xff\"}\r\n[-Infinity, x]"
	rw := NewRewriter(bufio.NewReader(strings.NewReader(input)), 3)
	out, _ := io.ReadAll(rw)
	tests := []struct {
		find      string // the first byte of the first occurrence in the output
		line, col int
	}{
		{`{`, 1, 4}, // after a 3-byte lead
		{"\xffN", 1, 9},
		{`,"b"`, 1, 12},
		{`\ufffd`, 1, 18},
		{`}`, 1, 20},
		{"\r", 1, 21},
		{`[`, 2, 1},
		{`, x`, 2, 11},
		{`x`, 2, 13},
	}
	for _, tt := range tests {
		off := strings.Index(string(out), tt.find)
		if tt.find == "\xffN" {
			off-- // the quote before it
		}
		if line, col := rw.Locate(int64(off)); line != tt.line || col != tt.col {
			t.Errorf("locate(%d) for %q = %d:%d, want %d:%d", off, tt.find, line, col, tt.line, tt.col)
		}
	}
}

// TestLocateBlankRuns: a run of blank lines (newlines with only white
// space between them) is one mark, whatever its length (a mark per
// newline held 24 bytes per byte of a file of blank lines, issue 27), and
// the lines and columns after it are counted as before.
func TestLocateBlankRuns(t *testing.T) {
	input := "\n\n \r\n\t\n" + strings.Repeat("\n", 1000) + "[NaN,\n\n  \n  x]\n\n"
	rw := NewRewriter(bufio.NewReader(strings.NewReader(input)), 0)
	out, _ := io.ReadAll(rw)
	if len(rw.loc.marks) != 4 { // the run, the replacement, a run, a run
		t.Errorf("%d marks: %+v", len(rw.loc.marks), rw.loc.marks[:min(len(rw.loc.marks), 8)])
	}
	for _, tt := range []struct {
		find      string
		line, col int
	}{
		{`[`, 1005, 1},
		{`,`, 1005, 5}, // in the input, after NaN
		{`x`, 1008, 3},
		{`]`, 1008, 4},
	} {
		off := strings.Index(string(out), tt.find)
		if line, col := rw.Locate(int64(off)); line != tt.line || col != tt.col {
			t.Errorf("locate(%d) for %q = %d:%d, want %d:%d", off, tt.find, line, col, tt.line, tt.col)
		}
	}
}
