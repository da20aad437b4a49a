package textsafe

import (
	"strings"
	"testing"
)

// TestQuoteShort: a value is quoted with Go's escapes (a control
// character, an invalid byte kept as its escape), its first ShortRunes
// runes, an invalid byte counting as one, and "…" after the quote where it
// is cut; from a rune on, "…" before it too; a value that is all the
// opening is quoted whole.
func TestQuoteShort(t *testing.T) {
	long := "é\x1b[31m" + strings.Repeat("a", 60)
	for _, c := range []struct {
		in   string
		from int
		want string
	}{
		{"", 0, `""`},
		{"1.0", 0, `"1.0"`},
		{long, 0, `"é\x1b[31m` + strings.Repeat("a", 34) + `"…`},
		{"\xff" + strings.Repeat("b", 39), 0, `"\xff` + strings.Repeat("b", 39) + `"`},
		{"\xff" + strings.Repeat("b", 40), 0, `"\xff` + strings.Repeat("b", 39) + `"…`},
		{"A\n", 2, `"A\n"`},
		{"A\nB", 2, `…"B"`},
		{"\xffé" + strings.Repeat("c", 45), 2, `…"` + strings.Repeat("c", 40) + `"…`},
	} {
		if got := QuoteFrom(c.in, c.from); got != c.want {
			t.Errorf("QuoteFrom(%q, %d) = %s, want %s", c.in, c.from, got, c.want)
		}
		if c.from == 0 {
			if got := QuoteShort(c.in); got != c.want {
				t.Errorf("QuoteShort(%q) = %s, want %s", c.in, got, c.want)
			}
		}
	}
}

// TestShorten: text already written out keeps its first ShortRunes runes,
// then "…"; a shorter text is whole.
func TestShorten(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`["` + strings.Repeat("c", 38) + `"]`, `["` + strings.Repeat("c", 38) + "…"},
		{strings.Repeat("é", 40), strings.Repeat("é", 40)},
		{strings.Repeat("é", 41), strings.Repeat("é", 40) + "…"},
	} {
		if got := Shorten(c.in); got != c.want {
			t.Errorf("Shorten(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
