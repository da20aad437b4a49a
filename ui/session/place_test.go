package session

import (
	"fmt"
	"math/rand/v2"
	"slices"
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
// lines kept; or caught part-written, its first rows only) and growing
// others (by the rows a part-written read left, or by a new line): every
// place noted along the way is found where a scan of the run finds the
// same record (id, source, line, offset), or nowhere when the run holds it
// no more.
func TestFindFollowsReloads(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	files := []string{"f0", "f1", "f2"}
	ids := map[string][]int{}  // each file's records, in its order
	readOf := map[string]int{} // how many of them the run holds
	next := 0
	var ts []scoring.Trajectory
	for _, f := range files {
		for range 4 {
			ids[f] = append(ids[f], next)
			next++
		}
		readOf[f] = len(ids[f])
		ts = append(ts, fileRows(f, ids[f])...)
	}
	s := newFindSession(t, ts)
	var places []Place
	note := func() {
		for i := range s.Trajectories.Len() {
			places = append(places, s.PlaceOf(i))
		}
	}
	note()
	for range 60 {
		var u loaders.Update
		for _, f := range files {
			switch rng.IntN(4) {
			case 0: // read again: a row inserted, another deleted
				rows := ids[f]
				at := rng.IntN(len(rows) + 1)
				rows = append(rows[:at:at], append([]int{next}, rows[at:]...)...)
				next++
				if len(rows) > 2 {
					del := rng.IntN(len(rows))
					rows = append(rows[:del:del], rows[del+1:]...)
				}
				ids[f], readOf[f] = rows, len(rows)
				u.Reloaded = append(u.Reloaded, f)
				u.Trajectories = append(u.Trajectories, fileRows(f, rows)...)
			case 1: // read again part-written: its first rows only
				readOf[f] = rng.IntN(len(ids[f]) + 1)
				u.Reloaded = append(u.Reloaded, f)
				u.Trajectories = append(u.Trajectories, fileRows(f, ids[f])[:readOf[f]]...)
			case 2: // grown: by the rows not read yet, else by a line
				if readOf[f] == len(ids[f]) {
					ids[f] = append(ids[f], next)
					next++
				}
				to := readOf[f] + 1 + rng.IntN(len(ids[f])-readOf[f])
				u.Trajectories = append(u.Trajectories, fileRows(f, ids[f])[readOf[f]:to]...)
				readOf[f] = to
			}
		}
		applyUpdate(s, u)
		for _, p := range places {
			if got, want := s.Find(p), scanFor(s, p); got != want {
				t.Fatalf("after %d reloads, %+v found at %d, want %d", s.Reloads, p, got, want)
			}
		}
		note()
	}
}

// TestFindHistoryBounded reads a file again, caught part-written, at
// every other of 4000 updates, the rest read at the next as growth,
// files before and after it kept: what Find keeps of the 2000 reloads
// stays two runs of serials deleted (where the file was, and its rows
// read since) and one run of its rows. With the file after it grown by a
// line at each update, the runs deleted stay at most one per row kept
// plus one. The places noted at the start are found all along.
func TestFindHistoryBounded(t *testing.T) {
	for _, grown := range []bool{false, true} {
		a, b, c := fileRows("a", []int{0, 1, 2}), fileRows("b", []int{10, 11, 12, 13}), fileRows("c", []int{20})
		s := newFindSession(t, slices.Concat(a, b, c))
		places := []Place{s.PlaceOf(1), s.PlaceOf(4), s.PlaceOf(7)} // a-1, b-11, c-20
		lines, updates := 1, 4000
		if grown {
			updates = 400 // each update's cost grows with the run
		}
		for k := range updates {
			var u loaders.Update
			if k%2 == 0 {
				u = loaders.Update{Reloaded: []string{"b"}, Trajectories: b[:2]}
			} else {
				u = loaders.Update{Trajectories: b[2:]}
			}
			if grown {
				lines++
				u.Trajectories = append(u.Trajectories, fileRows("c", make([]int, lines))[lines-1])
			}
			applyUpdate(s, u)
			deleted, runs := len(s.serials.deleted), len(s.serials.read["b"])
			if !grown && (deleted > 2 || runs > 1) || grown && deleted > s.Trajectories.Len()+1 {
				t.Fatalf("after %d updates (grown %v): %d runs deleted, %d runs of b, %d rows", k+1, grown, deleted, runs, s.Trajectories.Len())
			}
			for _, p := range places {
				if got, want := s.Find(p), scanFor(s, p); got != want {
					t.Fatalf("after %d updates (grown %v), %+v found at %d, want %d", k+1, grown, p, got, want)
				}
			}
		}
	}
}

// newFindSession returns a session of ts, its objective metadata.a.
func newFindSession(t *testing.T, ts []scoring.Trajectory) *Session {
	t.Helper()
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}}})
	if err != nil {
		t.Fatal(err)
	}
	return NewSession("run", ts, c)
}

// applyUpdate applies u to s as follow mode does.
func applyUpdate(s *Session, u loaders.Update) {
	l := live.NewOf(s.Computer.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	s.ApplyUpdate(l, u)
}

// scanFor returns the index of p's trajectory by a pass over the run, -1
// when the run holds it no more.
func scanFor(s *Session, p Place) int {
	for i, tr := range s.Trajectories.All() {
		if p.holds(tr) {
			return i
		}
	}
	return -1
}

// TestFindAfterAPartWrittenReload: a file rewritten in place is caught
// part-written: the reload reads its first two records, the next check
// reads the rest as growth. A place on its third record, noted before the
// reload, is found where the growth put it (same id, source, line,
// offset).
func TestFindAfterAPartWrittenReload(t *testing.T) {
	a := fileRows("a", []int{0, 1, 2, 3})
	s := newFindSession(t, slices.Concat(a, fileRows("b", []int{10, 11})))
	p := s.PlaceOf(2) // a-2
	applyUpdate(s, loaders.Update{Reloaded: []string{"a"}, Trajectories: a[:2]})
	applyUpdate(s, loaders.Update{Trajectories: a[2:]})
	if got, want := s.Find(p), 4; got != want || !p.holds(s.Trajectories.At(want)) {
		t.Fatalf("Find %d, want %d (%q)", got, want, s.Trajectories.At(want).ID)
	}
}
