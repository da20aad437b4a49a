package prompts

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/floatorder"
)

// nameOrder returns the positions of names in strings.Compare's order, equal
// names in position order. It radix-sorts the names by their first seven
// bytes after the prefix all share (floatorder.Sort), then sorts each run
// those bytes leave tied by comparison: a hundred thousand names cost a
// few passes over them, not a comparison sort's dozen string comparisons
// each.
func nameOrder(names []string) []int {
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	if len(names) < 2 {
		return order
	}
	shared := sharedPrefix(names)
	floatorder.Sort(order, 1, func(_, i int) uint64 { return nameKey(names[i][shared:]) })
	for lo := 0; lo < len(order); {
		key := nameKey(names[order[lo]][shared:])
		hi := lo + 1
		for hi < len(order) && nameKey(names[order[hi]][shared:]) == key {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(order[lo:hi], func(a, b int) int {
				return cmp.Or(strings.Compare(names[a], names[b]), cmp.Compare(a, b))
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
	var b [8]byte
	copy(b[:7], s)
	b[7] = byte(min(len(s), 8))
	return binary.BigEndian.Uint64(b[:])
}

// sharedPrefix is the length of the longest prefix of every name.
func sharedPrefix(names []string) int {
	prefix := names[0]
	for _, s := range names[1:] {
		n := min(len(prefix), len(s))
		k := 0
		for k < n && prefix[k] == s[k] {
			k++
		}
		prefix = prefix[:k]
		if k == 0 {
			break
		}
	}
	return len(prefix)
}
