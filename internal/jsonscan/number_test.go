package jsonscan

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// checkNumber checks that number reads s as validNumber checks it and as
// ParseFloat reads it, to the bit.
func checkNumber(t *testing.T, s string) {
	t.Helper()
	b := []byte(s)
	if len(b) == 0 || (b[0] != '-' && !isDigit(b[0])) {
		return // number is only called on such bytes
	}
	end, f, ok := Number(b, 0)
	wantEnd, wantOK := validNumber(b, 0)
	if end != wantEnd || ok != wantOK {
		t.Fatalf("Number(%q) ends at %d, %v; validNumber at %d, %v", s, end, ok, wantEnd, wantOK)
	}
	if !ok {
		return
	}
	want := ParseFloat(s[:end])
	if math.Float64bits(f) != math.Float64bits(want) {
		t.Fatalf("Number(%q) = %v (%#x), ParseFloat says %v (%#x)", s, f, math.Float64bits(f), want, math.Float64bits(want))
	}
}

func TestNumberCases(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "0.0", "-0.0", "1", "-1", "1E5", "1e+5", "1e-5", "1e-400", "-1e-400", "1e400", "-1e400",
		"0e999999999999", "1e0000000000000000000001", "00", "01", "-", "1.", ".5", "1e", "1e+", "-a", "1.5x",
		"0.5118216247002567", "0.14415961271963373", "9007199254740992", "9007199254740993", "9007199254740993.0",
		"18446744073709551615", "18446744073709551616", "1844674407370955161.5", "99999999999999999999",
		"1e22", "1e23", "123456789e-22", "1e-22", "4.9406564584124654e-324", "2.2250738585072011e-308",
		"2.2250738585072014e-308", "1.7976931348623157e308", "1.7976931348623159e308",
		"0.1e-63", "1e-64", "1e-65", "1e64", "1e65", "123456789012345678e47",
		"0.000000000000000000000000000000000000001", "100000000000000000000000", "1000000000000000000000000000000",
		"7.0064923216240854e-46", "8.589973e9", "9.5e-1", "0.30000000000000004",
		"9007199254740991.5", "9007199254740991.9", "18014398509481983.9", "1.8446744073709551615e83", "9999999999999999999e64",
		"1000000000000000000e-64", "1e-63", "0.1234567:", "0.1234567/", "0.12345678/9", "0.1234567\xff", "0.00000000123456789",
		"0.000000000000000000000000", "1.2345678901234567890123", "0.1234567812345678e5",
	} {
		checkNumber(t, s)
	}
}

// TestNumberMatchesParseFloat checks number on numbers written every way
// Python and Go write floats, and on random digits and exponents.
func TestNumberMatchesParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300_000 {
		f := math.Float64frombits(rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		checkNumber(t, strconv.FormatFloat(f, 'g', -1, 64))
		checkNumber(t, strconv.FormatFloat(f, 'e', rng.IntN(20), 64))
		u := rng.Float64() * math.Pow(10, float64(rng.IntN(60)-30))
		checkNumber(t, strconv.FormatFloat(u, 'g', -1, 64))
		checkNumber(t, strconv.FormatFloat(u, 'f', -1, 64))
		checkNumber(t, strconv.FormatFloat(u, 'g', 17, 64))

		var b strings.Builder
		if rng.IntN(2) == 0 {
			b.WriteByte('-')
		}
		b.WriteString(strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10))
		if rng.IntN(2) == 0 {
			b.WriteString("." + strings.Repeat("0", rng.IntN(4)) + strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10))
		}
		if rng.IntN(2) == 0 {
			b.WriteString("e" + strconv.Itoa(rng.IntN(700)-350))
		}
		checkNumber(t, b.String())
	}
}

func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0.5118216247002567", "-1E5", "1e-400", "123456789012345678901", "0.1e-63", "-0"} {
		f.Add(s)
	}
	f.Fuzz(checkNumber)
}
