package prompts

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/internal/natural"
)

// TestNameOrderAsNaturalCompare: nameOrder orders names as a stable sort by
// natural.Compare does, on the cases its key must get right (a name a
// prefix of another, NUL bytes, names of exactly seven and eight bytes
// after the shared prefix, equal names, bytes above 0x7f, numbers of
// other lengths, leading zeros, a shared prefix ending in a number) and on
// random names sharing a prefix.
func TestNameOrderAsNaturalCompare(t *testing.T) {
	stable := func(names []string) []int {
		order := make([]int, len(names))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return natural.Compare(names[a], names[b]) })
		return order
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]string, 5000)
	for i := range random {
		b := []byte("system: ")
		for range rng.IntN(12) {
			b = append(b, "ab\x00\xffz019"[rng.IntN(8)])
		}
		random[i] = string(b)
	}
	for _, names := range [][]string{
		{},
		{"only"},
		{"b", "a"},
		{"ab", "a", "a\x00", "", "a\x00\x00", "a"},
		{"p abcdefg", "p abcdefgh", "p abcdef", "p abcdefg\x00", "p abcdefgh", "p abcdefga"},
		{"é", "z", "e", "\xff", "\x7f"},
		{"g10", "g2", "g1", "g100000", "g99999", "g1000000", "g10000000"},
		{"Question 0", "Question 100", "Question 10", "Question 1", "Question 2", "Question 010", "Question 1a", "Question 1 "},
		{"12345678901", "999999999", "1234567890", "0", "000", "", "a", "9"},
		random,
	} {
		got, want := nameOrder(len(names), func(i int) string { return names[i] }), stable(names)
		if !slices.Equal(got, want) {
			t.Errorf("nameOrder(%q) = %v, want %v", names[:min(len(names), 8)], got[:min(len(got), 8)], want[:min(len(want), 8)])
		}
	}
}

// TestNameKeyOrder: nameKey's order is strings.Compare's on names that
// differ in their first seven bytes or in a length under 8, by hand.
func TestNameKeyOrder(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"", "\x00"},
		{"a", "a\x00"},
		{"a", "ab"},
		{"abcdefg", "abcdefg\x00"}, // 7 bytes, then 8
		{"abcdeff\xff", "abcdefg"},
		{"\x7f", "\x80"},
	} {
		if ka, kb := nameKey(c.a), nameKey(c.b); cmp.Compare(ka, kb) != -1 {
			t.Errorf("nameKey(%q) = %#x, nameKey(%q) = %#x: want the first smaller", c.a, ka, c.b, kb)
		}
	}
	if ka, kb := nameKey("abcdefgh"), nameKey("abcdefgz"); ka != kb {
		t.Errorf("names equal in 7 bytes, both longer: keys %#x and %#x, want equal (the tie is broken by comparison)", ka, kb)
	}
}

// BenchmarkNameOrder sorts 131,072 names "g0" to "g131071", the groups of
// scripts/bench-dashboard.sh's run.
func BenchmarkNameOrder(b *testing.B) {
	names := make([]string, 1<<17)
	for i := range names {
		names[i] = fmt.Sprintf("g%d", i)
	}
	for b.Loop() {
		nameOrder(len(names), func(i int) string { return names[i] })
	}
}
