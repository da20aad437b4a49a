package loaders

import (
	"encoding/binary"
	"math/bits"
)

// maxNesting is encoding/json's limit on nested arrays and objects: its
// scanner rejects text that opens more than that many at once.
const maxNesting = 10000

// validJSON reports whether b is one valid JSON value, with optional white
// space around it: exactly what encoding/json's Valid reports (the same
// grammar, no UTF-8 check inside strings, the same nesting limit), several
// times faster. TestValidJSONMatchesStd and FuzzValidJSON hold it to that.
func validJSON(b []byte) bool {
	i, ok := validValue(b, skipSpace(b), 0)
	return ok && i+skipSpace(b[i:]) == len(b)
}

// validValue checks the value that starts at b[i], inside depth open
// containers, and returns the index just past it.
func validValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; c {
	case '"':
		return validString(b, i)
	case '{':
		return validObject(b, i, depth+1)
	case '[':
		return validArray(b, i, depth+1)
	case 't':
		return validLiteral(b, i, "true")
	case 'f':
		return validLiteral(b, i, "false")
	case 'n':
		return validLiteral(b, i, "null")
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
	if depth > maxNesting {
		return i, false
	}
	i++
	i += skipSpace(b[i:])
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		var ok bool
		if i, ok = validString(b, i); !ok {
			return i, false
		}
		i += skipSpace(b[i:])
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i++
		i += skipSpace(b[i:])
		if i, ok = validValue(b, i, depth); !ok {
			return i, false
		}
		i += skipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += skipSpace(b[i:])
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// validArray checks the array that starts at b[i] (its "["), the depth-th
// open container.
func validArray(b []byte, i, depth int) (int, bool) {
	if depth > maxNesting {
		return i, false
	}
	i++
	i += skipSpace(b[i:])
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = validValue(b, i, depth); !ok {
			return i, false
		}
		i += skipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += skipSpace(b[i:])
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// validLiteral checks that b continues at i with lit.
func validLiteral(b []byte, i int, lit string) (int, bool) {
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

// validString checks the string that starts at b[i] (its opening quote)
// and returns the index just past its closing quote. Control characters
// must be escaped; any other byte, valid UTF-8 or not, may stand as is.
func validString(b []byte, i int) (int, bool) {
	i++
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character (the tests are exact about whether one is).
		for len(b)-i >= 8 {
			x := binary.LittleEndian.Uint64(b[i:])
			quote, backslash := x^(ones*'"'), x^(ones*'\\')
			special := (x - ones*0x20) | (quote - ones) | (backslash - ones)
			special &= ^x & highs
			// Bytes >= 0x80 clear their ^x bit; a quote or backslash byte
			// is 0 after the xor and then borrows, setting its high bit,
			// while ^x keeps it (both are < 0x80). A borrow may flag the
			// bytes after a special byte, never one before: the first
			// flagged byte is special.
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
		default:
			i++
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// member is one member of a JSON object: its key (quoted) and its value, as
// raw text.
type member struct{ key, value []byte }

// objectRecord is what scan records of a JSON object while checking it:
// its members and, when the value of its last member keyed "metadata"
// (without escapes) is an object, that value and its members. A walk over
// the object then need not scan the text again.
type objectRecord struct {
	members   []member
	metaValue []byte
	meta      []member
}

// scan reports, as validJSON does, whether b is one valid JSON value, and
// records its members when it is an object (else r.members is nil).
func (r *objectRecord) scan(b []byte) bool {
	r.members, r.metaValue, r.meta = r.members[:0], nil, r.meta[:0]
	i := skipSpace(b)
	if i >= len(b) || b[i] != '{' {
		r.members = nil
		return validJSON(b)
	}
	i, ok := r.object(b, i, &r.members, true)
	return ok && i+skipSpace(b[i:]) == len(b)
}

// object checks the object that starts at b[i], at depth 1 (top) or 2 (the
// metadata), as validObject does, appending its members to out.
func (r *objectRecord) object(b []byte, i int, out *[]member, top bool) (int, bool) {
	depth := 2
	if top {
		depth = 1
	}
	i++
	i += skipSpace(b[i:])
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		start := i
		var ok bool
		if i, ok = validString(b, i); !ok {
			return i, false
		}
		key := b[start:i]
		i += skipSpace(b[i:])
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i++
		i += skipSpace(b[i:])
		start = i
		if top && string(key) == `"metadata"` {
			r.metaValue = nil
			if i < len(b) && b[i] == '{' {
				r.meta = r.meta[:0]
				if i, ok = r.object(b, i, &r.meta, false); !ok {
					return i, false
				}
				r.metaValue = b[start:i]
			} else if i, ok = validValue(b, i, depth); !ok {
				return i, false
			}
		} else if i, ok = validValue(b, i, depth); !ok {
			return i, false
		}
		*out = append(*out, member{key: key, value: b[start:i]})
		i += skipSpace(b[i:])
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
			i += skipSpace(b[i:])
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}
