package english

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n          int
		word, want string
	}{
		{1, "group", "group"}, {0, "group", "groups"}, {2, "group", "groups"},
		{1, "entry", "entry"}, {3, "entry", "entries"},
		{1, "batch", "batch"}, {2, "batch", "batches"}, {0, "index", "indexes"},
	} {
		if got := Plural(c.n, c.word); got != c.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", c.n, c.word, got, c.want)
		}
	}
}

func TestVerb(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, "has"}, {0, "have"}, {2, "have"}} {
		if got := Verb(c.n, "has", "have"); got != c.want {
			t.Errorf("Verb(%d, has, have) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestList(t *testing.T) {
	for _, c := range []struct {
		items []string
		want  string
	}{
		{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"}, {[]string{"a", "b", "c", "d"}, "a, b, c and d"},
	} {
		if got := List(c.items); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.items, got, c.want)
		}
	}
	if got := Join([]string{"1", "10", "11"}, "or"); got != "1, 10 or 11" {
		t.Errorf("Join with or = %q, want 1, 10 or 11", got)
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		share float64
		want  string
	}{
		{0, "0%"}, {1, "100%"}, {0.37, "37%"}, {0.994, "99%"}, {1.5, "150%"},
		// A share strictly between 0 and 1 never reads as none or all.
		{0.99555, "99.6%"}, {0.996, "99.6%"}, {0.9996, ">99.9%"},
		{0.004, "0.4%"}, {0.0004, "<0.1%"},
	} {
		if got := Percent(c.share); got != c.want {
			t.Errorf("Percent(%v) = %q, want %q", c.share, got, c.want)
		}
	}
}
