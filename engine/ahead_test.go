package engine

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// wait waits until every spare being prepared is ready.
func (t *spareTable) wait() {
	t.mu.Lock()
	var pending []spareEntry
	for _, sp := range t.spares {
		pending = append(pending, sp)
	}
	t.mu.Unlock()
	for _, sp := range pending {
		for !sp.ready() {
			time.Sleep(time.Millisecond)
		}
	}
}

// TestGrowAheadMatchesAppend extends slices of three element types by
// random amounts, in place (growAhead) or in a copy (copyAhead) that then
// changes some old elements, writing the new elements after each
// extension as the engine does, and prepares spares for copies at random
// (standby): each slice must hold what the same operations on plain
// slices give, and keep it while the others are made, whether spares are
// taken once ready (the table waited for at random) or not.
func TestGrowAheadMatchesAppend(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	type view struct {
		ints  []int64
		strs  []string
		flags []bool
		want  []int64
	}
	for trial := range 10 {
		var table spareTable
		var ints []int64
		var strs []string
		var flags []bool
		var want []int64
		var views []view
		set := func(i int, v int64) {
			ints[i], strs[i], flags[i], want[i] = v, fmt.Sprint(v), v%2 == 0, v
		}
		for range 100 {
			n := rng.IntN(40)
			if rng.IntN(20) == 0 {
				n = rng.IntN(2000)
			}
			lo := len(ints)
			if rng.IntN(4) > 0 {
				ints, strs, flags = growAhead(&table, ints, n), growAhead(&table, strs, n), growAhead(&table, flags, n)
				want = append(want, make([]int64, n)...)
			} else {
				n++ // as when trajectories join old batches
				ints, strs, flags = copyAhead(&table, ints, n), copyAhead(&table, strs, n), copyAhead(&table, flags, n)
				want = append(slices.Clip(want), make([]int64, n)...)
				for range min(lo, 3) {
					set(rng.IntN(lo), rng.Int64())
				}
			}
			for i := lo; i < len(ints); i++ {
				set(i, rng.Int64())
			}
			views = append(views, view{ints, strs, flags, want})
			if rng.IntN(3) == 0 {
				standby(&table, ints)
				standby(&table, strs)
				standby(&table, flags)
			}
			if rng.IntN(8) == 0 {
				table.wait()
			}
		}
		for k, v := range views {
			for i, w := range v.want {
				if v.ints[i] != w || v.strs[i] != fmt.Sprint(w) || v.flags[i] != (w%2 == 0) {
					t.Fatalf("trial %d: slice %d differs at %d", trial, k, i)
				}
			}
		}
		table.wait()
	}
}

// TestGrowAheadNil: without a table, growAhead is extend.
func TestGrowAheadNil(t *testing.T) {
	s := growAhead[int](nil, []int{1, 2}, 3)
	if !slices.Equal(s, []int{1, 2, 0, 0, 0}) {
		t.Fatalf("got %v", s)
	}
}

// TestSpareOrphaned: the spare of an array that is gone is forgotten when
// the next one is prepared, and an array takes no spare but its own, for
// its use.
func TestSpareOrphaned(t *testing.T) {
	var table spareTable
	gone := make([]float64, 1000)
	prepare(&table, gone, false, 100)
	table.wait()
	gone = nil
	runtime.GC()
	kept := make([]float64, 1000)
	prepare(&table, kept, false, 100)
	table.wait()
	if len(table.spares) != 1 {
		t.Fatalf("%d spares, want the kept array's alone", len(table.spares))
	}
	always := func(*spare[float64]) bool { return true }
	if takeSpare(&table, make([]float64, 1000), false, always) != nil {
		t.Fatal("an array took the spare of another")
	}
	if takeSpare(&table, kept, true, always) != nil {
		t.Fatal("a copy took a spare for growth")
	}
	if got := growAhead(&table, kept, 10); cap(got) != 1100 {
		t.Fatalf("the full array grew to a capacity of %d, want its spare's (1100)", cap(got))
	}
}

// TestCopyChunks copies slices around the chunk size.
func TestCopyChunks(t *testing.T) {
	for _, n := range []int{0, 1, copyChunk - 1, copyChunk, copyChunk + 1, 3*copyChunk + 5} {
		src := make([]int32, n)
		for i := range src {
			src[i] = int32(i)
		}
		dst := make([]int32, n)
		copyChunks(dst, src)
		if !slices.Equal(dst, src) {
			t.Fatalf("n = %d: the copy differs", n)
		}
	}
}
