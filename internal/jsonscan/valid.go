package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// MaxNesting is encoding/json's limit on nested arrays and objects: its
// scanner rejects text that opens more than that many at once.
const MaxNesting = 10000

// Valid reports whether b is one valid JSON value, with optional white
// space around it: what encoding/json's Valid reports (the same grammar,
// the same nesting limit) with one difference, that a string must be
// valid UTF-8, as RFC 8259 and Python's json.loads require (encoding/json
// reads a bad byte as U+FFFD, so two distinct strings could become one);
// several times faster. TestValidJSONMatchesStd and FuzzValidJSON hold it
// to json.Valid(b) && utf8.Valid(b).
func Valid(b []byte) bool {
	i, ok := ValidValue(b, SkipSpace(b), 0)
	return ok && i+SkipSpace(b[i:]) == len(b)
}

// Len reports whether b is the JSON text of one array or object, as Valid
// checks it, and how many elements or members (keys as written: a key
// given twice counts twice) it holds, in the same pass.
func Len(b []byte) (n int, ok bool) {
	i := SkipSpace(b)
	switch {
	case i < len(b) && b[i] == '[':
		i, ok = validArray(b, i, 1, &n)
	case i < len(b) && b[i] == '{':
		i, ok = Object(b, i, func(_ []byte, i int) (int, bool) {
			n++
			return ValidValue(b, i, 1)
		})
	}
	if !ok || i+SkipSpace(b[i:]) != len(b) {
		return 0, false
	}
	return n, true
}

// ValidValue checks the value that starts at b[i], inside depth open
// containers, and returns the index just past it.
func ValidValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; c {
	case '"':
		return ValidString(b, i)
	case '{':
		return validObject(b, i, depth+1)
	case '[':
		return validArray(b, i, depth+1, nil)
	case 't':
		return ValidLiteral(b, i, "true")
	case 'f':
		return ValidLiteral(b, i, "false")
	case 'n':
		return ValidLiteral(b, i, "null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return validNumber(b, i)
		}
	}
	return i, false
}

// validObject checks the object that starts at b[i] (its "{"), the depth-th
// open container.
func validObject(b []byte, i, depth int) (int, bool) {
	if depth > MaxNesting {
		return i, false
	}
	return Object(b, i, func(_ []byte, i int) (int, bool) { return ValidValue(b, i, depth) })
}

// Object checks the object that starts at b[i] (its "{"), as Valid does,
// and returns the index just past it; it leaves each member's value to
// value, called with the member's key (raw, quoted) and the index where
// the value starts, which returns the index just past the value and
// whether the value is valid. Object is the one loop over an object's
// members: the checker and the loaders' record of an object's members walk
// objects with it. (The loaders' fast path through a JSONL line keeps a
// copy without the call per member: see loaders/internal/jsonread/plain.go.)
func Object(b []byte, i int, value func(key []byte, i int) (int, bool)) (int, bool) {
	i++
	i += SkipSpace(b[i:])
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		start := i
		var ok bool
		if i, ok = ValidString(b, i); !ok {
			return i, false
		}
		key := b[start:i]
		i += SkipSpace(b[i:])
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i++
		i += SkipSpace(b[i:])
		if i, ok = value(key, i); !ok {
			return i, false
		}
		i += SkipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += SkipSpace(b[i:])
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// validArray checks the array that starts at b[i] (its "["), the depth-th
// open container, adding its elements to count unless count is nil.
func validArray(b []byte, i, depth int, count *int) (int, bool) {
	if depth > MaxNesting {
		return i, false
	}
	i++
	i += SkipSpace(b[i:])
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = ValidValue(b, i, depth); !ok {
			return i, false
		}
		if count != nil {
			*count++
		}
		i += SkipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += SkipSpace(b[i:])
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// ValidLiteral checks that b continues at i with lit.
func ValidLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// validNumber checks the number that starts at b[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = skipDigits(b, i+1)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

// skipDigits returns the index of the first byte of b from i that is not a
// decimal digit.
func skipDigits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// SWAR constants: one in every byte, the high bit of every byte.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// ValidString checks the string that starts at b[i] (its opening quote)
// and returns the index just past its closing quote. Control characters
// must be escaped; any other character may stand as is, and the bytes
// that are not ASCII must be valid UTF-8.
func ValidString(b []byte, i int) (int, bool) {
	i++
	for {
		// Eight bytes at a time while none is a quote, a backslash, a
		// control character or a byte >= 0x80 (the tests are exact about
		// whether one is).
		for len(b)-i >= 8 {
			x := binary.LittleEndian.Uint64(b[i:])
			quote, backslash := x^(ones*'"'), x^(ones*'\\')
			special := ((x - ones*0x20) | (quote - ones) | (backslash - ones) | x) & highs
			// A byte >= 0x80 is flagged by its own high bit (x), and
			// subtracts without a borrow; a quote or backslash byte is 0
			// after the xor and then borrows, setting its high bit. A
			// borrow may flag the bytes after a special byte, never one
			// before: the first flagged byte is special.
			if special != 0 {
				i += bits.TrailingZeros64(special) / 8
				break
			}
			i += 8
		}
		if i >= len(b) {
			return i, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			i++
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if len(b)-i < 5 || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return i, false
				}
				i += 5
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		case c >= 0xC2 && c <= 0xDF && i+1 < len(b) && b[i+1]&0xC0 == 0x80:
			// A two-byte character (Latin accents, Greek, Cyrillic...)
			// between ASCII ones: checked here, without a call.
			i += 2
		case c >= utf8.RuneSelf:
			// A run of bytes >= 0x80 holds whole characters: no ASCII
			// byte is part of a multi-byte one.
			j := i + 1
			for j < len(b) && b[j] >= utf8.RuneSelf {
				j++
			}
			if !utf8.Valid(b[i:j]) {
				return i, false
			}
			i = j
		default:
			i++
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// SkipSpace returns the index of the first byte of b that is not JSON white
// space, len(b) if there is none.
func SkipSpace(b []byte) int {
	for i, c := range b {
		if !IsSpace(c) {
			return i
		}
	}
	return len(b)
}

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// isDigit reports whether c is a decimal digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
