package session

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestTrajectoriesStore checks Trajectories against a plain slice through
// random appends of every size around the chunk's, and deletions; and
// that appending never moves a trajectory already held.
func TestTrajectoriesStore(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var store Trajectories
	var want []scoring.Trajectory
	next := 0
	for step := range 60 {
		if step%10 == 9 {
			mod := 2 + rng.IntN(5)
			del := func(tr *scoring.Trajectory) bool { return tr.Line%mod == 0 }
			store.DeleteFunc(del)
			want = slices.DeleteFunc(want, func(tr scoring.Trajectory) bool { return del(&tr) })
		} else {
			sizes := []int{0, 1, trajectoryChunk - 1, trajectoryChunk, trajectoryChunk + 1, rng.IntN(3 * trajectoryChunk)}
			batch := make([]scoring.Trajectory, sizes[rng.IntN(len(sizes))])
			for i := range batch {
				batch[i] = scoring.Trajectory{ID: fmt.Sprint(next), LoaderState: scoring.LoaderState{Line: next}}
				next++
			}
			var first *scoring.Trajectory
			if store.Len() > 0 {
				first = store.At(0)
			}
			store.Append(batch...)
			want = append(want, batch...)
			if first != nil && store.At(0) != first {
				t.Fatalf("step %d: appending moved the first trajectory", step)
			}
		}
		if store.Len() != len(want) {
			t.Fatalf("step %d: %d trajectories, want %d", step, store.Len(), len(want))
		}
		for i, tr := range store.All() {
			if tr.ID != want[i].ID || store.At(i) != tr {
				t.Fatalf("step %d: trajectory %d is %q, want %q", step, i, tr.ID, want[i].ID)
			}
		}
		if got := store.Slice(); !slices.EqualFunc(got, want, func(a, b scoring.Trajectory) bool { return a.ID == b.ID }) {
			t.Fatalf("step %d: Slice differs", step)
		}
	}
}

// TestTrajectoriesSnapshotWhileAppending: a snapshot read on another
// goroutine (a sort off the event loop) while the trajectories are
// appended to, past a chunk's end too, holds the trajectories it was
// taken of, unchanged (go test -race: no write to what it reads).
func TestTrajectoriesSnapshotWhileAppending(t *testing.T) {
	var ts Trajectories
	for i := range trajectoryChunk - 2 {
		ts.Append(scoring.Trajectory{ID: strconv.Itoa(i)})
	}
	snap := ts.Snapshot()
	read := make(chan []string)
	go func() {
		var ids []string
		for i := range snap.Len() {
			ids = append(ids, snap.At(i).ID)
		}
		read <- ids
	}()
	for range 5 {
		ts.Append(scoring.Trajectory{ID: "new"})
	}
	ids := <-read
	if len(ids) != trajectoryChunk-2 || ids[len(ids)-1] != strconv.Itoa(trajectoryChunk-3) || snap.Len() != trajectoryChunk-2 {
		t.Errorf("the snapshot holds %d trajectories, the last %q; want %d, the last %d", len(ids), ids[len(ids)-1], trajectoryChunk-2, trajectoryChunk-3)
	}
}
