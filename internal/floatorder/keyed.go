package floatorder

import (
	"cmp"
	"container/heap"
	"slices"
)

// Keyed is positions with one key each, computed once: the first few of
// their order by key can be selected at once (Top), and the whole order
// sorted later, on another goroutine, from the keys alone (Sorted). The
// order is Sort's with one key: by key, ties in the positions' order.
type Keyed struct {
	order []int
	keys  []uint64
}

// KeyedOf returns the positions of order with their keys (at least as
// many), keys[j] the key of order[j] (from Key or Descending), read by
// the caller's own loop when made: what they were read from may change
// after. Keyed holds both slices, which must not change while it is used.
func KeyedOf(order []int, keys []uint64) Keyed {
	return Keyed{order: order, keys: keys[:len(order)]}
}

// Len is the number of positions.
func (k Keyed) Len() int { return len(k.order) }

// Keys returns the keys' slice, for the caller to reuse once the Keyed
// is no longer used.
func (k Keyed) Keys() []uint64 { return k.keys }

// Top returns the first m positions of the order (all of them when
// there are fewer): a selection in one pass over the keys, holding the
// m first seen so far in a heap, in O(n log m) at worst and about O(n)
// when few keys enter it.
func (k Keyed) Top(m int) []int {
	m = min(m, len(k.keys))
	if m <= 0 {
		return nil
	}
	h := make(placeHeap, 0, m)
	for j, key := range k.keys {
		switch {
		case len(h) < m:
			heap.Push(&h, entry{key, j})
		case key < h[0].key: // ties come later: not before h[0]
			h[0] = entry{key, j}
			heap.Fix(&h, 0)
		}
	}
	slices.SortFunc(h, compareEntries)
	top := make([]int, m)
	for j, e := range h {
		top[j] = k.order[e.at]
	}
	return top
}

// Sorted returns the whole order, in a new slice: a radix sort of the
// keys with their places, safe to run on another goroutine than the
// Keyed's maker once it is made.
func (k Keyed) Sorted() []int {
	n := len(k.keys)
	sorted := make([]int, n)
	if n == 0 {
		return sorted
	}
	a := make([]entry, n)
	for j, key := range k.keys {
		a[j] = entry{key, j}
	}
	if n < radixMin {
		slices.SortFunc(a, compareEntries)
	} else {
		a, _ = sortEntries(a, make([]entry, n))
	}
	for j, e := range a {
		sorted[j] = k.order[e.at]
	}
	return sorted
}

// compareEntries orders entries by key, ties by place (at).
func compareEntries(x, y entry) int {
	return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.at, y.at))
}

// placeHeap is a max-heap of entries by (key, place): its root is the
// last of the entries it holds in the order.
type placeHeap []entry

func (h placeHeap) Len() int           { return len(h) }
func (h placeHeap) Less(i, j int) bool { return compareEntries(h[i], h[j]) > 0 }
func (h placeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *placeHeap) Push(x any)        { *h = append(*h, x.(entry)) }
func (h *placeHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
