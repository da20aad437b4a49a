package session

import (
	"iter"
	"slices"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// Trajectories holds a session's trajectories, in input order, in chunks
// that never move: following a run appends a batch at a time to a million
// trajectories and more, and a slice would copy them all (over 100 MB, and
// its new pages fault on first touch) each time it grows. The zero value
// is empty and ready to use.
type Trajectories struct {
	chunks [][]scoring.Trajectory // all full but the last
	n      int
}

// trajectoryChunk is how many trajectories a chunk holds.
const trajectoryChunk = 1 << 13

// Len returns the number of trajectories.
func (t *Trajectories) Len() int { return t.n }

// At returns trajectory i, 0 <= i < Len(); it stays at that address until
// DeleteFunc.
func (t *Trajectories) At(i int) *scoring.Trajectory {
	return &t.chunks[i/trajectoryChunk][i%trajectoryChunk]
}

// Append adds copies of ts after the others.
func (t *Trajectories) Append(ts ...scoring.Trajectory) {
	for len(ts) > 0 {
		if t.n%trajectoryChunk == 0 {
			t.chunks = append(t.chunks, make([]scoring.Trajectory, 0, trajectoryChunk))
		}
		last := &t.chunks[len(t.chunks)-1]
		k := min(len(ts), trajectoryChunk-len(*last))
		*last = append(*last, ts[:k]...)
		t.n += k
		ts = ts[k:]
	}
}

// Snapshot returns the trajectories as they are, for a reader off the
// event loop: Append writes past them (and DropBody only those it
// appended), DeleteFunc into new chunks.
func (t *Trajectories) Snapshot() Trajectories {
	return Trajectories{chunks: slices.Clone(t.chunks), n: t.n}
}

// All returns the trajectories with their indices, in order.
func (t *Trajectories) All() iter.Seq2[int, *scoring.Trajectory] {
	return func(yield func(int, *scoring.Trajectory) bool) {
		for c, chunk := range t.chunks {
			for j := range chunk {
				if !yield(c*trajectoryChunk+j, &chunk[j]) {
					return
				}
			}
		}
	}
}

// Slice returns the trajectories in a new slice.
func (t *Trajectories) Slice() []scoring.Trajectory {
	out := make([]scoring.Trajectory, 0, t.n)
	for _, chunk := range t.chunks {
		out = append(out, chunk...)
	}
	return out
}

// DeleteFunc removes the trajectories for which del returns true, keeping
// the order of the others.
func (t *Trajectories) DeleteFunc(del func(*scoring.Trajectory) bool) {
	var kept Trajectories
	for _, tr := range t.All() {
		if !del(tr) {
			kept.Append(*tr)
		}
	}
	*t = kept
}

// trajectoriesOf returns ts held as Trajectories.
func trajectoriesOf(ts []scoring.Trajectory) Trajectories {
	var t Trajectories
	t.Append(ts...)
	return t
}
