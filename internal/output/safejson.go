package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// SafeJSON returns the JSON text b with the runes that encoding/json
// writes as they are but a terminal acts on or does not show, written as
// \u escapes instead (above U+FFFF, as a UTF-16 surrogate pair): DEL, the
// C1 controls (U+0080..U+009F: U+009B is an 8-bit CSI), the format
// characters (Unicode category Cf: zero-width spaces and joiners, the byte
// order mark, the bidirectional controls, tags), the variation selectors
// and the rest of plane 14. It is the same JSON value, safe to print, and
// hides nothing: unlike a terminal's view (internal/textsafe), no joiner
// of an emoji or a word is kept raw, since an escape here loses nothing. b
// must be valid JSON, where such runes stand only inside strings. It
// returns b itself when there is nothing to escape, the common case.
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
		switch {
		case !escapedRune(r):
			out = append(out, b[i:i+size]...)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	return out
}

// MarshalJSON returns v as json.MarshalIndent(v, "", indent) writes it
// (json.Marshal when indent is ""), with <, > and & kept raw: they are
// safe to print, and a grep for "<|im_start|>" finds them; then made safe
// to print by SafeJSON.
func MarshalJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return SafeJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// escapedRune reports the runes SafeJSON escapes.
func escapedRune(r rune) bool {
	if r < 0x7f {
		return false
	}
	return r <= 0x9f || unicode.Is(unicode.Cf, r) ||
		(r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0000 && r <= 0xeffff)
}
