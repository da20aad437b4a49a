package follow

// hashCounts counts 64-bit hashes in a table of open addressing (linear
// probing): a Go map of a million entries cost Repeats most of its time,
// in rehashing as it grew and in two lookups a trajectory. A hash whose
// count falls to 0 keeps its slot until the table grows. The zero
// hashCounts is empty.
type hashCounts struct {
	keys []uint64 // 0 for an empty slot; the hash 0 is kept as 1
	// counts holds each key's count less one, so that a new key, the
	// common case, writes its slot's key alone: one cache line touched
	// in a table too large for the cache, not two.
	counts []int32
	used   int // slots with a key
}

// reserve makes room for n more hashes without growing while they are
// added.
func (t *hashCounts) reserve(n int) {
	if 2*(t.used+n) > len(t.keys) {
		t.grow(t.used + n)
	}
}

// add counts h and returns its count before.
func (t *hashCounts) add(h uint64) int32 {
	if 2*(t.used+1) > len(t.keys) {
		t.grow(t.used + 1)
	}
	h = max(h, 1)
	mask := uint64(len(t.keys) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case h:
			t.counts[i]++
			return t.counts[i]
		case 0: // its count is 0 already: never used since the table was made
			t.keys[i] = h
			t.used++
			return 0
		}
	}
}

// remove uncounts h, counted before.
func (t *hashCounts) remove(h uint64) {
	if len(t.keys) == 0 {
		return
	}
	h = max(h, 1)
	mask := uint64(len(t.keys) - 1)
	for i := h & mask; t.keys[i] != 0; i = (i + 1) & mask {
		if t.keys[i] == h {
			if t.counts[i] >= 0 {
				t.counts[i]--
			}
			return
		}
	}
}

// grow moves the hashes still counted into a table of at least 2n slots,
// a power of two.
func (t *hashCounts) grow(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	keys, counts := t.keys, t.counts
	t.keys, t.counts, t.used = make([]uint64, size), make([]int32, size), 0
	mask := uint64(size - 1)
	for j, h := range keys {
		if h == 0 || counts[j] < 0 {
			continue
		}
		i := h & mask
		for t.keys[i] != 0 {
			i = (i + 1) & mask
		}
		t.keys[i], t.counts[i] = h, counts[j]
		t.used++
	}
}
