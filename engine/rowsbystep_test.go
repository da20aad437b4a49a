package engine

import (
	"maps"
	"slices"
	"testing"
)

// TestRowsByStep gives rows whose steps come in runs, a step's runs
// apart: each step gets its rows from row from on, in order, in a slice
// exactly their number long, so that appending to one step's rows never
// writes another's.
func TestRowsByStep(t *testing.T) {
	ev := &Evaluation{batches: []int64{9, 9, 1, 1, 1, 2, 1, 1, 3, 2, 2, 2}}
	ev.Valid = make([]bool, len(ev.batches))
	for _, from := range []int{0, 1, 4, 11, 12} {
		want := map[int64][]int{}
		for i := from; i < len(ev.batches); i++ {
			want[ev.batches[i]] = append(want[ev.batches[i]], i)
		}
		got := ev.rowsByStep(from)
		if !maps.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("from %d: %v, want %v", from, got, want)
		}
		for step, rows := range got {
			if cap(rows) != len(rows) {
				t.Errorf("from %d: step %d's %d rows have room for %d", from, step, len(rows), cap(rows))
			}
			before := maps.Clone(got)
			for s := range before {
				before[s] = slices.Clone(before[s])
			}
			_ = append(rows, -1)
			if !maps.EqualFunc(got, before, slices.Equal) {
				t.Errorf("from %d: appending to step %d's rows changed another's", from, step)
			}
		}
	}
}
