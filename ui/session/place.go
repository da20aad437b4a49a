package session

import (
	"slices"
	"sort"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// A Place is a trajectory as a view selected or opened it: its serial
// (rowSerials) and where its record was read. Follow mode moves a file's
// trajectories when a file before it is read again, and replaces those of
// the file read again: Find finds the trajectory again, by its serial
// while it is in the run, else by where it was read.
type Place struct {
	serial     int
	ID, Source string
	Line       int
	Offset     int64
}

// PlaceOf returns the place of trajectory i, a Place that Find never
// finds when i is out of range (no trajectory selected).
func (s *Session) PlaceOf(i int) Place {
	if i < 0 || i >= s.Trajectories.Len() {
		return Place{serial: -1}
	}
	t := s.Trajectories.At(i)
	return Place{serial: s.serials.serialOf(i), ID: t.ID, Source: t.Source, Line: t.Line, Offset: t.Offset}
}

// Find returns where p's trajectory is now, -1 when the run holds it no
// more: the same id read from the same place (source, line, offset), as
// a record read again when its file is. A row still in the run is at its
// serial less the serials deleted before it (a binary search over the
// runs deleted); one deleted, its file read again, is looked for among
// the rows of that file in the run, in the file's order (a binary search
// over the file's runs of serials, then one within the run).
func (s *Session) Find(p Place) int {
	if p.serial < 0 {
		return -1
	}
	i, kept := s.serials.indexOf(p.serial)
	if !kept {
		return s.findRead(p)
	}
	if i >= s.Trajectories.Len() || !p.holds(s.Trajectories.At(i)) {
		return -1
	}
	return i
}

// holds reports whether t is p's trajectory.
func (p Place) holds(t *scoring.Trajectory) bool {
	return t.ID == p.ID && t.Source == p.Source && t.Line == p.Line && t.Offset == p.Offset
}

// findRead returns where p's trajectory is now among the rows of p's file
// in the run (rowSerials.read), -1 when none is it. They are in the
// file's order, by ascending line, then offset (a JSON array's elements
// may share a line, Parquet's rows leave the offset 0): read again from
// the file's start, then grown.
func (s *Session) findRead(p Place) int {
	runs := s.serials.read[p.Source]
	at := func(serial int) *scoring.Trajectory {
		i, _ := s.serials.indexOf(serial)
		return s.Trajectories.At(i)
	}
	notBefore := func(t *scoring.Trajectory) bool {
		return t.Line > p.Line || t.Line == p.Line && t.Offset >= p.Offset
	}
	// The first run whose last row is not before p's holds it if any does.
	k := sort.Search(len(runs), func(k int) bool { return notBefore(at(runs[k].to - 1)) })
	if k == len(runs) {
		return -1
	}
	run := runs[k]
	j := sort.Search(run.to-run.from, func(j int) bool { return notBefore(at(run.from + j)) })
	if i, _ := s.serials.indexOf(run.from + j); p.holds(s.Trajectories.At(i)) {
		return i
	}
	return -1
}

// rowSerials numbers the rows in the order they were appended to the run,
// from 0, and keeps what Find needs of each: follow mode only deletes
// rows (those of the files read again) and appends rows, so the serials
// of the rows in the run ascend and row i's is i plus the serials deleted
// before it. Its size is that of the run, not of its history: the
// serials deleted are held as the gaps between the rows kept, and a
// file's runs of serials as they are since it was last read again.
type rowSerials struct {
	// deleted are the runs of serials deleted, ascending, each between
	// two rows kept (or before the first, or after the last);
	// deletedUpTo[k] counts the serials of deleted[:k+1].
	deleted     []span
	deletedUpTo []int
	// read are, by file read again, the runs of serials of its rows in
	// the run, ascending.
	read map[string][]span
}

// span is the serials from to to, to excluded.
type span struct{ from, to int }

// deletedBefore returns how many serials deleted[:k] holds.
func (r *rowSerials) deletedBefore(k int) int {
	if k == 0 {
		return 0
	}
	return r.deletedUpTo[k-1]
}

// serialOf returns the serial of row i of the run, 0 <= i: i plus the
// serials of the runs deleted before it, those with fewer than i+1 rows
// kept before them.
func (r *rowSerials) serialOf(i int) int {
	k := sort.Search(len(r.deleted), func(k int) bool { return r.deleted[k].from-r.deletedBefore(k) > i })
	return i + r.deletedBefore(k)
}

// indexOf returns the row of serial q in the run, and whether the run
// holds it (q not deleted); a serial past the run's last has the index
// it would have.
func (r *rowSerials) indexOf(q int) (int, bool) {
	k := sort.Search(len(r.deleted), func(k int) bool { return r.deleted[k].to > q })
	if k < len(r.deleted) && r.deleted[k].from <= q {
		return -1, false
	}
	return q - r.deletedBefore(k), true
}

// deleteReloaded deletes the trajectories of the files read again and
// notes, for Find, the serials deleted: the gaps between the serials of
// the rows kept, and after the last kept up to the next serial.
func (s *Session) deleteReloaded(reloaded []string) {
	r := &s.serials
	var now rowSerials // the runs deleted once the reload is done
	next := 0          // the serial after the last row kept
	gap := func(to int) {
		if to > next {
			now.deletedUpTo = append(now.deletedUpTo, now.deletedBefore(len(now.deleted))+to-next)
			now.deleted = append(now.deleted, span{next, to})
		}
	}
	i, k := 0, 0 // the row, the runs deleted before it
	s.Trajectories.DeleteFunc(func(t *scoring.Trajectory) bool {
		serial := i + r.deletedBefore(k)
		for k < len(r.deleted) && r.deleted[k].from <= serial {
			k++
			serial = i + r.deletedBefore(k)
		}
		i++
		if slices.Contains(reloaded, t.Source) {
			return true
		}
		gap(serial)
		next = serial + 1
		return false
	})
	gap(i + r.deletedBefore(len(r.deleted)))
	r.deleted, r.deletedUpTo = now.deleted, now.deletedUpTo
	if r.read == nil {
		r.read = map[string][]span{}
	}
	for _, f := range reloaded {
		r.read[f] = nil
	}
}

// noteRead notes the serials of ts, appended after the run's last row,
// among the runs of the files read again.
func (r *rowSerials) noteRead(ts []scoring.Trajectory, runLen int) {
	first := runLen - len(ts) + r.deletedBefore(len(r.deleted))
	for j := range ts {
		runs, ok := r.read[ts[j].Source]
		if !ok {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1].to == first+j {
			runs[n-1].to++
		} else {
			runs = append(runs, span{first + j, first + j + 1})
		}
		r.read[ts[j].Source] = runs
	}
}
