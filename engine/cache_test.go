package engine

import (
	"sync"
	"testing"
	"testing/synctest"
)

// count returns how many values of what of c keeps.
func (c *Cache) count(of string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k := range c.m {
		if k.Of == of {
			n++
		}
	}
	return n
}

// TestCached: a value is computed on first use, kept while fresh says it
// holds, computed again once it no longer does, per key.
func TestCached(t *testing.T) {
	var c Cache
	computed := 0
	get := func(key string, members int) int {
		return Cached(&c, CacheKey{Of: key}, func(v int) bool { return v == members }, func() int { computed++; return members })
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

// TestCachedComputesOnce: a second caller of a key being computed waits
// for the first's value instead of computing it again; one whose
// freshness the value fails computes its own. synctest.Wait returns once
// both callers are blocked: the first in compute, the second waiting
// for it (or, computing too, in compute).
func TestCachedComputesOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c Cache
		key := CacheKey{Of: "a", Step: 1}
		var mu sync.Mutex
		calls := 0
		release := make(chan struct{})
		compute := func(members int) func() int {
			return func() int {
				mu.Lock()
				calls++
				mu.Unlock()
				<-release
				return members
			}
		}
		holds := func(members int) func(int) bool { return func(v int) bool { return v == members } }
		got := make([]int, 3)
		var wg sync.WaitGroup
		ask := func(i, members int) {
			wg.Go(func() { got[i] = Cached(&c, key, holds(members), compute(members)) })
		}
		ask(0, 3)
		synctest.Wait()
		ask(1, 3)
		ask(2, 4)
		synctest.Wait()
		close(release)
		wg.Wait()
		if got[0] != 3 || got[1] != 3 || got[2] != 4 {
			t.Errorf("got %v, want [3 3 4]", got)
		}
		// The first's, and the one of the caller of 4 members, which 3 does not hold for.
		if calls != 2 {
			t.Errorf("computed %d times, want 2", calls)
		}
	})
}

// TestCacheKeys: every field of the key tells values apart; keep copies
// the values its filter accepts and no other.
func TestCacheKeys(t *testing.T) {
	var c Cache
	keys := []CacheKey{{Of: "a"}, {Of: "b"}, {Of: "a", Scope: ScopeBatch}, {Of: "a", Step: 1}, {Of: "a", Members: 1}, {Of: "a", Ref: [3]uint64{0, 0, 1}}}
	for i, k := range keys {
		c.Put(k, i)
	}
	for i, k := range keys {
		if v, ok := c.Get(k); !ok || v != i {
			t.Errorf("%+v: %v, %v, want %d", k, v, ok, i)
		}
	}
	if _, ok := c.Get(CacheKey{Of: "c"}); ok {
		t.Error("a key never put has a value")
	}
	var kept Cache
	kept.keep(&c, func(k CacheKey) bool { return k.Of == "a" && k.Step == 0 })
	if kept.count("a") != 4 || kept.count("b") != 0 {
		t.Errorf("kept %d of a, %d of b, want 4 and 0", kept.count("a"), kept.count("b"))
	}
	if _, ok := kept.Get(CacheKey{Of: "a", Step: 1}); ok {
		t.Error("keep copied a value its filter refused")
	}
}

// TestCachedPanicReleasesWaiters: a compute that panics lets its waiters
// go, the key no longer being computed: a caller waiting for it computes
// its own value.
func TestCachedPanicReleasesWaiters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var c Cache
		k := CacheKey{Of: "panics"}
		release := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			defer func() { _ = recover() }()
			Cached(&c, k, func(int) bool { return true }, func() int { <-release; panic("compute failed") })
		})
		synctest.Wait()
		got := 0
		wg.Go(func() { got = Cached(&c, k, func(int) bool { return true }, func() int { return 7 }) })
		synctest.Wait()
		close(release)
		wg.Wait()
		if got != 7 {
			t.Errorf("the waiter got %d, want its own value 7", got)
		}
		if len(c.computing) != 0 {
			t.Errorf("keys left computing: %v", c.computing)
		}
	})
}
