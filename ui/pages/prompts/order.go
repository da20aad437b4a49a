package prompts

import (
	"cmp"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/floatorder"
)

// nameOrder returns the positions 0 to n-1 of names in strings.Compare's
// order of their names, equal names in position order. It radix-sorts
// the names by their first seven bytes after the prefix all share
// (floatorder.Sort), then sorts each run those bytes leave tied by
// comparison: a few passes over the names, where a comparison sort makes
// many string comparisons for each.
func nameOrder(n int, name func(i int) string) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if n < 2 {
		return order
	}
	shared := sharedPrefix(n, name)
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = nameKey(name(i)[shared:])
	}
	floatorder.Sort(order, 1, func(_, i int) uint64 { return keys[i] })
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && keys[order[hi]] == keys[order[lo]] {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(order[lo:hi], func(a, b int) int {
				return cmp.Or(strings.Compare(name(a), name(b)), cmp.Compare(a, b))
			})
		}
		lo = hi
	}
	return order
}

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
