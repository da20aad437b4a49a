package output

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkShortest reports whether appendShortest formats x as strconv does,
// both in place, in buf, which must have room for 2*maxShortest bytes, and
// into a new slice, failing t if not.
func checkShortest(t *testing.T, buf []byte, x float64) bool {
	t.Helper()
	want := strconv.AppendFloat(buf[:0], x, 'g', -1, 64)
	n := len(want)
	inPlace := appendShortest(want, x)
	grown := appendShortest(nil, x)
	if string(inPlace[n:]) != string(want) || string(grown) != string(want) {
		t.Errorf("appendShortest(%#016x) = %s in place, %s grown, want %s", math.Float64bits(x), inPlace[n:], grown, want)
		return false
	}
	return true
}

// TestAppendShortestEdges checks hand-picked values: zeros, extremes,
// integers, the %e/%f switch at exponents -5/-4 and 5/6, values that round
// to powers of 10, and every power of 2 and 10 with its neighbours.
func TestAppendShortestEdges(t *testing.T) {
	xs := []float64{
		0, math.Copysign(0, -1), 5e-324, -5e-324, math.SmallestNonzeroFloat64,
		0x1p-1022, math.Nextafter(0x1p-1022, 0), 2.2250738585072014e-308,
		math.MaxFloat64, -math.MaxFloat64, math.Nextafter(math.MaxFloat64, 0),
		1e21, 1e20, 999999999999999999999, 123456789012345680000, 1e22, 1e23,
		1e-4, 1e-5, 0.0001, 0.00001, 9.999999999999999e-5, 9.999999999999999e-6,
		0.00012345678901234567, 0.000012345678901234567,
		1e5, 1e6, 999999, 999999.9, 999999.9999999999, 1234567, 123456.7,
		100000.5, 120000, 1.5e-5, 1.5e-4,
		0.1, 0.2, 0.3, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 0.7342, -1.2345678901234567,
		3, 1e-7, 2.5e+21, 0.5, 0.25, 1.5, 9.5, 99.5, 0.95, 0.995,
		9.999999999999999, 99.99999999999999, 0.9999999999999999,
		0.09999999999999999, 9.999999999999999e22, 9.999999999999998e22,
		1<<53 - 1, 1 << 53, 1<<53 + 2, 1 << 63, 1 << 64, 18446744073709549568,
		123456789, 1234567890123456789, 12345678901234567, 1234567890123456,
		4.35, 2.675, 1.005, 5e-310, 1.7976931348623157e308, 4.9406564584124654e-324,
		0x1p-1074 * 3, 0x1.fffffffffffffp-1023, 0x1.0000000000001p0, 0x1.fffffffffffffp0,
		1.7800590868057611e-307, 2.9802322387695312e-08, 8.41e21, 9007199254740993,
	}
	for i := int64(-1000); i <= 1000; i++ {
		xs = append(xs, float64(i))
	}
	for e := -1074; e <= 1023; e++ {
		xs = append(xs, math.Ldexp(1, e), math.Ldexp(3, e-1), math.Ldexp(-1, e))
	}
	for e := -323; e <= 308; e++ {
		xs = append(xs, math.Pow10(e), -math.Pow10(e))
	}
	buf := make([]byte, 0, 2*maxShortest)
	for _, x := range xs {
		for _, y := range []float64{x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1))} {
			if !math.IsInf(y, 0) {
				checkShortest(t, buf, y)
			}
		}
	}
}

// TestAppendShortestRandom compares appendShortest with strconv on random
// bit patterns, uniform values in [0, 1) and random integers.
func TestAppendShortestRandom(t *testing.T) {
	n := 1 << 20
	if testing.Short() {
		n = 1 << 16
	}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 0, 2*maxShortest)
	for _, c := range []struct {
		name string
		n    int
		x    func() float64
	}{
		{"bits", n, func() float64 { return math.Float64frombits(rng.Uint64()) }},
		{"uniform", n / 4, rng.Float64},
		{"signed", n / 16, func() float64 { return 2e3*rng.Float64() - 1e3 }},
		{"int", n / 16, func() float64 { return float64(int64(rng.Uint64()) >> rng.IntN(64)) }},
	} {
		for checked, failed := 0, 0; checked < c.n; {
			x := c.x()
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			checked++
			if !checkShortest(t, buf, x) {
				if failed++; failed == 10 {
					t.Fatalf("%s: too many failures", c.name)
				}
			}
		}
	}
}

// TestAppendShortestAppends checks that appendShortest keeps what dst
// holds, whether it grows dst or not.
func TestAppendShortestAppends(t *testing.T) {
	const head = `{"x":`
	for _, x := range []float64{-2.2250738585072014e-308, 0.5, -123456.7} {
		want := head + strconv.FormatFloat(x, 'g', -1, 64)
		for _, c := range []int{len(head), len(head) + 1, len(head) + maxShortest - 1, len(head) + maxShortest, 64} {
			dst := append(make([]byte, 0, c), head...)
			if got := appendShortest(dst, x); string(got) != want {
				t.Errorf("appendShortest(%q with capacity %d, %g) = %q, want %q", dst, c, x, got, want)
			}
		}
	}
}

// FuzzAppendShortest compares appendShortest with strconv on any finite
// float64, given by its bits.
func FuzzAppendShortest(f *testing.F) {
	for _, x := range []float64{0, 1, -1, 0.1, 1e21, 1e-5, 5e-324, math.MaxFloat64, 0x1p-1022, 123456.7, 1234567} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		if x := math.Float64frombits(bits); !math.IsNaN(x) && !math.IsInf(x, 0) {
			checkShortest(t, make([]byte, 0, 2*maxShortest), x)
		}
	})
}

// BenchmarkAppendShortest formats uniform values in [0, 1) and a mix like
// compute's rewards, scores and crowding distances, by appendShortest and,
// for comparison, by strconv in 'g' and 'e' form.
func BenchmarkAppendShortest(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	uniform := make([]float64, 1024)
	for i := range uniform {
		uniform[i] = rng.Float64()
	}
	mixed := make([]float64, 1024)
	for i := range mixed {
		switch i % 8 {
		case 0, 1, 2:
			mixed[i] = rng.Float64()
		case 3:
			mixed[i] = float64(rng.IntN(10000)) / 10000
		case 4:
			mixed[i] = 4*rng.Float64() - 2
		case 5:
			mixed[i] = float64(rng.IntN(8))
		case 6:
			mixed[i] = []float64{0, 1e-7, 2.5e21, math.MaxFloat64}[rng.IntN(4)]
		case 7:
			mixed[i] = math.Float64frombits(rng.Uint64() &^ (1 << 62))
		}
	}
	buf := make([]byte, 0, 64)
	for _, set := range []struct {
		name string
		xs   []float64
	}{{"uniform", uniform}, {"mixed", mixed}} {
		b.Run(set.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				buf = appendShortest(buf[:0], set.xs[i%len(set.xs)])
			}
		})
		b.Run(set.name+"/strconv-g", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				buf = strconv.AppendFloat(buf[:0], set.xs[i%len(set.xs)], 'g', -1, 64)
			}
		})
		b.Run(set.name+"/strconv-e", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				buf = strconv.AppendFloat(buf[:0], set.xs[i%len(set.xs)], 'e', -1, 64)
			}
		})
	}
}
