// Parts of this file are ported from Go's internal/strconv/atofeisel.go:
// Copyright The Go Authors. All rights reserved. Use of this source code
// is governed by a BSD-style license that can be found in NOTICE.md.

package jsonscan

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"

	"github.com/rewardlens/rewardlens/internal/pow10"
)

// ParseFloat returns the value of a valid decimal number. A number too large
// for a float64 is an infinity, and one too small is 0 or subnormal, as
// Python's json module reads them.
func ParseFloat(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64) // ErrRange comes with ±Inf or 0
	return f
}

// maxMantissaDigits is how many significant digits number accumulates:
// any 19 digits fit a uint64.
const maxMantissaDigits = 19

// number checks the JSON number that starts at b[i], as validNumber does,
// and returns the index just past it and its value, the one ParseFloat
// returns. It reads the digits once, into a uint64 that decimalToFloat
// turns into the value; numbers with more digits, or that decimalToFloat
// cannot convert quickly, go to strconv.ParseFloat.
//
// It does the work of validNumber and ParseFloat in one pass over the
// digits, for the metadata numbers of plain lines (see parsePlain), where
// the two passes were a good part of the cost of a line.
func Number(b []byte, i int) (int, float64, bool) {
	start := i
	neg := b[i] == '-'
	if neg {
		i++
	}
	var (
		mantissa uint64
		digits   int // significant digits read; mantissa holds up to 19
		exp10    int // the value is mantissa × 10^exp10, when exact
	)
	digit := func(c byte) {
		if digits < maxMantissaDigits {
			mantissa = mantissa*10 + uint64(c-'0')
		}
		digits++ // beyond maxMantissaDigits, strconv reads the number
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for ; i < len(b) && isDigit(b[i]); i++ {
			digit(b[i])
		}
	default:
		return i, 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		first := i
		if mantissa == 0 { // leading zeros, not significant digits
			for i < len(b) && b[i] == '0' {
				i++
				exp10--
			}
		}
		for digits+8 <= maxMantissaDigits {
			v, ok := eightDigits(b[i:])
			if !ok {
				break
			}
			mantissa = mantissa*100_000_000 + v
			digits += 8
			exp10 -= 8
			i += 8
		}
		for ; i < len(b) && isDigit(b[i]); i++ {
			digit(b[i])
			exp10--
		}
		if i == first {
			return i, 0, false
		}
	}
	exact := digits <= maxMantissaDigits // so far
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		expNeg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			expNeg = b[i] == '-'
			i++
		}
		first, e := i, 0
		for ; i < len(b) && isDigit(b[i]); i++ {
			if e < 1000 { // beyond, the value is 0 or infinite: strconv says which
				e = e*10 + int(b[i]-'0')
			}
		}
		if i == first {
			return i, 0, false
		}
		if e >= 1000 {
			exact = false
		}
		if expNeg {
			e = -e
		}
		exp10 += e
	}
	if exact {
		if f, ok := decimalToFloat(mantissa, exp10, neg); ok {
			return i, f, true
		}
	}
	return i, ParseFloat(string(b[start:i])), true
}

// eightDigits returns the value of the eight decimal digits b starts
// with, all at once (after Lemire's fast_float), or false when b does not
// start with eight digits.
func eightDigits(b []byte) (uint64, bool) {
	if len(b) < 8 {
		return 0, false
	}
	x := binary.LittleEndian.Uint64(b)
	// A byte is a digit when its high half is 3, and still is with 6 added.
	if x&0xF0F0F0F0F0F0F0F0|(x+0x0606060606060606)&0xF0F0F0F0F0F0F0F0>>4 != 0x3333333333333333 {
		return 0, false
	}
	x -= 0x3030303030303030
	x = x*10 + x>>8 // each other byte holds two digits' value
	// Then the four pairs into one number: the pairs at bytes 0 and 4 by
	// 10^6 and 10^2, those at bytes 2 and 6 by 10^4 and 1, summed in the
	// high half.
	x = ((x&0x000000FF000000FF)*(100+1_000_000<<32) + (x>>16&0x000000FF000000FF)*(1+10_000<<32)) >> 32
	return x & 0xFFFFFFFF, true
}

// exactPowersOfTen are the powers of ten a float64 holds exactly.
var exactPowersOfTen = [...]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
}

// decimalToFloat returns mantissa × 10^exp10, negated when neg, rounded to
// the nearest float64 as strconv.ParseFloat rounds it, and whether it
// could: when mantissa fits 53 bits and exp10 is that of an exact power of
// ten, by one correctly rounded product or quotient of exact operands
// (Clinger's fast path), else by the Eisel-Lemire algorithm, as strconv
// does. It fails for exponents out of eiselLemire's range, and
// where Eisel-Lemire cannot decide.
//
// strconv.ParseFloat reads the digits again, branching on what Go syntax
// allows and JSON does not; for metadata numbers that was a tenth of the
// cost of reading a line.
func decimalToFloat(mantissa uint64, exp10 int, neg bool) (float64, bool) {
	if mantissa <= 1<<53 && exp10 >= -22 && exp10 <= 22 {
		f := float64(mantissa)
		if exp10 < 0 {
			f /= exactPowersOfTen[-exp10]
		} else {
			f *= exactPowersOfTen[exp10]
		}
		if neg {
			f = -f
		}
		return f, true
	}
	if exp10 < minExp10 || exp10 > maxExp10 {
		return 0, false
	}
	return eiselLemire(mantissa, exp10, neg)
}

// The exponents of ten that eiselLemire takes: those of numbers with 17
// significant digits between about 1e-47 and 1e80. (Its table, pow10's,
// covers more, but outside this range strconv is left to decide.)
const (
	minExp10 = -64
	maxExp10 = 64
)

// eiselLemire returns mantissa × 10^exp10, negated when neg, as
// strconv.ParseFloat rounds it, for exp10 from minExp10 to maxExp10, and
// whether it could tell: it cannot near a halfway point. It is strconv's
// eiselLemire64 (internal/strconv/atofeisel.go, after
// https://nigeltao.github.io/blog/2020/eisel-lemire.html), whose comments
// name the sections of that post.
func eiselLemire(mantissa uint64, exp10 int, neg bool) (float64, bool) {
	// Exp10 Range.
	if mantissa == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	pow := pow10.Floor(exp10)
	exp2 := 1 + (exp10*108853)>>15 // 1 + ⌊exp10 × log2(10)⌋ in this range

	// Normalization.
	clz := bits.LeadingZeros64(mantissa)
	mantissa <<= uint(clz)
	retExp2 := uint64(exp2+63+1023) - uint64(clz)

	// Multiplication.
	xHi, xLo := bits.Mul64(mantissa, pow.Hi)

	// Wider Approximation.
	if xHi&0x1FF == 0x1FF && xLo+mantissa < mantissa {
		yHi, yLo := bits.Mul64(mantissa, pow.Lo)
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+mantissa < mantissa {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}

	// Shifting to 54 Bits.
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb

	// Half-way Ambiguity.
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false
	}

	// From 54 to 53 Bits.
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2++
	}
	// No subnormal or infinite float64 is in the range of exp10, which
	// spares strconv's check of retExp2.
	retBits := retExp2<<52 | retMantissa&(1<<52-1)
	if neg {
		retBits |= 1 << 63
	}
	return math.Float64frombits(retBits), true
}
