// Parts of this file are ported from Go's internal/strconv/ftoadbox.go:
// Copyright The Go Authors. All rights reserved. Use of this source code
// is governed by a BSD-style license that can be found in NOTICE.md.

package output

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/rewardlens/rewardlens/internal/pow10"
)

// appendShortest appends to dst the shortest decimal representation of x
// that reads back as x, laid out as strconv.AppendFloat(dst, x, 'g', -1, 64)
// lays it out, byte for byte: in %e form (d.ddde±dd) when the decimal
// exponent is below -4 or at least 6, in %f form otherwise.
//
// x must be finite: appendShortest does not handle NaN or ±Inf.
//
// When dst has room for maxShortest more bytes, appendShortest writes in
// place and may change those past the number.
//
// appendShortest exists because formatting numbers is a large part of
// writing compute's records, and strconv spends about half of its time
// laying out the digits it has found: about 60 ns a number in [0, 1), where
// appendShortest takes about 26 ns. The digits here are strconv's, found the
// same way: by the Dragonbox algorithm of Junekey Jeon, following Go's
// internal/strconv/ftoadbox.go.
func appendShortest(dst []byte, x float64) []byte {
	n := len(dst)
	if cap(dst)-n < maxShortest {
		var b [maxShortest]byte
		return append(dst, b[:formatShortest(&b, x)]...)
	}
	return dst[:n+formatShortest((*[maxShortest]byte)(dst[n:n+maxShortest]), x)]
}

// maxShortest is the length of the longest float64 in appendShortest's
// form, -2.2250738585072014e-308.
const maxShortest = 24

// formatShortest writes x to b as appendShortest appends it and returns its
// length. It may write to the rest of b.
func formatShortest(b *[maxShortest]byte, x float64) int {
	u := math.Float64bits(x)
	p := int(u >> 63) // The digits start after any sign.
	b[0] = '-'
	be := int(u>>52) & 0x7ff
	m := u & (1<<52 - 1)
	if be == 0 {
		if m == 0 {
			b[p] = '0'
			return p + 1
		}
		be = 1 // Subnormal.
	} else {
		m |= 1 << 52
	}
	d, e := dragonbox(m, be-1075)

	nd := decimalLen(d)
	dp := nd + e // Where the point is, counted from the first digit.
	switch {
	case dp < -3 || dp > 6:
		// d.ddde±dd
		if nd == 1 {
			b[p] = byte(d) + '0'
		} else {
			putDigits(b, p+1, d, nd)
			b[p] = b[p+1]
			b[p+1] = '.'
			p++
		}
		p += nd
		b[p] = 'e'
		x := dp - 1
		b[p+1] = '+'
		if x < 0 {
			b[p+1] = '-'
			x = -x
		}
		p += 2
		if x >= 100 {
			b[p] = byte(x/100) + '0'
			x %= 100
			p++
		}
		b[p] = digitPairs[2*x]
		b[p+1] = digitPairs[2*x+1]
		return p + 2
	case dp <= 0:
		// 0.000ddd
		binary.LittleEndian.PutUint64(b[p:], zeroPoint)
		putDigits(b, p+2-dp, d, nd)
		return p + 2 - dp + nd
	case dp >= nd:
		// ddd000
		putDigits(b, p, d, nd)
		binary.LittleEndian.PutUint64(b[p+nd:], zeros)
		return p + dp
	default:
		// ddd.ddd: write the digits one place on and move the first dp of
		// them, at most 6, back in front of the point.
		putDigits(b, p+1, d, nd)
		w := binary.LittleEndian.Uint64(b[p+1:])
		lo := uint64(1)<<(8*dp) - 1
		w = w&lo | '.'<<(8*dp) | w<<8&^(lo<<8|0xff)
		binary.LittleEndian.PutUint64(b[p:], w)
		return p + nd + 1
	}
}

const (
	zeroPoint = 0x3030303030302e30 // "0.000000" read as little-endian.
	zeros     = 0x3030303030303030 // "00000000" read as little-endian.
)

// digitPairs holds "00" to "99".
const digitPairs = "" +
	"00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// putDigits writes the nd decimal digits of d, 1 <= nd <= 17, to b from p
// on. When nd < 8 it may write up to 8-nd zero bytes after them.
func putDigits(b *[maxShortest]byte, p int, d uint64, nd int) {
	switch {
	case nd <= 8:
		binary.LittleEndian.PutUint64(b[p:], ascii8(uint32(d))>>(64-8*nd))
	case nd <= 16:
		hi := d / 1e8
		binary.LittleEndian.PutUint64(b[p:], ascii8(uint32(hi))>>(128-8*nd))
		binary.LittleEndian.PutUint64(b[p+nd-8:], ascii8(uint32(d-hi*1e8)))
	default:
		hi := d / 1e8
		mid := uint32(hi) // < 10^9
		top := mid / 1e8
		b[p] = byte(top) + '0'
		binary.LittleEndian.PutUint64(b[p+1:], ascii8(mid-top*1e8))
		binary.LittleEndian.PutUint64(b[p+9:], ascii8(uint32(d-hi*1e8)))
	}
}

// ascii8 returns the 8 decimal digits of v < 10^8, with leading zeros, as
// ASCII bytes read as a little-endian uint64: the first digit is the low
// byte. It splits v into two halves of 4 digits, each of those into 2 pairs
// and each pair into 2 digits, working on all the parts at once.
func ascii8(v uint32) uint64 {
	hi := v / 1e4
	x := uint64(hi) | uint64(v-hi*1e4)<<32
	y := x * 10486 >> 20 & 0x0000007f0000007f // x/100 in each 32-bit lane.
	x = y | (x-y*100)<<16
	y = x * 103 >> 10 & 0x000f000f000f000f // x/10 in each 16-bit lane.
	x = y | (x-y*10)<<8
	return x + zeros
}

// decimalLen returns the number of decimal digits of d > 0.
func decimalLen(d uint64) int {
	t := bits.Len64(d) * 1233 >> 12 // Close to log10(d).
	if d < tenTo[t] {
		return t
	}
	return t + 1
}

// tenTo[i] is 10^i.
var tenTo = [...]uint64{
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// dragonbox returns the decimal d×10^e with the fewest digits that reads
// back as the float64 m×2^e2, where m is the significand with its implicit
// bit, 0 < m < 2^53, and e2 is the exponent of its last bit. Among those it
// returns the nearest, ties to even. It is Go's dboxFtoa64: the section and
// algorithm numbers refer to Jeon's paper,
// https://github.com/jk-jeon/dragonbox/blob/d5dc40ae6a3f1a4559cda816738df2d6255b4e24/other_files/Dragonbox.pdf.
func dragonbox(m uint64, e2 int) (d uint64, e int) {
	if m == 1<<52 {
		// A power of 2 other than a subnormal: the gap below is half the
		// gap above. Algorithm 5.6.
		k := -((e2*631305 - 261663) >> 21) // -⌊e2·log10(2) - log10(4/3)⌋
		φ, β := pow10Scaled(k, e2)
		xi := (φ.Hi - φ.Hi>>54) >> (11 - β)
		zi := (φ.Hi + φ.Hi>>53) >> (11 - β)
		if e2 != 2 && e2 != 3 {
			xi++
		}
		q := zi / 10
		if xi <= q*10 {
			q, z := trimZeros(q)
			return q, 1 - k + z
		}
		y := (φ.Hi>>(10-β) + 1) / 2
		if e2 == -77 && y%2 != 0 {
			y--
		} else if y < xi {
			y++
		}
		return y, -k
	}

	// Algorithm 5.2, with κ = 2 (section 5.1.3).
	k := -mulLog10Of2(e2)
	φ, β := pow10Scaled(k+2, e2)
	zi, exact := mulPow10(uint64(m*2+1)<<β, φ)
	s, r := zi/1000, uint32(zi%1000)
	δ := uint32(φ.Hi >> (63 - β))
	if r < δ {
		if r != 0 || !exact || m%2 == 0 {
			s, z := trimZeros(s)
			return s, 1 - k + z
		}
		s--
		r = 1000
	} else if r == δ {
		parity, exact := parityPow10(m*2-1, φ, β)
		if parity || exact && m%2 == 0 {
			s, z := trimZeros(s)
			return s, 1 - k + z
		}
	}

	// Algorithm 5.4.
	D := r + 50 - δ/2
	t, ρ := D/100, D%100
	y := 10*s + uint64(t)
	if ρ == 0 {
		parity, exact := parityPow10(m*2, φ, β)
		if parity != ((D-50)%2 != 0) || exact && y%2 != 0 {
			y--
		}
	}
	return y, -k
}

// mulLog10Of2 returns ⌊x·log10(2)⌋ for |x| <= 1600.
func mulLog10Of2(x int) int {
	return x * 78913 >> 18
}

// pow10Scaled returns φ, the 128 leading bits of 10^k rounded up, and β,
// the shift that scales the significands of floats with exponent e2 for
// multiplying by φ.
func pow10Scaled(k, e2 int) (φ pow10.Uint128, β int) {
	return pow10.Ceil(k), e2 + k*108853>>15 // ⌊k·log2(10)⌋
}

// mulPow10 returns ⌊u×φ/2^128⌋ and whether the 64 bits of u×φ below those
// are zero: whether u×φ/2^128 is an integer as far as Dragonbox needs to
// know (section 5.2.1).
func mulPow10(u uint64, φ pow10.Uint128) (uint64, bool) {
	hi, lo := bits.Mul64(u, φ.Hi)
	t, _ := bits.Mul64(u, φ.Lo)
	lo, c := bits.Add64(lo, t, 0)
	return hi + c, lo == 0
}

// parityPow10 returns the parity of ⌊u×φ/2^(128-β)⌋ and whether u×φ/2^(128-β)
// is an integer as far as Dragonbox needs to know (section 5.2.1).
func parityPow10(u uint64, φ pow10.Uint128, β int) (parity, exact bool) {
	mid, lo := bits.Mul64(u, φ.Lo)
	hi := u*φ.Hi + mid
	return hi>>(64-β)&1 != 0, hi<<β|lo>>(64-β) == 0
}

// trimZeros returns x without its trailing decimal zeros, and how many
// there were. It divides by powers of 10 exactly: x×m is x/5^n when 5^n
// divides x, and otherwise large.
func trimZeros(x uint64) (uint64, int) {
	const (
		inv1e8 = 0xc767074b22e90e21 // The inverse of 5^8 mod 2^64.
		inv1e4 = 0xd288ce703afb7e91
		inv1e2 = 0x8f5c28f5c28f5c29
		inv1e1 = 0xcccccccccccccccd
	)
	if bits.RotateLeft64(x*inv1e1, -1) > math.MaxUint64/10 {
		return x, 0 // Most often.
	}
	n := 0
	for d := bits.RotateLeft64(x*inv1e8, -8); d <= math.MaxUint64/100000000; d = bits.RotateLeft64(x*inv1e8, -8) {
		x = d
		n += 8
	}
	if d := bits.RotateLeft64(x*inv1e4, -4); d <= math.MaxUint64/10000 {
		x = d
		n += 4
	}
	if d := bits.RotateLeft64(x*inv1e2, -2); d <= math.MaxUint64/100 {
		x = d
		n += 2
	}
	if d := bits.RotateLeft64(x*inv1e1, -1); d <= math.MaxUint64/10 {
		x = d
		n++
	}
	return x, n
}
