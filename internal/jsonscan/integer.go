package jsonscan

import (
	"errors"
	"strconv"
)

var (
	ErrNotInteger = errors.New("must be an integer")
	ErrOutOfRange = errors.New("must be an integer in the 64-bit range")
)

// ParseInteger parses a decimal number with an integral value, exactly: 3,
// +3, -3, 3.0, 3.50e1 and 3e2 are integers (Python and pandas often write
// integers as floats), 3.5 and 3.0000000000000001 are not, and nothing is
// rounded. The error is ErrNotInteger or ErrOutOfRange.
func ParseInteger(s string) (int64, error) {
	if n, ok := SmallInteger(s); ok {
		return n, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	d, ok := parseDecimal(s)
	if !ok {
		return 0, ErrNotInteger
	}
	return d.integer()
}

// maxSmallDigits is how many digits SmallInteger reads: any 18 fit an
// int64.
const maxSmallDigits = 18

// SmallInteger returns the value of s and true when s is an optional minus
// sign and 1 to 18 decimal digits, as batches and step counts are usually
// written: what strconv.ParseInt returns for it, without ParseInt's
// handling of bases, signs, underscores and overflow, which was most of
// the cost of reading a JSONL line's integers (FuzzSmallInteger compares
// the two).
func SmallInteger[T string | []byte](s T) (int64, bool) {
	digits := s
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		digits = s[1:]
	}
	if len(digits) == 0 || len(digits) > maxSmallDigits {
		return 0, false
	}
	var n int64
	for i := range len(digits) {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// decimal is the number sign digits × 10^exp.
type decimal struct {
	sign   string // "" or "-"
	digits string // no leading or trailing zeros; "" for 0
	exp    int64
}

// maxExponent bounds the exponents parseDecimal reads exactly; beyond it,
// only whether the number is zero, too large or a fraction matters.
const maxExponent = 1 << 40

// parseDecimal parses [+-]digits[.digits][(e|E)[+-]digits], with at least
// one digit in the mantissa.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			d.sign = "-"
		}
		s = s[1:]
	}
	intPart, s := leadingDigits(s)
	var frac string
	if s != "" && s[0] == '.' {
		frac, s = leadingDigits(s[1:])
	}
	if intPart == "" && frac == "" {
		return d, false
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		exp, ok := parseExponent(s[1:])
		if !ok {
			return d, false
		}
		d.exp = exp
		s = ""
	}
	if s != "" {
		return d, false
	}
	d.digits = intPart + frac
	d.exp -= int64(len(frac))
	d.normalize()
	return d, true
}

// normalize strips the leading and trailing zeros of d.digits.
func (d *decimal) normalize() {
	i := 0
	for i < len(d.digits) && d.digits[i] == '0' {
		i++
	}
	d.digits = d.digits[i:]
	for len(d.digits) > 0 && d.digits[len(d.digits)-1] == '0' {
		d.digits = d.digits[:len(d.digits)-1]
		d.exp++
	}
}

// integer returns d as an int64.
func (d decimal) integer() (int64, error) {
	switch {
	case d.digits == "":
		return 0, nil
	case d.exp < 0:
		return 0, ErrNotInteger
	case int64(len(d.digits))+d.exp > 19: // more digits than any int64
		return 0, ErrOutOfRange
	}
	text := d.sign + d.digits
	for range d.exp {
		text += "0"
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, ErrOutOfRange
	}
	return n, nil
}

// leadingDigits splits s after its leading decimal digits.
func leadingDigits(s string) (digits, rest string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

// parseExponent parses [+-]digits, saturating at ±maxExponent.
func parseExponent(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	digits, rest := leadingDigits(s)
	if digits == "" || rest != "" {
		return 0, false
	}
	var e int64
	for _, c := range digits {
		e = min(e*10+int64(c-'0'), maxExponent)
	}
	if neg {
		e = -e
	}
	return e, true
}
