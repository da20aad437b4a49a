// Package jsontest writes random JSON text for the tests of the loaders
// and their JSON machinery.
package jsontest

import (
	"math/rand/v2"
	"strings"
)

// Value writes a random JSON value, with random white space, of at
// most depth levels.
func Value(rng *rand.Rand, b *strings.Builder, depth int) {
	ws := func() {
		for rng.IntN(4) == 0 {
			b.WriteByte(" \t\r\n"[rng.IntN(4)])
		}
	}
	ws()
	switch k := rng.IntN(9); {
	case k == 0 && depth > 0:
		b.WriteByte('{')
		for i, n := 0, rng.IntN(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			String(rng, b)
			ws()
			b.WriteByte(':')
			Value(rng, b, depth-1)
		}
		ws()
		b.WriteByte('}')
	case k == 1 && depth > 0:
		b.WriteByte('[')
		for i, n := 0, rng.IntN(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			Value(rng, b, depth-1)
		}
		ws()
		b.WriteByte(']')
	case k <= 3:
		String(rng, b)
	case k <= 6:
		numbers := []string{"0", "-0", "12", "-3.25", "1e9", "2.5E-3", "6.02e+23", "10", "0.0001"}
		b.WriteString(numbers[rng.IntN(len(numbers))])
	default:
		b.WriteString([]string{"true", "false", "null"}[rng.IntN(3)])
	}
	ws()
}

// String writes a random JSON string, mostly valid, with escapes, UTF-8,
// a byte that is not UTF-8 and, rarely, a control character.
func String(rng *rand.Rand, b *strings.Builder) {
	pieces := []string{"a", "hello world ", `\"`, `\\`, `\/`, `\n`, `\u00e9`, "é", "\xff", "0123456789abcdef", "\t", "\x01"}
	b.WriteByte('"')
	for n := rng.IntN(6); n > 0; n-- {
		p := pieces[rng.IntN(len(pieces))]
		if (p == "\t" || p == "\x01") && rng.IntN(4) > 0 {
			continue // mostly valid strings
		}
		b.WriteString(p)
	}
	b.WriteByte('"')
}
