// Package floatorder sorts positions by float64 keys in linear time: a
// least-significant-digit radix sort on the keys' bits, which the
// dashboard and the rank statistics use on a million values, where a
// comparison sort calling a function per comparison costs tens of times
// more.
package floatorder

import (
	"math"
	"slices"
)

// Key returns the uint64 whose unsigned order is cmp.Compare's order of
// float64 values: NaN first, then -Inf up to +Inf, -0 equal to +0.
func Key(x float64) uint64 {
	switch {
	case x != x: // NaN
		return 0
	case x == 0:
		x = 0 // -0 as +0
	}
	// A negative value's bits flipped, another's sign bit set: by a mask
	// rather than a branch, which signs at random would mispredict half
	// the time.
	b := math.Float64bits(x)
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

// Descending returns the key ordering x before the smaller values: NaN
// last, as cmp.Compare(b, a) orders them.
func Descending(x float64) uint64 { return ^Key(x) }

// entry is a position with its key.
type entry struct {
	key uint64
	at  int
}

// Sort sorts order stably by keys: by the first key, ties by the second,
// and so on; positions equal in every key keep their order. key(k, i) is
// key k of position i (from Key or Descending). The first key is sorted by
// radix (by comparison below radixMin positions, each key computed once);
// only the runs it leaves tied are sorted by the next keys, which for
// values that seldom tie costs little more than one key.
func Sort(order []int, keys int, key func(k, i int) uint64) {
	if n := len(order); n <= smallSort {
		// A group's members: buffers on the stack, not two allocations
		// per group.
		var a, b [smallSort]entry
		sortWith(order, keys, key, a[:n], b[:n])
		return
	}
	var s Sorter
	s.Sort(order, keys, key)
}

// ByPairs returns the positions of the pairs (x[j], y[j]) in the order of
// x, then y, then position (Key's order: NaN first). x and y are as long.
func ByPairs(x, y []float64) []int {
	order := make([]int, len(x))
	for j := range order {
		order[j] = j
	}
	Sort(order, 2, func(k, j int) uint64 {
		if k == 0 {
			return Key(x[j])
		}
		return Key(y[j])
	})
	return order
}

// smallSort is the most positions Sort sorts in buffers on the stack.
const smallSort = 64

// A Sorter sorts as Sort does, keeping its buffers from one sort to the
// next: sorts made one after the other allocate once. Its zero value is
// ready; it is not safe for concurrent use.
type Sorter struct{ a, b []entry }

// Sort sorts order as Sort does.
func (s *Sorter) Sort(order []int, keys int, key func(k, i int) uint64) {
	n := len(order)
	if cap(s.a) < n {
		s.a, s.b = make([]entry, n), make([]entry, n)
	}
	sortWith(order, keys, key, s.a[:n], s.b[:n])
}

// sortWith is Sort using a and b, each as long as order, as its buffers.
// A run tied in the first key is sorted by the next keys in the part of
// the buffers where its entries were, which the runs after it no longer
// need.
func sortWith(order []int, keys int, key func(k, i int) uint64, a, b []entry) {
	n := len(order)
	if n < radixMin {
		// A comparison sort of the keys computed once, ties by place
		// (at is the place in order, not the position), which keeps
		// them in order without a stable sort's merges.
		for j, i := range order {
			a[j], b[j].at = entry{key(0, i), j}, i
		}
		if n <= insertionMax {
			insertionSort(a)
		} else {
			slices.SortFunc(a, compareEntries)
		}
		for j := range a {
			order[j] = b[a[j].at].at
		}
	} else {
		for j, i := range order {
			a[j] = entry{key(0, i), i}
		}
		a, b = sortEntries(a, b)
		if keys > 1 && tiedInShortRuns(a) > n/4 {
			// Many short runs tied in the first key (a few hundred
			// values): sorting them one by one costs more than sorting
			// everything by the next keys, then stably by the first.
			// order is still as given.
			sortWith(order, keys-1, func(k, i int) uint64 { return key(k+1, i) }, a, b)
			for j, i := range order {
				a[j] = entry{key(0, i), i}
			}
			a, _ = sortEntries(a, b)
			for j := range a {
				order[j] = a[j].at
			}
			return
		}
		for j := range a {
			order[j] = a[j].at
		}
	}
	if keys == 1 {
		return
	}
	next := func(k, i int) uint64 { return key(k+1, i) }
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && a[hi].key == a[lo].key {
			hi++
		}
		if hi-lo > 1 {
			sortWith(order[lo:hi], keys-1, next, a[lo:hi], b[lo:hi])
		}
		lo = hi
	}
}

// insertionMax is the most entries sortWith sorts by insertion: a
// group's members, where a sort calling a comparison function costs
// more than the moves.
const insertionMax = 16

// insertionSort sorts a by key, stably: entries made in order of at keep
// it among equal keys.
func insertionSort(a []entry) {
	for i := 1; i < len(a); i++ {
		e := a[i]
		j := i
		for ; j > 0 && a[j-1].key > e.key; j-- {
			a[j] = a[j-1]
		}
		a[j] = e
	}
}

// tiedInShortRuns counts the entries of sorted, sorted by key, in runs of
// equal keys longer than one and shorter than radixMin.
func tiedInShortRuns(sorted []entry) int {
	tied := 0
	for lo := 0; lo < len(sorted); {
		hi := lo + 1
		for hi < len(sorted) && sorted[hi].key == sorted[lo].key {
			hi++
		}
		if t := hi - lo; t > 1 && t < radixMin {
			tied += t
		}
		lo = hi
	}
	return tied
}

// radixMin is the fewest positions sorted by radix: below, the counts'
// arrays cost more than comparisons.
const radixMin = 1 << 12

// The radix passes: digits of digitBits bits, least significant first;
// 2^11 buckets keep a pass's writes within the caches.
const (
	digitBits = 11
	digits    = (64 + digitBits - 1) / digitBits
	buckets   = 1 << digitBits
)

// sortEntries sorts a stably by key, using b as a buffer, and returns the
// sorted slice and the other one. A pass whose digit is the same in every
// entry is skipped.
func sortEntries(a, b []entry) (sorted, buf []entry) {
	var counts [digits][buckets]int
	for _, e := range a {
		k := e.key
		for d := range digits {
			counts[d][k&(buckets-1)]++
			k >>= digitBits
		}
	}
	for d := range digits {
		c := &counts[d]
		shift := uint(d * digitBits)
		if c[(a[0].key>>shift)&(buckets-1)] == len(a) {
			continue
		}
		sum := 0
		for v, count := range c {
			c[v] = sum
			sum += count
		}
		for _, e := range a {
			v := (e.key >> shift) & (buckets - 1)
			b[c[v]] = e
			c[v]++
		}
		a, b = b, a
	}
	return a, b
}

// Select returns the k-th smallest of keys (0-based), reordering keys:
// Hoare's quickselect, in expected linear time.
func Select(keys []uint64, k int) uint64 {
	lo, hi := 0, len(keys)-1
	for lo < hi {
		// The median of three as pivot, against sorted runs.
		mid := lo + (hi-lo)/2
		a, b, c := keys[lo], keys[mid], keys[hi]
		pivot := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for keys[i] < pivot {
				i++
			}
			for keys[j] > pivot {
				j--
			}
			if i <= j {
				keys[i], keys[j] = keys[j], keys[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return keys[k]
		}
	}
	return keys[k]
}
