package pareto

import "math/bits"

// stairs is a staircase: a set of keys in [0, u), each with a value >= 1,
// in which larger keys have larger values. It answers "the largest value of
// a key <= x" (0 if none) and keeps its invariant by dropping, on insertion,
// the keys above the new one whose values it does not exceed.
//
// It starts in rank mode: the values are ranks plus one, few and close
// together, so it keeps for each value v in [vLo, vHi] the smallest key of
// value >= v, sm[v], which does not decrease with v. A query is a binary
// search in that small array, an insertion lowers the entries below its
// value down to the first one already low enough.
//
// Should the values spread over more than limit entries, or the insertions
// walk too far, it moves to bitset mode: the keys are the set bits of a
// 64-ary tree of bitsets (a bit of level l+1 is set iff the word of level l
// below it is non-zero), so predecessor and successor searches read
// O(log_64 u) words: 3 for u = 2^18, 4 for u = 2^24.
type stairs struct {
	lv  [][]uint64
	val []int32 // bitset mode: the value of each key
	big bool    // bitset mode

	sm       []int32 // rank mode: sm[v] for v in [vLo, vHi]
	vLo, vHi int     // empty iff vHi < vLo
	steps    int     // walking budget left
	limit    int
}

// reset prepares s for keys in [0, u) and values in [1, vmax], with at most
// limit values in rank mode, and empties it. This is O(u/64): between uses,
// callers empty s with empty and clearKey instead.
func (s *stairs) reset(u, vmax, limit int) {
	s.limit = limit
	s.lv = s.lv[:0]
	size := max(u, 1)
	for l := 0; ; l++ {
		words := (size + 63) >> 6
		if l < cap(s.lv) {
			s.lv = s.lv[:l+1]
			s.lv[l] = grow(s.lv[l], words)
			clear(s.lv[l])
		} else {
			s.lv = append(s.lv, make([]uint64, words))
		}
		if words == 1 {
			break
		}
		size = words
	}
	s.val = grow(s.val, u)
	s.sm = grow(s.sm, vmax+1)
	s.big = false
	s.vLo, s.vHi, s.steps = 1, 0, 64
}

// pred returns the largest key <= x in s, or -1.
func (s *stairs) pred(x int) int {
	lv := s.lv
	for l := range lv {
		w := x >> 6
		if b := lv[l][w] & (^uint64(0) >> (63 - uint(x&63))); b != 0 {
			x = w<<6 | (63 - bits.LeadingZeros64(b))
			for l > 0 {
				l--
				x = x<<6 | (63 - bits.LeadingZeros64(lv[l][x]))
			}
			return x
		}
		if w == 0 {
			return -1
		}
		x = w - 1
	}
	return -1
}

// succ returns the smallest key >= x in s, or -1.
func (s *stairs) succ(x int) int {
	lv := s.lv
	for l := range lv {
		w := x >> 6
		if w >= len(lv[l]) {
			return -1
		}
		if b := lv[l][w] & (^uint64(0) << uint(x&63)); b != 0 {
			x = w<<6 | bits.TrailingZeros64(b)
			for l > 0 {
				l--
				x = x<<6 | bits.TrailingZeros64(lv[l][x])
			}
			return x
		}
		x = w + 1
	}
	return -1
}

// query returns the value of the largest key <= x, or 0 if there is none.
func (s *stairs) query(x int) int32 {
	if !s.big {
		// The number of v in [vLo, vHi] with sm[v] <= x, by a branch-free
		// binary search.
		if s.vHi < s.vLo {
			return 0
		}
		sm := s.sm[s.vLo : s.vHi+1]
		x := int32(x)
		base, n := 0, len(sm)
		for n > 1 {
			half := n >> 1
			if sm[base+half-1] <= x {
				base += half
			}
			n -= half
		}
		if sm[base] <= x {
			base++
		}
		if base == 0 {
			return 0
		}
		return int32(s.vLo + base - 1)
	}
	if p := s.pred(x); p >= 0 {
		return s.val[p]
	}
	return 0
}

// insert adds key x with value v >= 1 unless a key <= x already has a value
// >= v.
func (s *stairs) insert(x int, v int32) {
	if !s.big {
		vi, x32 := int(v), int32(x)
		sm := s.sm
		switch {
		case s.vHi < s.vLo:
			s.vLo, s.vHi = vi, vi
			sm[vi] = x32
			return
		case vi > s.vHi:
			if vi-s.vLo < s.limit {
				for u := s.vHi + 1; u <= vi; u++ {
					sm[u] = x32
				}
				hi := s.vHi
				s.vHi = vi
				s.walk(hi, x32)
				return
			}
		case vi < s.vLo:
			if s.vHi-vi < s.limit {
				// The new key counts for v <= vi only.
				for u := vi + 1; u < s.vLo; u++ {
					sm[u] = sm[s.vLo]
				}
				sm[vi] = min(x32, sm[s.vLo])
				s.vLo = vi
				return
			}
		default:
			s.walk(vi, x32)
			return
		}
		s.toBig()
	}
	if p := s.pred(x); p >= 0 && s.val[p] >= v {
		return
	}
	s.val[x] = v
	s.set(x)
	for {
		q := s.succ(x + 1)
		if q < 0 || s.val[q] > v {
			return
		}
		s.unset(q)
	}
}

// walk lowers sm[u] to x for u = from, from-1, ... down to the first u whose
// entry is already <= x (the entries below it are too), moving to bitset
// mode when the walks have taken too many steps.
func (s *stairs) walk(from int, x int32) {
	sm := s.sm
	u := from
	for u >= s.vLo && sm[u] > x {
		sm[u] = x
		u--
	}
	// Each insertion earns a few steps: walks of bounded average length
	// keep the O(log) bound of bitset mode.
	s.steps += 4 - (from - u)
	if s.steps < 0 {
		s.toBig()
	}
}

// toBig moves s from rank mode to bitset mode: its keys are, for each run
// of equal sm[v], the key sm[v] with the largest v of the run.
func (s *stairs) toBig() {
	for v := s.vLo; v <= s.vHi; v++ {
		if v == s.vHi || s.sm[v+1] != s.sm[v] {
			k := int(s.sm[v])
			s.val[k] = int32(v)
			s.set(k)
		}
	}
	s.big = true
}

// unset removes key x from the bitset tree.
func (s *stairs) unset(x int) {
	lv := s.lv
	for l := range lv {
		w := x >> 6
		lv[l][w] &^= 1 << uint(x&63)
		if lv[l][w] != 0 {
			break
		}
		x = w
	}
}

// set adds key x to the bitset tree.
func (s *stairs) set(x int) {
	lv := s.lv
	for l := range lv {
		w := x >> 6
		old := lv[l][w]
		lv[l][w] = old | 1<<uint(x&63)
		if old != 0 {
			break
		}
		x = w
	}
}

// empty empties s if it is in rank mode and reports whether it was. If it
// was not, s is in bitset mode and the caller must call clearKey for every
// key inserted since s was last empty, after which s is empty.
func (s *stairs) empty() bool {
	s.vLo, s.vHi, s.steps = 1, 0, 64
	if s.big {
		s.big = false
		return false
	}
	return true
}

// clearKey empties the bitset tree, given that every key it holds was
// inserted as x by some call clearKey is made for.
func (s *stairs) clearKey(x int) {
	for _, words := range s.lv {
		x >>= 6
		words[x] = 0
	}
}
