package engine

import (
	"slices"
	"sync"
	"unsafe"
	"weak"
)

// The arrays of an append line (the evaluation's, the rankings' and the
// results') grow with every batch, and some are copied when trajectories
// join an old batch. Grown as slices grow, an array is copied by the
// extension that finds it full: at a million trajectories, tens of
// megabytes allocated and copied on one append, 15-25 ms, and 100-400 ms
// when the new memory comes fresh from the system and every page faults
// on first touch. A spareTable takes these copies off the append path: a
// goroutine copies the array into a spare, a larger one, beforehand; the
// extension then takes the spare, copying only the elements added since.
// The elements copied do not change meanwhile: an array is only written
// past the slice that is extended in place.
//
// A spare for growth is prepared when an extension in place of n elements,
// to length len > n, leaves less room than more/2, more = len/4 +
// aheadMargin*n, with room for more. The extension that would not fit, or
// the first one after the copy is done, takes it. The copy thus has the
// time of aheadMargin/2 extensions, or len/8 elements, to finish.
//
// A spare for a copy is prepared, by standby, for an array whose old
// elements the next extension may change (a result's rewards, a
// ranking's arrays): that extension takes it, copyAhead, rather than
// copying the array.
//
// Spares cost memory: a spare for growth, a quarter more than its array
// until it is taken; a spare for a copy, as long as its array is extended
// in place (some 40 bytes a trajectory for a result and its ranking).

// aheadMargin sets, with the length, the room of a spare for growth: see
// above.
const aheadMargin = 32

// spareTable holds the spares being prepared for the arrays of a line.
type spareTable struct {
	// copying is held by the goroutine that copies an array: one at a
	// time, the others wait, so that they take one processor at most
	// from the appends.
	copying sync.Mutex

	mu sync.Mutex
	// spares holds each spare (a *spare[T]) by its spareKey[T]: the
	// spare does not keep the array alive, and the array of another
	// slice that comes at the same address has another key.
	spares map[any]spareEntry
}

// spareKey identifies the spare of an array for growth or for a copy.
type spareKey[T any] struct {
	of   weak.Pointer[T]
	copy bool
}

// spareEntry is a *spare[T] of any T.
type spareEntry interface {
	// orphaned reports whether the array copied is gone.
	orphaned() bool
	// ready reports whether the copy is done.
	ready() bool
}

// spare is a larger array prepared for a slice.
type spare[T any] struct {
	of   weak.Pointer[T]
	done chan struct{} // closed once buf is filled
	// buf holds a copy of the first len(buf) elements of the array, with
	// room for more.
	buf []T
}

func (sp *spare[T]) orphaned() bool { return sp.of.Value() == nil }

func (sp *spare[T]) ready() bool {
	select {
	case <-sp.done:
		return true
	default:
		return false
	}
}

// fill returns sp's array holding s, which extends the slice sp copies:
// once the copy is done, the elements added since are copied (and the
// array grown, should they not fit).
func (sp *spare[T]) fill(s []T) []T {
	<-sp.done
	return append(sp.buf, s[len(sp.buf):]...)
}

// growAhead returns s with n more elements, zero, extending it in place
// (s being the longest slice of its array that t's line extends), in its
// spare for growth when s is full or the spare is ready; then prepares
// the next spare when the room left is short. A nil t only extends s.
func growAhead[T any](t *spareTable, s []T, n int) []T {
	if t == nil {
		return extend(s, n)
	}
	if sp := takeSpare(t, s, false, func(sp *spare[T]) bool { return len(s)+n > cap(s) || sp.ready() }); sp != nil {
		s = sp.fill(s)
	}
	s = extend(s, n)
	if more := len(s)/4 + aheadMargin*n; len(s) > n && cap(s)-len(s) < more/2 {
		// The n new elements are yet to be written: fill copies them.
		prepare(t, s[:len(s)-n], false, more+n)
	}
	return s
}

// copyAhead returns a copy of s with n > 0 more elements, zero: s's spare
// for a copy, once ready, when it has one (see standby), else a new
// array.
func copyAhead[T any](t *spareTable, s []T, n int) []T {
	if sp := takeSpare(t, s, true, func(*spare[T]) bool { return true }); sp != nil {
		return extend(sp.fill(s), n)
	}
	return extend(slices.Clip(s), n)
}

// standby prepares a spare for a copy of s, every element of which is
// written, with room for a quarter more, unless it has one.
func standby[T any](t *spareTable, s []T) {
	if len(s) > 0 {
		prepare(t, s, true, len(s)/4)
	}
}

// prepareGrowth prepares a spare for growth of s, every element of which
// is written, with room for a quarter more, when s has less room than an
// eighth.
func prepareGrowth[T any](t *spareTable, s []T) {
	if more := len(s) / 4; cap(s)-len(s) < more/2 {
		prepare(t, s, false, more)
	}
}

// takeSpare removes the spare of s's array for a copy (or for growth)
// from t and returns it, when it has one and take(spare); otherwise it
// returns nil.
func takeSpare[T any](t *spareTable, s []T, copy bool, take func(*spare[T]) bool) *spare[T] {
	if cap(s) == 0 {
		return nil
	}
	key := spareKey[T]{weak.Make(unsafe.SliceData(s)), copy}
	t.mu.Lock()
	defer t.mu.Unlock()
	sp, _ := t.spares[key].(*spare[T])
	if sp == nil || !take(sp) {
		return nil
	}
	delete(t.spares, key)
	return sp
}

// prepare starts copying s into a spare for a copy (or for growth) with
// room for more elements, unless its array has one already. It forgets
// the spares of arrays that are gone.
func prepare[T any](t *spareTable, s []T, copy bool, more int) {
	key := spareKey[T]{weak.Make(unsafe.SliceData(s)), copy}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.spares[key]; ok {
		return
	}
	for k, sp := range t.spares {
		if sp.orphaned() {
			delete(t.spares, k)
		}
	}
	if t.spares == nil {
		t.spares = map[any]spareEntry{}
	}
	sp := &spare[T]{of: key.of, done: make(chan struct{})}
	t.spares[key] = sp
	go func() {
		t.copying.Lock()
		defer t.copying.Unlock()
		buf := make([]T, len(s), len(s)+more)
		copyChunks(buf, s)
		sp.buf = buf
		close(sp.done)
	}()
}

// copyChunks copies src into dst, which is as long, copyChunk elements at
// a time. A copy cannot be preempted: a single one of megabytes, which
// fault on first touch, would hold up a garbage collection's stop of the
// world, and every goroutine with it, as long as it lasts.
func copyChunks[T any](dst, src []T) {
	for i := 0; i < len(src); i += copyChunk {
		copy(dst[i:], src[i:min(i+copyChunk, len(src))])
	}
}

// copyChunk is how many elements copyChunks copies at a time.
const copyChunk = 1 << 14
