package output

import (
	"fmt"
	"unicode/utf8"
)

// SafeJSON returns the JSON text b with the runes that encoding/json
// writes as they are but a terminal acts on, DEL, the C1 controls
// (U+0080..U+009F: U+009B is an 8-bit CSI) and the bidirectional controls,
// written as \u escapes instead: the same JSON value, safe to print. b must
// be valid JSON, where such runes stand only inside strings. It returns b
// itself when there is nothing to escape, the common case.
func SafeJSON(b []byte) []byte {
	first := -1
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if escapedRune(r) {
			first = i
			break
		}
		i += size
	}
	if first < 0 {
		return b
	}
	out := append(make([]byte, 0, len(b)+16), b[:first]...)
	for i := first; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if escapedRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// escapedRune reports the runes SafeJSON escapes.
func escapedRune(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
