package stats

import (
	"math"
	"slices"
	"sync"
)

// radixMin is the length from which sortFloats uses a radix sort.
const radixMin = 1024

// sortFloats sorts x in ascending order, as slices.Sort does. From radixMin
// values without NaN it uses an LSD radix sort on the bits of the values,
// several times faster than slices.Sort on the 100k values of a large
// batch. The sorted values are the same; only the order within a run of
// zeros can differ, -0 coming before +0 (slices.Sort leaves them in any
// order).
func sortFloats(x []float64) {
	if len(x) < radixMin {
		slices.Sort(x)
		return
	}
	// The keys come from a pool: a dashboard sorts a million values on
	// every method switch, and fresh arrays each time cost page faults.
	keys := getKeys(2 * len(x))
	defer putKeys(keys)
	a, b := (*keys)[:len(x)], (*keys)[len(x):2*len(x)]
	for i, v := range x {
		if v != v { // NaN: slices.Sort puts them first; leave it to it
			slices.Sort(x)
			return
		}
		a[i] = floatKey(v)
	}
	const bits = 11
	const buckets = 1 << bits
	var count [buckets]int
	for shift := uint(0); shift < 64; shift += bits {
		clear(count[:])
		for _, k := range a {
			count[(k>>shift)&(buckets-1)]++
		}
		if count[(a[0]>>shift)&(buckets-1)] == len(a) {
			continue // every key has this digit: the pass would not move any
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range a {
			d := (k >> shift) & (buckets - 1)
			b[count[d]] = k
			count[d]++
		}
		a, b = b, a
	}
	for i, k := range a {
		x[i] = keyFloat(k)
	}
}

// floatKey maps a float64 that is not NaN to a uint64 in the same order.
func floatKey(v float64) uint64 {
	u := math.Float64bits(v)
	if u>>63 != 0 {
		return ^u
	}
	return u | 1<<63
}

// keyFloat inverts floatKey.
func keyFloat(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// sortKeys holds sortFloats' key arrays for reuse.
var sortKeys sync.Pool

// getKeys returns an array of n keys or more.
func getKeys(n int) *[]uint64 {
	if k, ok := sortKeys.Get().(*[]uint64); ok && len(*k) >= n {
		return k
	}
	k := make([]uint64, n)
	return &k
}

// putKeys gives an array back for the next getKeys.
func putKeys(k *[]uint64) { sortKeys.Put(k) }
