// Package parallel runs a pass over many items on every core (Chunks,
// Workers) and lends the float64 buffers such passes gather into
// (GetFloats, PutFloats). The engine and its diagnostics share it.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/internal/crash"
)

// Workers returns how many goroutines share n items taken chunk at a time:
// at most GOMAXPROCS, and one per chunk.
func Workers(n, chunk int) int {
	return max(min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk), 1)
}

// Chunks calls fn(w, lo, hi) over [0, n) cut into ranges of chunk
// items, on nw goroutines (w is the goroutine's number, 0..nw-1); the
// calling goroutine is number 0. Each range is handed out once, in no
// particular order.
func Chunks(n, chunk, nw int, fn func(w, lo, hi int)) {
	if nw <= 1 || n <= chunk {
		for lo := 0; lo < n; lo += chunk {
			fn(0, lo, min(lo+chunk, n))
		}
		return
	}
	var next atomic.Int64
	run := func(w int) {
		for {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			fn(w, lo, min(lo+chunk, n))
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < nw; w++ {
		wg.Add(1)
		go func() {
			defer crash.Recover()
			defer wg.Done()
			run(w)
		}()
	}
	run(0)
	wg.Wait()
}

// floats holds the float64 buffers a pass gathers into and sorts, so
// that the statistics of a new result allocate none.
var floats sync.Pool

// GetFloats returns a buffer of capacity n or more, of any length.
func GetFloats(n int) *[]float64 {
	if b, ok := floats.Get().(*[]float64); ok && cap(*b) >= n {
		return b
	}
	b := make([]float64, 0, n)
	return &b
}

// PutFloats gives a buffer back for the next GetFloats.
func PutFloats(b *[]float64) { floats.Put(b) }

// Gather returns dst filled with src[i] for each i of idx.
func Gather(dst, src []float64, idx []int) []float64 {
	dst = Grow(dst, len(idx))
	for j, i := range idx {
		dst[j] = src[i]
	}
	return dst
}

// Grow returns buf resized to n, reallocating only when too small.
func Grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}
