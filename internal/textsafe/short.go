package textsafe

import "strconv"

// ShortRunes is how much of a value from the data a message shows: a
// field may hold a whole text.
const ShortRunes = 40

// Cut returns s's first n runes (an invalid byte counting as one, kept as
// it is) and whether that left some out.
func Cut(s string, n int) (string, bool) {
	runes := 0
	for i := range s {
		if runes == n {
			return s[:i], true
		}
		runes++
	}
	return s, false
}

// Shorten returns s's first ShortRunes runes, then "…" where it is cut:
// text from the data already in its written form (a JSON value, a CSV
// row's cells) for a message.
func Shorten(s string) string {
	if cut, more := Cut(s, ShortRunes); more {
		return cut + "…"
	}
	return s
}

// QuoteShort quotes s's first ShortRunes runes as Go does (strconv.Quote:
// every control character and invalid byte escaped), then "…" where it is
// cut: how a message names a value from the data.
func QuoteShort(s string) string { return QuoteFrom(s, 0) }

// QuoteFrom is QuoteShort from rune from of s on, with "…" before it when
// from > 0; when from leaves nothing of s, s is quoted from its start (a
// group key that is all the opening its step's keys share).
func QuoteFrom(s string, from int) string {
	start, runes := 0, 0
	for i := range s {
		if runes == from {
			start = i
			break
		}
		runes++
	}
	cut, more := Cut(s[start:], ShortRunes)
	text := strconv.Quote(cut)
	if start > 0 {
		text = "…" + text
	}
	if more {
		text += "…"
	}
	return text
}
