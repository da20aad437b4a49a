package session

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// fileRows returns the rows of file src read from its start: the records
// of ids, two a line (as a JSON array's elements may be), each record's
// offset its place in the file times 100.
func fileRows(src string, ids []int) []scoring.Trajectory {
	ts := make([]scoring.Trajectory, len(ids))
	for k, id := range ids {
		ts[k] = scoring.Trajectory{
			ID: fmt.Sprint(src, "-", id), Batch: int64(id % 2), Group: "g", Done: true,
			Metadata:    map[string]any{"a": float64(id % 3)},
			LoaderState: scoring.LoaderState{Source: src, Line: k/2 + 1, Offset: int64(k) * 100},
		}
	}
	return ts
}

// TestFindFollowsReloads follows a run of three files through random
// updates, each reading some of them again (a row inserted, one deleted,
// lines kept) and growing others: every place noted along the way is
// found where a scan of the run finds the same record (id, source, line,
// offset), or nowhere when the run holds it no more.
func TestFindFollowsReloads(t *testing.T) {
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	files := []string{"f0", "f1", "f2"}
	ids := map[string][]int{}
	next := 0
	var ts []scoring.Trajectory
	for _, f := range files {
		for range 4 {
			ids[f] = append(ids[f], next)
			next++
		}
		ts = append(ts, fileRows(f, ids[f])...)
	}
	s := NewSession("run", ts, c)
	var places []Place
	note := func() {
		for i := range s.Trajectories.Len() {
			places = append(places, s.PlaceOf(i))
		}
	}
	note()
	for range 30 {
		var u loaders.Update
		for _, f := range files {
			switch rng.IntN(3) {
			case 0: // read again: a row inserted, another deleted
				rows := ids[f]
				at := rng.IntN(len(rows) + 1)
				rows = append(rows[:at:at], append([]int{next}, rows[at:]...)...)
				next++
				if len(rows) > 2 {
					del := rng.IntN(len(rows))
					rows = append(rows[:del:del], rows[del+1:]...)
				}
				ids[f] = rows
				u.Reloaded = append(u.Reloaded, f)
				u.Trajectories = append(u.Trajectories, fileRows(f, rows)...)
			case 1: // grown by a line
				ids[f] = append(ids[f], next)
				next++
				all := fileRows(f, ids[f])
				u.Trajectories = append(u.Trajectories, all[len(all)-1])
			}
		}
		l := live.NewOf(s.Computer.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
		s.ApplyUpdate(l, u)
		for _, p := range places {
			want := -1
			for i, tr := range s.Trajectories.All() {
				if p.holds(tr) {
					want = i
				}
			}
			if got := s.Find(p); got != want {
				t.Fatalf("after %d reloads, %+v found at %d, want %d", s.Reloads, p, got, want)
			}
		}
		note()
	}
}
