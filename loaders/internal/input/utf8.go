package input

import (
	"fmt"
	"unicode/utf8"
)

// FirstInvalidUTF8 returns the index of the first byte of b that is not
// part of valid UTF-8, or -1 when b is valid UTF-8.
func FirstInvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1 // not reached: b is not valid
}

// InvalidUTF8 is the message for the byte c, the first of a text that is
// not valid UTF-8. Text input is read strictly: decoding such a byte as
// U+FFFD would make distinct strings (two groups written in Latin-1) one.
func InvalidUTF8(c byte) string {
	return fmt.Sprintf("invalid UTF-8: byte 0x%02x is not UTF-8 text (a file in Latin-1 or cp1252? convert it with iconv -f cp1252 -t utf-8)", c)
}

// UTF8Error returns the error, without a path or line, for text that is not
// valid UTF-8, its column that of the first bad byte (1-based, in text),
// or nil when text is valid.
func UTF8Error(text []byte) *LineError {
	i := FirstInvalidUTF8(text)
	if i < 0 {
		return nil
	}
	return &LineError{Col: i + 1, Msg: InvalidUTF8(text[i])}
}
