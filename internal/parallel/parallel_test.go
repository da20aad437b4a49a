package parallel

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

// TestChunksCoversEachOnce: every index of [0, n) is handed to fn once, in
// ranges of at most chunk, on workers numbered below nw.
func TestChunksCoversEachOnce(t *testing.T) {
	for _, c := range []struct{ n, chunk, nw int }{{0, 4, 2}, {1, 4, 2}, {10, 3, 1}, {10, 3, 4}, {1000, 7, 3}, {64, 64, 2}} {
		seen := make([]atomic.Int32, c.n)
		Chunks(c.n, c.chunk, c.nw, func(w, lo, hi int) {
			if w < 0 || w >= max(c.nw, 1) || hi-lo > c.chunk || lo >= hi {
				t.Errorf("%+v: worker %d, range [%d, %d)", c, w, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Fatalf("%+v: index %d handed out %d times", c, i, got)
			}
		}
	}
}

func TestWorkers(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, c := range []struct{ n, chunk, want int }{
		{0, 10, 1},                  // nothing to do: one, the caller
		{10, 10, 1},                 // one chunk
		{11, 10, min(procs, 2)},     // two chunks
		{1000, 10, min(procs, 100)}, // a hundred chunks, at most GOMAXPROCS
	} {
		if got := Workers(c.n, c.chunk); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.n, c.chunk, got, c.want)
		}
	}
}

func TestGatherGrowFloats(t *testing.T) {
	buf := make([]float64, 1, 8)
	got := Gather(buf, []float64{10, 11, 12, 13}, []int{3, 0, 2})
	if !slices.Equal(got, []float64{13, 10, 12}) || &got[0] != &buf[:1][0] {
		t.Errorf("Gather = %v (reused %v), want [13 10 12] in buf", got, &got[0] == &buf[:1][0])
	}
	if g := Grow(buf, 20); len(g) != 20 || cap(g) < 20 {
		t.Errorf("Grow to 20: len %d cap %d", len(g), cap(g))
	}
	b := GetFloats(100)
	if cap(*b) < 100 {
		t.Errorf("GetFloats(100): capacity %d", cap(*b))
	}
	PutFloats(b)
}
