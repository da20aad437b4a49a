package engine

import "sync"

// Cache keeps what a pass over a batch costs to compute, under a key that
// says which value it is. It is the one cache of the engine, at each of
// the three layers a value can depend on: an Evaluation's holds what
// depends on the evaluation alone (the objectives' statistics, the valid
// members, the hypervolumes), a score set's what depends on the weights
// too (the scores' statistics, the group summaries), a Result's what
// depends on the method as well (BatchStats, the rewards' ranges). A
// value lives as long as what it depends on, and no longer. The zero
// Cache is empty and ready; it is safe for concurrent use.
type Cache struct {
	mu sync.Mutex
	m  map[CacheKey]any
	// computing holds the computation under way of each key Cached is
	// computing, for a second caller of the key to wait for.
	computing map[CacheKey]*computation
}

// computation is one call of a Cached's compute: done is closed once its
// value is kept, or its compute panicked (then computed is false).
type computation struct {
	done     chan struct{}
	value    any
	computed bool
}

// CacheKey names a value within its Cache: what it is, and the scope and
// batch it is of.
type CacheKey struct {
	// Of says what the value is ("batch stats", "hypervolume", ...).
	Of    string
	Scope Scope
	// Step is the batch's.
	Step int64
	// Members is the batch's size where the value is kept per size (a
	// batch that grew while following is a new key), else 0.
	Members int
	// Ref is a hypervolume's reference point, as float64 bits.
	Ref [3]uint64
}

// Get returns the value of k and whether there is one.
func (c *Cache) Get(k CacheKey) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// Put keeps v as the value of k, replacing any other.
func (c *Cache) Put(k CacheKey, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[CacheKey]any{}
	}
	c.m[k] = v
}

// keep copies into c the values of from whose key keep accepts.
func (c *Cache) keep(from *Cache, keep func(CacheKey) bool) {
	from.mu.Lock()
	kept := map[CacheKey]any{}
	for k, v := range from.m {
		if keep(k) {
			kept[k] = v
		}
	}
	from.mu.Unlock()
	for k, v := range kept {
		c.Put(k, v)
	}
}

// What the engine and engine/diagnose keep, as CacheKey.Of: the one list,
// so that no two values share a name. The engine itself reads
// OfObjectiveStats and OfBatchStats (Append and Recompute keep them).
const (
	// An Evaluation's, per batch step.
	OfObjectiveStats = "objective stats"
	OfBatchCounts    = "batch counts"
	ofValid          = "valid members"
	// An Evaluation's, for all its trajectories.
	ofFeasibilityKeys = "feasibility keys"
	// An Evaluation's, per scope, batch step and size, and reference.
	OfHypervolume = "hypervolume"
	// A score set's (or a Result's without one), per scope and batch step.
	OfScoreBatch     = "score batch"
	OfGroupSummaries = "group summaries"
	// A Result's, per batch step.
	OfBatchStats   = "batch stats"
	OfRewardRanges = "reward ranges"
	// A Result's, per batch step and size (shown.go).
	ofShownBatchRewards = "shown batch rewards"
)

// Cached returns the value of k in c while fresh says it still holds,
// else computes it (outside c's lock) and keeps it, replacing the value
// that no longer holds. One value is computed once at a time: a caller
// of k while another computes it waits for that value and takes it if
// fresh says it holds for it, else (the batch grew between the two
// calls, or the compute panicked) asks again. So compute must not ask
// for k itself, and a compute that pauses (pause.Checkpoint) pauses its
// waiters too: work that holds a pause gate must not ask for a key whose
// compute may wait at that gate, or it waits for itself. The one compute
// that pauses is the hypervolume's (engine/diagnose), asked for by the
// trends. fresh may be called with c's lock held: it must be quick and
// must not use c.
func Cached[V any](c *Cache, k CacheKey, fresh func(V) bool, compute func() V) V {
	c.mu.Lock()
	for {
		if v, ok := c.m[k]; ok {
			if v := v.(V); fresh(v) {
				c.mu.Unlock()
				return v
			}
		}
		running, ok := c.computing[k]
		if !ok {
			break
		}
		c.mu.Unlock()
		<-running.done
		if running.computed {
			if v := running.value.(V); fresh(v) {
				return v
			}
		}
		c.mu.Lock()
	}
	own := &computation{done: make(chan struct{})}
	if c.computing == nil {
		c.computing = map[CacheKey]*computation{}
	}
	c.computing[k] = own
	c.mu.Unlock()
	// The waiters are let go even if compute panics, to compute their own.
	defer func() {
		c.mu.Lock()
		delete(c.computing, k)
		c.mu.Unlock()
		close(own.done)
	}()
	v := compute()
	own.value, own.computed = v, true
	c.Put(k, v)
	return v
}

// Cache returns the result's cache: what depends on the method as well
// (BatchStats, the rewards' ranges).
func (res *Result) Cache() *Cache { return &res.cache }

// ScoreCache returns the cache of the result's score set, shared by the
// results of the same weights: what depends on the weights and the scope
// but not on the method. It is nil for a result of Recompute, which has
// no score set.
func (res *Result) ScoreCache() *Cache {
	if res.scoreSet == nil {
		return nil
	}
	return &res.scoreSet.cache
}

// Cache returns the evaluation's cache: what depends on the evaluation
// alone.
func (ev *Evaluation) Cache() *Cache { return &ev.cache }
