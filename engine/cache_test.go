package engine

import (
	"sync"
	"testing"
)

// TestCached: a value is computed on first use, kept while fresh says it
// holds, computed again once it no longer does, per key.
func TestCached(t *testing.T) {
	var mu sync.Mutex
	var m map[string]int
	computed := 0
	get := func(key string, members int) int {
		return cached(&mu, &m, key, func(v int) bool { return v == members }, func() int { computed++; return members })
	}
	for _, step := range []struct {
		key            string
		members, calls int
	}{{"a", 3, 1}, {"a", 3, 1}, {"b", 3, 2}, {"a", 4, 3}, {"a", 4, 3}, {"b", 3, 3}} {
		if got := get(step.key, step.members); got != step.members || computed != step.calls {
			t.Fatalf("%s with %d members: %d after %d computations, want %d after %d", step.key, step.members, got, computed, step.members, step.calls)
		}
	}
}
