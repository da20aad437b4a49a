// Package textsafe makes untrusted text (ids, responses, metadata, messages
// quoting them) safe to print on a terminal.
//
// A terminal acts on control characters: ESC starts CSI, OSC (title
// changes, OSC 52 clipboard writes), DCS and other sequences; C1 controls
// (U+0080..U+009F) are 8-bit forms of the same introducers; CR and BS
// overwrite what was printed; bidirectional overrides reorder it. textsafe
// shows every such rune escaped as visible text (ESC becomes `\x1b`), which
// neutralises the whole sequence it introduced: what follows the introducer
// is plain printable text.
package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line returns s safe to print on one line: every control character,
// newlines and tabs included, is shown escaped.
func Line(s string) string { return clean(s, false) }

// Text returns s safe to print as a block: newlines are kept, tabs become
// four spaces (so that widths stay computable), every other control
// character is shown escaped.
func Text(s string) string { return clean(s, true) }

func clean(s string, multiline bool) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case multiline && r == '\n':
			b.WriteByte('\n')
		case multiline && r == '\t':
			b.WriteString("    ")
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, isBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII: the common case, returned
// as is without allocating.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// isBidiControl reports the runes that reorder displayed text: the
// embeddings and overrides (U+202A..U+202E), the isolates (U+2066..U+2069),
// the marks (U+200E, U+200F, U+061C).
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
