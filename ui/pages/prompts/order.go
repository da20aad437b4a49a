package prompts

import (
	"cmp"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/floatorder"
	"github.com/rewardlens/rewardlens/internal/natural"
)

// nameOrder returns the positions 0 to n-1 of names in natural.Compare's
// order of their names (numbers by value: "Question 2" before
// "Question 10", as the Groups tab sorts), equal names in position order.
// It radix-sorts the names by the first seven bytes of their naturalText
// after the prefix all share (floatorder.Sort), then sorts each run those
// bytes leave tied by comparison: a few passes over the names, where a
// comparison sort makes many string comparisons for each.
func nameOrder(n int, name func(i int) string) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if n < 2 {
		return order
	}
	shared := sharedPrefix(n, name)
	// A number the shared prefix ends in is compared whole.
	first := name(0)
	for shared > 0 && isDigit(first[shared-1]) {
		shared--
	}
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = nameKey(naturalText(name(i)[shared:], 8))
	}
	floatorder.Sort(order, 1, func(_, i int) uint64 { return keys[i] })
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && keys[order[hi]] == keys[order[lo]] {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(order[lo:hi], func(a, b int) int {
				return cmp.Or(natural.Compare(name(a), name(b)), cmp.Compare(a, b))
			})
		}
		lo = hi
	}
	return order
}

// naturalText returns the first max bytes (at most) of a text whose byte
// order (strings.Compare) is natural.Compare's order of s, but for
// numbers equal but for leading zeros: each run of digits written as the
// length of its number without leading zeros, in digits ('0'+L under 9,
// else '9' and the rest's length so written), then that number. Its
// bytes are digits where s has digits, so that a number compares with
// the other bytes as its first digit does.
func naturalText(s string, max int) string {
	var b []byte
	for i := 0; i < len(s) && len(b) < max; {
		if !isDigit(s[i]) {
			b = append(b, s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		number := strings.TrimLeft(s[i:j], "0")
		length := len(number)
		for ; length >= 9; length -= 9 {
			b = append(b, '9')
		}
		b = append(b, byte('0'+length))
		b = append(b, number...)
		i = j
	}
	return string(b[:min(len(b), max)])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// nameKey orders names as strings.Compare does wherever it differs: s's
// first seven bytes, big-endian (missing ones 0), over the count of its
// bytes, capped at 8. Two names whose keys are equal have the same first
// seven bytes and either the same length under 8 (they are equal) or both
// longer than 7 bytes.
func nameKey(s string) uint64 {
	var key uint64
	for j := range min(len(s), 7) {
		key |= uint64(s[j]) << (56 - 8*j)
	}
	return key | uint64(min(len(s), 8))
}

// sharedPrefix is the length of the longest prefix of the n names.
func sharedPrefix(n int, name func(i int) string) int {
	prefix := name(0)
	for i := 1; i < n && prefix != ""; i++ {
		s := name(i)
		k := 0
		for k < min(len(prefix), len(s)) && prefix[k] == s[k] {
			k++
		}
		prefix = prefix[:k]
	}
	return len(prefix)
}
