package session

import (
	"slices"
	"sort"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// A Place is a trajectory as a view selected or opened it: its index in
// the run as read Reloads times again (Session.Reloads) and where its
// record was read. Follow mode moves a file's trajectories when a file
// before it is read again, and replaces those of the file read again:
// Find finds the trajectory again, by the index while no file was read
// again, else by where it was read.
type Place struct {
	I, Reloads int
	ID, Source string
	Line       int
	Offset     int64
}

// PlaceOf returns the place of trajectory i, a Place that Find never
// finds when i is out of range (no trajectory selected).
func (s *Session) PlaceOf(i int) Place {
	if i < 0 || i >= s.Trajectories.Len() {
		return Place{I: -1}
	}
	t := s.Trajectories.At(i)
	return Place{I: i, Reloads: s.Reloads, ID: t.ID, Source: t.Source, Line: t.Line, Offset: t.Offset}
}

// Find returns where p's trajectory is now, -1 when the run holds it no
// more: the same id read from the same place (source, line, offset), as
// a record read again when its file is. A trajectory of a file not read
// again since moved up past the rows of the files read again before it
// (reload.kept); one of a file read again is looked for among the rows
// last read of that file (reload.read), by its line and offset. Each
// step is a binary search, over the runs of rows a reload deleted or
// read, or over the rows read of one file.
func (s *Session) Find(p Place) int {
	if p.I < 0 || p.Reloads > len(s.reloaded) {
		return -1
	}
	since := s.reloaded[p.Reloads:]
	for k := len(since) - 1; k >= 0; k-- {
		if runs, ok := since[k].read[p.Source]; ok {
			return s.findRead(p, runs, since[k+1:])
		}
	}
	i := p.I
	for _, r := range since {
		if i = r.kept(i); i < 0 {
			return -1
		}
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

// findRead returns where p's trajectory is now among runs, the rows a
// reload read of p's file, in the file's order (by ascending line, then
// offset: a JSON array's elements may share a line, Parquet's rows
// leave the offset 0), -1 when none is it. The later reloads did not
// read that file again: they moved each run up whole (reload.kept of its
// first row).
func (s *Session) findRead(p Place, runs []span, later []*reload) int {
	for _, run := range runs {
		from := run.from
		for _, r := range later {
			from = r.kept(from)
		}
		n := run.to - run.from
		j := sort.Search(n, func(j int) bool {
			t := s.Trajectories.At(from + j)
			return t.Line > p.Line || t.Line == p.Line && t.Offset >= p.Offset
		})
		if j < n && p.holds(s.Trajectories.At(from+j)) {
			return from + j
		}
	}
	return -1
}

// reload is how one update that read files again (ApplyUpdate) moved the
// rows: those of the files read again deleted, the others moved up past
// the ones deleted before them, and what was read of those files appended
// after them all.
type reload struct {
	// deleted are the runs of rows deleted, in the indices before,
	// ascending; deletedUpTo[k] counts the rows of deleted[:k+1].
	deleted     []span
	deletedUpTo []int
	// read are, by file read again, the runs of its rows appended, in the
	// indices after.
	read map[string][]span
}

// span is the rows from to to, to excluded.
type span struct{ from, to int }

// kept returns where row i, which the reload did not delete, is after
// it: i less the rows deleted before it.
func (r *reload) kept(i int) int {
	k := sort.Search(len(r.deleted), func(k int) bool { return r.deleted[k].from > i })
	if k == 0 {
		return i
	}
	return i - r.deletedUpTo[k-1]
}

// deleteReloaded deletes the trajectories of the files read again and
// notes which rows it deleted, for Find.
func (s *Session) deleteReloaded(reloaded []string) *reload {
	r := &reload{read: map[string][]span{}}
	i := 0
	s.Trajectories.DeleteFunc(func(t *scoring.Trajectory) bool {
		del := slices.Contains(reloaded, t.Source)
		if del {
			n := len(r.deleted)
			if n > 0 && r.deleted[n-1].to == i {
				r.deleted[n-1].to++
				r.deletedUpTo[n-1]++
			} else {
				r.deleted = append(r.deleted, span{i, i + 1})
				before := 0
				if n > 0 {
					before = r.deletedUpTo[n-1]
				}
				r.deletedUpTo = append(r.deletedUpTo, before+1)
			}
		}
		i++
		return del
	})
	for _, f := range reloaded {
		r.read[f] = nil
	}
	return r
}

// noteRead notes the runs of rows of the files read again among ts,
// appended from row from.
func (r *reload) noteRead(ts []scoring.Trajectory, from int) {
	for j := range ts {
		runs, ok := r.read[ts[j].Source]
		if !ok {
			continue
		}
		if n := len(runs); n > 0 && runs[n-1].to == from+j {
			runs[n-1].to++
		} else {
			runs = append(runs, span{from + j, from + j + 1})
		}
		r.read[ts[j].Source] = runs
	}
}
