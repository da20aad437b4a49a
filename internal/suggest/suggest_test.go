package suggest

import (
	"fmt"
	"slices"
	"testing"
)

func TestNear(t *testing.T) {
	fields := []string{"accuracy", "batch", "done", "group", "id", "length", "response", "response_length", "safety", "step_count"}
	cases := []struct {
		name string
		want []string
	}{
		{"acuracy", []string{"accuracy"}},      // a deletion
		{"accurracy", []string{"accuracy"}},    // an insertion
		{"lenght", []string{"length"}},         // a transposition counts 1
		{"Accuracy", []string{"accuracy"}},     // case is ignored
		{"saftey", []string{"safety"}},         // a transposition
		{"step_cuont", []string{"step_count"}}, // ...
		{"respons_lenght", []string{"response_length"}},
		{"acc", nil},      // 5 edits from accuracy: not close
		{"reward", nil},   // nothing close
		{"accuracy", nil}, // the name itself is no suggestion
		{"grop", []string{"group"}},
		{"di", []string{"id"}}, // a transposition of a 2-letter name
		{"d", nil},             // one letter: any other is as close
		{"ID", []string{"id"}}, // ... but another case is closer
	}
	for _, c := range cases {
		if got := Near(c.name, fields); !slices.Equal(got, c.want) {
			t.Errorf("Near(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if got := Near("I", []string{"I", "id", "x"}); got != nil {
		t.Errorf("one letter: %q", got)
	}
	// Only the nearest, ties in byte order, at most three.
	if got := Near("ab", []string{"abc", "ab", "xb", "a", "abcd", "zb", "yb"}); !slices.Equal(got, []string{"a", "abc", "xb"}) {
		t.Errorf("ties: %q", got)
	}
	if got := Near("score", []string{"scores", "scored", "sc0re", "core"}); !slices.Equal(got, []string{"core", "sc0re", "scored"}) {
		t.Errorf("at most three: %q", got)
	}
}

func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "; did you mean a?"},
		{[]string{"a", "b"}, "; did you mean a or b?"},
		{[]string{"a", "b", "c"}, "; did you mean a, b or c?"},
	} {
		if got := DidYouMean(c.names); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

func TestFields(t *testing.T) {
	many := make([]string, 14)
	for i := range many {
		many[i] = fmt.Sprintf("f%d", i)
	}
	for _, c := range []struct {
		fields []string
		want   string
	}{
		{nil, ""},
		{[]string{"a", "b"}, "; the records have a, b"},
		{many, "; the records have f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11 and 2 more"},
	} {
		if got := Fields("the records have", c.fields); got != c.want {
			t.Errorf("Fields(%v) = %q, want %q", c.fields, got, c.want)
		}
	}
}
