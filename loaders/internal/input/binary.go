package input

import (
	"bufio"
	"fmt"
	"unicode/utf8"
)

// sniffLen is how much of the start of an input CheckText looks at, at
// most.
const sniffLen = 8 << 10

// CheckText fails when the input starts with binary data (an image, a
// Parquet file given as text, a model checkpoint) rather than text, so that
// the error says so instead of quoting the first odd byte as a syntax
// error. Binary is a NUL byte, which none of the text formats holds, or a
// quarter of the bytes being neither UTF-8 nor printable. ESC is not counted:
// hostile but textual data is read, and made safe when shown. Only what the
// first read brought is looked at, so that a slow stream is not waited for.
// A text that goes on from one read before (Resumed) is not looked at.
func (l *Loader) CheckText(br *bufio.Reader) error {
	if l.Resumed {
		return nil
	}
	if _, err := br.Peek(1); err != nil {
		return nil // empty, or a read error that reading reports
	}
	head, _ := br.Peek(min(br.Buffered(), sniffLen))
	bad, first := 0, -1
	for i := 0; i < len(head); {
		r, size := utf8.DecodeRune(head[i:])
		if r == 0 {
			return l.binaryError(head, i)
		}
		if isBinaryRune(r, size) && (r != utf8.RuneError || utf8.FullRune(head[i:])) {
			bad++
			if first < 0 {
				first = i
			}
		}
		i += size
	}
	if bad*4 > len(head) {
		return l.binaryError(head, first)
	}
	return nil
}

// isBinaryRune reports a rune that text does not hold: a byte that is no
// UTF-8, or a C0 control other than white space and ESC, or DEL.
func isBinaryRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' || r == 0x1b:
		return false
	}
	return r < 0x20 || r == 0x7f
}

// binaryError is the error for binary data at offset off of head.
func (l *Loader) binaryError(head []byte, off int) *LineError {
	line, col := 1, 1
	for _, c := range head[:off] {
		col++
		if c == '\n' {
			line, col = line+1, 1
		}
	}
	msg := fmt.Sprintf("binary data (byte 0x%02x), not JSON, JSONL or CSV text", head[off])
	return l.ErrorAt(line, col, msg)
}
