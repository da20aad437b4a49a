package engine

import "sync"

// cached returns the value of key in *m while fresh says it still holds,
// else computes it (outside mu, which guards *m) and keeps it: the
// evaluation's, the score sets' and the results' caches of what a batch
// costs to compute. Two callers may compute one value at once; the last
// one kept stays.
func cached[K comparable, V any](mu *sync.Mutex, m *map[K]V, key K, fresh func(V) bool, compute func() V) V {
	mu.Lock()
	v, ok := (*m)[key]
	mu.Unlock()
	if ok && fresh(v) {
		return v
	}
	v = compute()
	mu.Lock()
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[key] = v
	mu.Unlock()
	return v
}

// always is the freshness of a value whose key says all it depends on.
func always[V any](V) bool { return true }
