package loaders

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine"
)

// LineError is a problem at a place in an input. Line is 1-based; Col is the
// 1-based byte column, or 0 when only the line is known.
type LineError struct {
	Path      string
	Line, Col int
	Msg       string
}

// Error returns "PATH:LINE: MSG", or "PATH:LINE:COL: MSG" when Col > 0.
func (e *LineError) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

// maxSkipReasons is how many skip reasons a Result keeps.
const maxSkipReasons = 100

// loaded is what a loader read and holds: the trajectories not handed
// over yet, and the lines, rows and elements skipped (SkipInvalid).
type loaded struct {
	Trajectories []engine.Trajectory
	Skipped      int
	SkipReasons  []*LineError
}

// skip records one skipped line, row or element.
func (r *loaded) skip(e *LineError) {
	r.Skipped++
	if len(r.SkipReasons) < maxSkipReasons {
		r.SkipReasons = append(r.SkipReasons, e)
	}
}

// streamChunk is about how many trajectories Stream hands over at a time.
const streamChunk = 8192

// full reports whether the loader has read Options.rowLimit trajectories.
func (l *loader) full() bool { return l.rowLimit > 0 && l.n >= l.rowLimit }

// loader reads the trajectories of one input.
type loader struct {
	name        string
	fileIndex   int
	skipInvalid bool
	// maxRecord is Options.MaxRecordBytes, its default applied.
	maxRecord int64
	// rowLimit is Options.rowLimit.
	rowLimit int
	// lead is the number of bytes before the text of line 1 that the reader
	// does not see (a byte order mark), added to columns on line 1.
	lead int
	// origin is the offset in the input of the first byte the reader
	// gives (past a byte order mark, or where following resumes).
	origin int64
	// format is what the trajectories' Format records: the input's format
	// when Reread can read them again from it, else "".
	format string
	res    *loaded
	// sizeHint is the size of the text in bytes when known, else 0.
	sizeHint int64
	// n counts the trajectories read so far.
	n int
	// each, when not nil, takes the trajectories as they are read (Stream).
	each func([]engine.Trajectory) error
	// maps recycles the metadata maps when streaming (else nil), and spare
	// holds the loader's share of them.
	maps  *mapStore
	spare []map[string]any
	// scratch is where the loader's goroutine builds a trajectory.
	scratch engine.Trajectory
	// pickFor is Options.Pick until it is called; pick is what it
	// returned, for the goroutines that parse JSONL.
	pickFor func(first *engine.Trajectory) *engine.Pick
	pick    atomic.Pointer[engine.Pick]
	// picks recycles the arrays of picked values when streaming (else
	// nil); taken holds those of the trajectories not handed over yet.
	picks *pickedStore
	taken [][]engine.PickedValue
	// fields is Options.Fields, this loader's copy.
	fields *engine.RecordFields
	// advance, when not nil, is told the bytes of each Parquet row group
	// once its rows are read, advanced their sum (readParquetFile).
	advance  func(n int64)
	advanced int64
	// ctx is Options.Context (may be nil): the readers that do not read
	// through a contextReader (Parquet's rows) check it themselves.
	ctx context.Context
}

// first is called with the input's first trajectory, before it is handed
// over: it asks Options.Pick for the keys to pick.
func (l *loader) first(t *engine.Trajectory) {
	if l.pickFor == nil {
		return
	}
	if pick := l.pickFor(t); pick != nil && len(pick.Keys) > 0 && l.fields == nil {
		l.pick.Store(pick)
	}
	l.pickFor = nil
}

// errorAt returns the error msg at line and col (0 for none) of the input;
// col counts the bytes the reader saw on the line.
func (l *loader) errorAt(line, col int, msg string) *LineError {
	if line == 1 && col > 0 {
		col += l.lead
	}
	return &LineError{Path: l.name, Line: line, Col: col, Msg: msg}
}

// reject handles a bad line, row or element: with SkipInvalid it is recorded
// and nil returned, otherwise e is returned.
func (l *loader) reject(e *LineError) error {
	if !l.skipInvalid {
		return e
	}
	l.res.skip(e)
	return nil
}

// newTrajectory returns a trajectory read at line, its record starting at
// offset in what the reader gives, with every field at its default but the
// ID, which add sets.
func (l *loader) newTrajectory(line int, offset int64) engine.Trajectory {
	return l.trajectory(line, offset, l.newMetadata())
}

// trajectory is newTrajectory with metadata as its Metadata.
func (l *loader) trajectory(line int, offset int64, metadata map[string]any) engine.Trajectory {
	return engine.Trajectory{
		Batch:    int64(l.fileIndex),
		Done:     true,
		Metadata: metadata,
		LoaderState: engine.LoaderState{
			Source: l.name,
			Line:   line,
			Offset: l.origin + offset,
			Format: l.format,
		},
	}
}

// add keeps t, or hands it over with the next ones when streaming. A
// trajectory without an ID takes its position, which counts only the
// trajectories loaded so far.
func (l *loader) add(t engine.Trajectory) error {
	defaulted := t.ID == ""
	if defaulted {
		t.ID = strconv.Itoa(l.n)
	}
	if err := l.derive(&t, defaulted); err != nil {
		return l.reject(err)
	}
	if l.n == 0 {
		l.first(&t)
	}
	l.res.Trajectories = append(l.res.Trajectories, t)
	l.n++
	return l.flush(false)
}

// derive sets t's record fields by expression (Options.Fields), if any.
// When they set the batch but not the ID, a trajectory whose ID is its
// position (defaulted) is named "BATCH:POSITION": a trainer writes a file
// per step, whose positions repeat from file to file.
func (l *loader) derive(t *engine.Trajectory, defaulted bool) *LineError {
	if l.fields == nil {
		return nil
	}
	if err := l.fields.Apply(t); err != nil {
		return &LineError{Path: l.name, Line: t.Line, Msg: err.Error()}
	}
	if defaulted && l.fields.SetsBatch() && !l.fields.SetsID() {
		t.ID = strconv.FormatInt(t.Batch, 10) + ":" + t.ID
	}
	return nil
}

// flush hands the trajectories kept so far to l.each when streaming and
// they are enough, or when final.
func (l *loader) flush(final bool) error {
	ts := l.res.Trajectories
	if l.each == nil || len(ts) == 0 || (len(ts) < streamChunk && !final) {
		return nil
	}
	err := l.each(ts)
	var used []map[string]any
	for i := range ts {
		if m := ts[i].Metadata; m != nil { // nil when picked
			if used == nil {
				used = make([]map[string]any, 0, len(ts)-i)
			}
			used = append(used, m)
		}
	}
	if used != nil {
		l.maps.give(used)
	}
	l.picks.give(l.taken)
	l.taken = nil
	clear(ts) // what each was given is no longer referenced
	l.res.Trajectories = ts[:0]
	return err
}

// newMetadata returns an empty metadata map: a reused one when streaming.
func (l *loader) newMetadata() map[string]any {
	return l.maps.next(&l.spare)
}

// freeList holds things to reuse, for goroutines to share.
type freeList[T any] struct {
	mu    sync.Mutex
	items []T
}

// put stores items.
func (l *freeList[T]) put(items ...T) {
	l.mu.Lock()
	l.items = append(l.items, items...)
	l.mu.Unlock()
}

// pop takes the item stored last, if any.
func (l *freeList[T]) pop() (item T, ok bool) {
	l.mu.Lock()
	if n := len(l.items); n > 0 {
		item, ok = l.items[n-1], true
		l.items = l.items[:n-1]
	}
	l.mu.Unlock()
	return item, ok
}

// mapStore recycles the metadata maps of streamed trajectories: making a
// map per trajectory is a good part of the cost of reading one. The maps
// go back and forth in batches, so that the goroutines that parse take the
// lock once per batch. The nil *mapStore recycles nothing.
//
// The maps are given back as they were handed over, and next clears them:
// so the goroutines that parse JSONL clear the maps they take, which
// spares that work to the reading goroutine, whose work is serial.
type mapStore struct {
	batches freeList[[]map[string]any]
}

// give stores a batch of used maps.
func (s *mapStore) give(batch []map[string]any) { s.batches.put(batch) }

// next returns an empty map: one from spare, cleared, which it refills
// with a stored batch when empty, or a new map.
func (s *mapStore) next(spare *[]map[string]any) map[string]any {
	if s == nil {
		return map[string]any{}
	}
	if len(*spare) == 0 {
		*spare, _ = s.batches.pop()
	}
	if n := len(*spare); n > 0 {
		m := (*spare)[n-1]
		*spare = (*spare)[:n-1]
		clear(m)
		return m
	}
	return map[string]any{}
}

// pickedStore recycles the arrays that JSONL blocks pick metadata values
// into when streaming: a block's array is free once its trajectories are
// handed over. A new array per block took as many new pages as the
// metadata maps it replaces. The nil *pickedStore recycles nothing.
type pickedStore struct {
	arrays freeList[[]engine.PickedValue]
}

// give stores arrays no trajectory points into any more.
func (s *pickedStore) give(arrays [][]engine.PickedValue) {
	if s != nil {
		s.arrays.put(arrays...)
	}
}

// take returns n zero values: a stored array when one is large enough.
func (s *pickedStore) take(n int) []engine.PickedValue {
	if s != nil {
		if a, _ := s.arrays.pop(); cap(a) >= n {
			a = a[:n]
			clear(a)
			return a
		}
	}
	return make([]engine.PickedValue, n)
}

// noTrajectories is the error for an input that yields no trajectory; when
// everything was skipped it also says why, since the caller gets no Result.
func (l *loader) noTrajectories() error {
	if l.res.Skipped == 0 {
		return fmt.Errorf("no trajectories in %s", l.name)
	}
	return fmt.Errorf("no trajectories in %s (%d skipped, the first: %v)", l.name, l.res.Skipped, l.res.SkipReasons[0])
}
