// Package input is what every reader of loaders shares: the Loader of one
// input, which each trajectory read is handed to (its place in the input,
// its record fields by expression, the skipping of bad records, the
// handing over in chunks when streaming), the opening of an input (gzip,
// a byte order mark) and its check for binary bytes, and the Blocks of
// records that a reader parses on several goroutines and takes back in
// input order. It knows no format.
package input

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// LineError is a problem at a place in an input. Line is 1-based; Col is the
// 1-based byte column, or 0 when only the line is known. Element, when
// not 0 and without a Col, places a problem with a whole record as its
// trajectory is placed (scoring.Trajectory.Element: an element of a JSON
// array that shares its line), in place of the line.
type LineError struct {
	Path      string
	Line, Col int
	Element   int
	Msg       string
	// Text is a hash of the record's text when the reader has it (a JSON
	// line or array element: WithText), else 0: a followed file read
	// again tells the malformed record counted at a place from another
	// one there (Loader.Counted).
	Text uint64
}

// textSeed seeds LineError.Text's hashes, compared within one process.
var textSeed = maphash.MakeSeed()

// WithText returns e with Text the hash of text, the record's.
func (e *LineError) WithText(text []byte) *LineError {
	e.Text = maphash.Bytes(textSeed, text)
	return e
}

// Error returns "PATH:LINE: MSG", "PATH:LINE:COL: MSG" when Col > 0, or
// "PATH:element N: MSG" when Element > 0 without a Col.
func (e *LineError) Error() string {
	switch {
	case e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	case e.Element > 0:
		return fmt.Sprintf("%s:element %d: %s", e.Path, e.Element, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
}

// ReadError is a read error of an input, met reading the line Line:
// "PATH:LINE: read: ERR".
type ReadError struct {
	Path string
	Line int
	Err  error
}

func (e *ReadError) Error() string { return fmt.Sprintf("%s:%d: read: %v", e.Path, e.Line, e.Err) }

func (e *ReadError) Unwrap() error { return e.Err }

// MaxSkipReasons is how many skip reasons a Result keeps.
const MaxSkipReasons = 100

// Loaded is what a loader read and holds: the trajectories not handed
// over yet, and the lines, rows and elements skipped (SkipInvalid).
type Loaded struct {
	Trajectories []scoring.Trajectory
	Skipped      int
	SkipReasons  []*LineError
}

// skip records one skipped line, row or element.
func (r *Loaded) skip(e *LineError) {
	r.Skipped++
	if len(r.SkipReasons) < MaxSkipReasons {
		r.SkipReasons = append(r.SkipReasons, e)
	}
}

// StreamChunk is about how many trajectories Stream hands over at a time.
const StreamChunk = 8192

// Full reports whether the loader has read RowLimit trajectories.
func (l *Loader) Full() bool { return l.RowLimit > 0 && l.Count >= l.RowLimit }

// Loader reads the trajectories of one input.
type Loader struct {
	Name        string
	FileIndex   int
	SkipInvalid bool
	// MaxRecord is loaders' Options.MaxRecordBytes, its default applied.
	MaxRecord int64
	// RowLimit is loaders' Options.rowLimit.
	RowLimit int
	// Capped says a cap on the rows read (loaders' Options.MaxRows) falls
	// CapLeft rows into this input: a record rejected past them is not
	// read (Reject returns ErrPastCap), be it the one row read past the
	// cap to tell whether the cap cut a group.
	Capped  bool
	CapLeft int
	// Lead is the number of bytes before the text of line 1 that the reader
	// does not see (a byte order mark), added to columns on line 1.
	Lead int
	// Origin is the offset in the input of the first byte the reader
	// gives (past a byte order mark, or where following resumes).
	Origin int64
	// Resumed reports that the reader's text goes on from an input whose
	// start was read before (a followed file's growth): CheckText looked
	// at that start, and a line of binary data here is a malformed line,
	// not binary input.
	Resumed bool
	// Format is what the trajectories' Format records: the input's format
	// when Reread can read them again from it, else "".
	Format string
	// TableAdvice is what a JSON reader that finds a W&B table says to do,
	// which depends on the input's name and on how its format was chosen.
	TableAdvice string
	// Loaded holds what was read and not handed over yet.
	Loaded *Loaded
	// SizeHint is the size of the text in bytes when known, else 0.
	SizeHint int64
	// Count is the number of trajectories read so far.
	Count int
	// Each, when not nil, takes the trajectories as they are read (Stream).
	Each func([]scoring.Trajectory) error
	// Maps recycles the metadata maps when streaming (else nil), and spare
	// holds the loader's share of them.
	Maps  *MapStore
	spare []map[string]any
	// Scratch is where the loader's goroutine builds a trajectory.
	Scratch scoring.Trajectory
	// PickFor is Options.Pick until it is called; Pick is what it
	// returned, for the goroutines that parse JSONL.
	PickFor func(first *scoring.Trajectory) *scoring.Pick
	Pick    atomic.Pointer[scoring.Pick]
	// Picks recycles the arrays of picked values when streaming (else
	// nil); Taken holds those of the trajectories not handed over yet.
	Picks *PickedStore
	Taken [][]scoring.PickedValue
	// Fields is Options.Fields, this loader's copy.
	Fields *scoring.RecordFields
	// Advance, when not nil, is told the bytes of each Parquet row group
	// once its rows are read, Advanced their sum (loaders' readParquetFile).
	Advance  func(n int64)
	Advanced int64
	// Context is Options.Context (may be nil): the readers that do not read
	// through loaders' contextReader (Parquet's rows) check it themselves.
	Context context.Context
	// Counted, when not nil, is asked of each line, row or element skipped
	// (SkipInvalid) whether it counts: false for one an earlier reading of
	// the same input counted (a followed file read again from the start),
	// which is then skipped without being counted again.
	Counted func(e *LineError) bool
}

// first is called with the input's first trajectory, before it is handed
// over: it asks Options.Pick for the keys to pick.
func (l *Loader) first(t *scoring.Trajectory) {
	if l.PickFor == nil {
		return
	}
	if pick := l.PickFor(t); pick != nil && len(pick.Keys) > 0 && l.Fields == nil {
		l.Pick.Store(pick)
	}
	l.PickFor = nil
}

// ErrorAt returns the error msg at line and col (0 for none) of the input;
// col counts the bytes the reader saw on the line.
func (l *Loader) ErrorAt(line, col int, msg string) *LineError {
	if line == 1 && col > 0 {
		col += l.Lead
	}
	return &LineError{Path: l.Name, Line: line, Col: col, Msg: msg}
}

// Reject handles a bad line, row or element: with SkipInvalid it is recorded

// ErrPastCap is Reject's error for a record past the cap on the rows read
// (Loader.Capped): the reading ends there, what came before it kept.
var ErrPastCap = errors.New("a record past the cap on the rows read")

// and nil returned, otherwise e is returned.
func (l *Loader) Reject(e *LineError) error {
	if l.Capped && l.Count >= l.CapLeft {
		return ErrPastCap
	}
	if !l.SkipInvalid {
		return e
	}
	if l.Counted == nil || l.Counted(e) {
		l.Loaded.skip(e)
	}
	return nil
}

// NewTrajectory returns a trajectory read at line, its record starting at
// offset in what the reader gives, with every field at its default but the
// ID, which add sets.
func (l *Loader) NewTrajectory(line int, offset int64) scoring.Trajectory {
	return l.Trajectory(line, offset, l.NewMetadata())
}

// Trajectory is NewTrajectory with metadata as its Metadata.
func (l *Loader) Trajectory(line int, offset int64, metadata map[string]any) scoring.Trajectory {
	return scoring.Trajectory{
		Batch:    int64(l.FileIndex),
		Done:     true,
		Metadata: metadata,
		LoaderState: scoring.LoaderState{
			Source: l.Name,
			Line:   line,
			Offset: l.Origin + offset,
			Format: l.Format,
		},
	}
}

// Add keeps t, or hands it over with the next ones when streaming. A
// trajectory without an ID takes its position, which counts only the
// trajectories loaded so far.
func (l *Loader) Add(t scoring.Trajectory) error {
	defaulted := t.ID == ""
	if defaulted {
		t.ID = strconv.Itoa(l.Count)
	}
	if err := l.derive(&t, defaulted); err != nil {
		return l.Reject(err)
	}
	if l.Count == 0 {
		l.first(&t)
	}
	l.Loaded.Trajectories = append(l.Loaded.Trajectories, t)
	l.Count++
	return l.Flush(false)
}

// derive sets t's record fields by expression (Options.Fields), if any.
// When they set the batch but not the ID, a trajectory whose ID is its
// position (defaulted) is named "BATCH:POSITION": a trainer writes a file
// per step, whose positions repeat from file to file.
func (l *Loader) derive(t *scoring.Trajectory, defaulted bool) *LineError {
	if l.Fields == nil {
		return nil
	}
	if err := l.Fields.Apply(t); err != nil {
		e := &LineError{Path: l.Name, Line: t.Line, Element: t.Element, Msg: err.Error()}
		return e.WithText(recordText(t))
	}
	if defaulted && l.Fields.SetsBatch() && !l.Fields.SetsID() {
		t.ID = strconv.FormatInt(t.Batch, 10) + ":" + t.ID
	}
	return nil
}

// recordText is what stands for t's record text where a reader's is not
// at hand (a record field's expression failed on the record read): its
// fields as read, the metadata's keys in order, for LineError.Text.
func recordText(t *scoring.Trajectory) []byte {
	return fmt.Appendf(nil, "%q %d %q %d %q %v", t.ID, t.Batch, t.Group, t.StepCount, t.Response, t.Metadata)
}

// Flush hands the trajectories kept so far to l.each when streaming and
// they are enough, or when final.
func (l *Loader) Flush(final bool) error {
	ts := l.Loaded.Trajectories
	if l.Each == nil || len(ts) == 0 || (len(ts) < StreamChunk && !final) {
		return nil
	}
	err := l.Each(ts)
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
		l.Maps.give(used)
	}
	l.Picks.Give(l.Taken)
	l.Taken = nil
	clear(ts) // what each was given is no longer referenced
	l.Loaded.Trajectories = ts[:0]
	return err
}

// NewMetadata returns an empty metadata map: a reused one when streaming.
func (l *Loader) NewMetadata() map[string]any {
	return l.Maps.Next(&l.spare)
}

// FreeList holds things to reuse, for goroutines to share.
type FreeList[T any] struct {
	mu    sync.Mutex
	items []T
}

// Put stores items.
func (l *FreeList[T]) Put(items ...T) {
	l.mu.Lock()
	l.items = append(l.items, items...)
	l.mu.Unlock()
}

// Pop takes the item stored last, if any.
func (l *FreeList[T]) Pop() (item T, ok bool) {
	l.mu.Lock()
	if n := len(l.items); n > 0 {
		item, ok = l.items[n-1], true
		l.items = l.items[:n-1]
	}
	l.mu.Unlock()
	return item, ok
}

// MapStore recycles the metadata maps of streamed trajectories: making a
// map per trajectory is a good part of the cost of reading one. The maps
// go back and forth in batches, so that the goroutines that parse take the
// lock once per batch. The nil *MapStore recycles nothing.
//
// The maps are given back as they were handed over, and next clears them:
// so the goroutines that parse JSONL clear the maps they take, which
// spares that work to the reading goroutine, whose work is serial.
type MapStore struct {
	batches FreeList[[]map[string]any]
}

// give stores a batch of used maps.
func (s *MapStore) give(batch []map[string]any) { s.batches.Put(batch) }

// Next returns an empty map: one from spare, cleared, which it refills
// with a stored batch when empty, or a new map.
func (s *MapStore) Next(spare *[]map[string]any) map[string]any {
	if s == nil {
		return map[string]any{}
	}
	if len(*spare) == 0 {
		*spare, _ = s.batches.Pop()
	}
	if n := len(*spare); n > 0 {
		m := (*spare)[n-1]
		*spare = (*spare)[:n-1]
		clear(m)
		return m
	}
	return map[string]any{}
}

// PickedStore recycles the arrays that JSONL blocks pick metadata values
// into when streaming: a block's array is free once its trajectories are
// handed over. A new array per block took as many new pages as the
// metadata maps it replaces. The nil *PickedStore recycles nothing.
type PickedStore struct {
	arrays FreeList[[]scoring.PickedValue]
}

// Give stores arrays no trajectory points into any more.
func (s *PickedStore) Give(arrays [][]scoring.PickedValue) {
	if s != nil {
		s.arrays.Put(arrays...)
	}
}

// Take returns n zero values: a stored array when one is large enough.
func (s *PickedStore) Take(n int) []scoring.PickedValue {
	if s != nil {
		if a, _ := s.arrays.Pop(); cap(a) >= n {
			a = a[:n]
			clear(a)
			return a
		}
	}
	return make([]scoring.PickedValue, n)
}

// ErrNoRecord is NoTrajectories' error for an input that holds no record
// at all (nothing skipped): a CSV file of its header alone, say.
var ErrNoRecord = errors.New("no trajectories")

// NoTrajectories is the error for an input that yields no trajectory; when
// everything was skipped it also says why, since the caller gets no Result.
func (l *Loader) NoTrajectories() error {
	if l.Loaded.Skipped == 0 {
		return fmt.Errorf("%w in %s", ErrNoRecord, l.Name)
	}
	return fmt.Errorf("no trajectories in %s (%d skipped, the first: %v)", l.Name, l.Loaded.Skipped, l.Loaded.SkipReasons[0])
}
