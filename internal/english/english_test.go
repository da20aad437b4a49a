package english

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n          int
		word, want string
	}{
		{1, "group", "group"}, {0, "group", "groups"}, {2, "group", "groups"},
		{1, "entry", "entry"}, {3, "entry", "entries"},
	} {
		if got := Plural(c.n, c.word); got != c.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", c.n, c.word, got, c.want)
		}
	}
}
