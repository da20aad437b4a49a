package jsonscan

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// invalidCharacter is how encoding/json's syntax errors name the byte at
// fault, quoted: "invalid character 'x' looking for...".
const invalidCharacter = "invalid character '"

// ReadableSyntax returns msg, a syntax error of encoding/json about the
// first byte of rest, naming the whole character at fault when that byte
// starts a multi-byte one. encoding/json quotes the byte alone, as if it
// were a character: curly quotes pasted from a word processor read
// "invalid character 'â'", where this says "invalid character '“'
// (U+201C)", and a byte that is no UTF-8 is named as a byte.
func ReadableSyntax(msg string, rest []byte) string {
	i := strings.Index(msg, invalidCharacter)
	if len(rest) == 0 || rest[0] < utf8.RuneSelf || i < 0 {
		return msg
	}
	end := strings.IndexByte(msg[i+len(invalidCharacter):], '\'')
	if end < 0 {
		return msg
	}
	r, size := utf8.DecodeRune(rest)
	what := fmt.Sprintf("invalid character %q (%U)", r, r) // %q escapes controls
	if r == utf8.RuneError && size == 1 {
		what = fmt.Sprintf("invalid byte 0x%02x (not UTF-8)", rest[0])
	}
	return msg[:i] + what + msg[i+len(invalidCharacter)+end+1:]
}

// TextFrom returns b from offset off on, clamped to b's bounds: the offset
// of a syntax error may be past the end (an unexpected end of input).
func TextFrom(b []byte, off int64) []byte {
	return b[min(max(off, 0), int64(len(b))):]
}
