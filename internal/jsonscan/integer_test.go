package jsonscan

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestParseInteger(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  error
	}{
		{"0", 0, nil},
		{"-0", 0, nil},
		{"+7", 7, nil},
		{"3.0", 3, nil},
		{"3.", 3, nil},
		{".0", 0, nil},
		{"30e-1", 3, nil},
		{"3.50e1", 35, nil},
		{"-2E+2", -200, nil},
		{"0.000e99999999999999999999", 0, nil},
		{"9223372036854775807", math.MaxInt64, nil},
		{"-9223372036854775808", math.MinInt64, nil},
		{"9223372036854775807.000", math.MaxInt64, nil},
		{"-92233720368547758.08e2", math.MinInt64, nil},
		{"3.5", 0, ErrNotInteger},
		{"3.0000000000000001", 0, ErrNotInteger},
		{"1e-99999999999999999999", 0, ErrNotInteger},
		{"", 0, ErrNotInteger},
		{"-", 0, ErrNotInteger},
		{".", 0, ErrNotInteger},
		{"1e", 0, ErrNotInteger},
		{"1e+", 0, ErrNotInteger},
		{"1x", 0, ErrNotInteger},
		{"0x10", 0, ErrNotInteger},
		{"NaN", 0, ErrNotInteger},
		{"inf", 0, ErrNotInteger},
		{" 1", 0, ErrNotInteger},
		{"9223372036854775808", 0, ErrOutOfRange},
		{"-9223372036854775809", 0, ErrOutOfRange},
		{"1e19", 0, ErrOutOfRange},
		{"1e99999999999999999999", 0, ErrOutOfRange},
		{"00000000000000000000001", 1, nil},
	}
	for _, tt := range tests {
		got, err := ParseInteger(tt.in)
		if got != tt.want || err != tt.err {
			t.Errorf("ParseInteger(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// FuzzSmallInteger checks that SmallInteger reads what it reads as
// strconv.ParseInt does, from a string or bytes, and reads every optional
// minus sign followed by 1 to maxSmallDigits digits.
func FuzzSmallInteger(f *testing.F) {
	for _, s := range []string{"0", "-0", "7", "-42", "0012", "999999999999999999", "-1000000000000000000", "1234567890123456789", "+1", "1.0", "", "-", "--1", "1e3", "1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := SmallInteger(s)
		if nb, okb := SmallInteger([]byte(s)); nb != n || okb != ok {
			t.Fatalf("SmallInteger(%q) = %d, %t; from bytes %d, %t", s, n, ok, nb, okb)
		}
		want, err := strconv.ParseInt(s, 10, 64)
		if ok && (err != nil || n != want) {
			t.Fatalf("SmallInteger(%q) = %d; strconv.ParseInt: %d, %v", s, n, want, err)
		}
		digits := strings.TrimPrefix(s, "-")
		if !ok && len(digits) >= 1 && len(digits) <= maxSmallDigits && strings.Trim(digits, "0123456789") == "" {
			t.Fatalf("SmallInteger(%q) does not read it", s)
		}
	})
}
