// Package loaders reads trajectory files (JSON arrays, JSONL/NDJSON, CSV,
// each optionally gzipped) into engine.Trajectory values, following the
// "Trajectories" section of docs/CONTRACT.md.
//
// Every problem with the input is reported with its place, "PATH:LINE: what
// is wrong" (see LineError); with Options.SkipInvalid, a bad line, row or
// array element is counted and skipped instead, and every good one is kept.
// Inputs are only ever opened for reading.
//
// Each trajectory records where its record starts in its file
// (engine.Trajectory.Offset) and, when the file can be read there again,
// its Format: Reread then reads the record back whole, so that a caller
// that keeps many trajectories may drop their responses and metadata once
// evaluated (engine.Trajectory.DropBody). Standard input, gzip files
// (which cannot seek) and Parquet files are read once: their trajectories
// keep their bodies.
package loaders

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/openctx"
)

// Options control how inputs are read.
type Options struct {
	// Format is the format of every input. "" chooses it per input from the
	// file name (.json, .jsonl, .ndjson, .csv, each optionally followed by
	// .gz, and .parquet) or, for "-" and unknown extensions, from the
	// content: Parquet's magic bytes, else the first byte that is not white
	// space: '[' is JSON, '{' is JSONL, anything else CSV.
	Format Format
	// SkipInvalid skips malformed lines, rows and array elements (counting
	// them in Result.Skipped) instead of failing on the first one. Errors
	// that leave nothing to resume from (a JSON syntax error, a bad CSV
	// header, a read error) still fail.
	SkipInvalid bool
	// Stdin is what the path "-" reads; nil means os.Stdin.
	Stdin io.Reader
	// Progress, when not nil, is called as Load reads, with the bytes read
	// so far over all inputs and their total size (0 when unknown, as for
	// standard input), so that a caller can show a progress bar.
	Progress func(done, total int64)
	// Context, when not nil, stops the reading once it is done: the next
	// read fails with its error.
	Context context.Context
	// Pick, when not nil, is called with the first trajectory of each
	// input, on the goroutine that calls Stream's each and before that
	// trajectory is handed over, and may return the metadata keys that are
	// all the caller reads of the metadata (engine.Pick). Trajectories read
	// after it may then come with Pick set, those keys' values in Picked,
	// and no Metadata: for now, the JSONL lines that take the fast path.
	Pick func(first *engine.Trajectory) *engine.Pick
	// Fields, when not nil, sets each trajectory's group, batch and ID by
	// expression (engine.RecordFields), once it is read whole and before
	// it is handed over (or to Pick); a record it fails on is rejected
	// like a malformed one, "PATH:LINE: group_by "input": missing...".
	// Trajectories then never come with a Pick: the expressions read the
	// whole record.
	Fields *engine.RecordFields
	// MaxRecordBytes bounds one JSONL line, JSON array element or CSV row
	// (DefaultMaxRecordBytes when 0): a longer one is a LineError "record
	// longer than ..." found as it is read, and not held (a JSONL line is
	// skipped and counted with SkipInvalid; the JSON and CSV decoders
	// cannot resume, so there it ends the reading), so that a record of
	// gigabytes (a gzip bomb) costs no memory.
	MaxRecordBytes int64
	// MaxRows, when above 0, is how many trajectories Load and Stream read
	// at most, in input order over all inputs: past them the reading stops
	// and the Result is Capped (Follow does not take it).
	MaxRows int
	// rowLimit, when above 0, is how many trajectories of one input are
	// read at most: MaxRows+1 when capping (one past the cap tells that
	// there is more), 1 for Peek. The readers that read ahead (Parquet's
	// row batches, JSONL's blocks) read no further.
	rowLimit int
}

// DefaultMaxRecordBytes is Options.MaxRecordBytes when it is 0: 256 MiB.
const DefaultMaxRecordBytes = 256 << 20

// maxRecord is MaxRecordBytes, its default applied.
func (o Options) maxRecord() int64 { return cmp.Or(o.MaxRecordBytes, DefaultMaxRecordBytes) }

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

// Result is what Load and Read return.
type Result struct {
	// Trajectories are in input order, all files concatenated.
	Trajectories []engine.Trajectory
	// Skipped counts the lines, rows and elements skipped (SkipInvalid).
	Skipped int
	// SkipReasons are the first 100 reasons for skipping, in input order.
	SkipReasons []*LineError
	// Capped reports that the reading stopped at Options.MaxRows: the rest
	// of the inputs was not read.
	Capped bool
	// Unfinished are the newest files of the directories given that were
	// read in part or not at all, as their run is still writing them
	// (see Load), or, following, the Parquet files without their footer
	// yet (see Follow): a warning each.
	Unfinished []Unfinished
	// picked are the arrays the picked values of Trajectories are in, when
	// recycled (a followed file's growth, Update.Recycle).
	picked [][]engine.PickedValue
}

// skip records one skipped line, row or element.
func (r *Result) skip(e *LineError) {
	r.Skipped++
	if len(r.SkipReasons) < maxSkipReasons {
		r.SkipReasons = append(r.SkipReasons, e)
	}
}

// append adds the trajectories and skips of o after those of r.
func (r *Result) append(o *Result) {
	if r.Trajectories == nil {
		r.Trajectories = o.Trajectories // spares copying the only input
	} else {
		r.Trajectories = append(r.Trajectories, o.Trajectories...)
	}
	r.Skipped += o.Skipped
	r.Unfinished = append(r.Unfinished, o.Unfinished...)
	room := maxSkipReasons - len(r.SkipReasons)
	r.SkipReasons = append(r.SkipReasons, o.SkipReasons[:min(room, len(o.SkipReasons))]...)
}

// stdinName is the name of standard input in messages and Trajectory.Source.
const stdinName = "<stdin>"

// Load reads every path in order: the i-th path is file index i, the default
// batch of its trajectories, once directories are expanded to the input
// files they hold (see Expand). The path "-" is standard input (Options.Stdin),
// which can be given once. A missing or unreadable file is an error naming
// it, and so is a file without any trajectory ("no trajectories in PATH").
//
// The newest file of a directory (its last in natural order), which a live
// run may be writing, is read as it is when Load looks at it, without its
// last line when that line has no line end and is not a record yet; it is
// left out when it is empty or a Parquet file without its footer yet.
// Result.Unfinished says so, with the reason; with nothing else to read,
// it is the error "no trajectories yet". Any other broken file stays an
// error, with or without SkipInvalid.
func Load(paths []string, opts Options) (*Result, error) {
	return load(paths, opts, nil)
}

// Stream reads paths as Load does, but instead of keeping the trajectories
// it hands them to each, in input order, some thousands at a time: the
// Result it returns has no Trajectories. A caller that only needs what it
// derives from them (rewards, statistics) so never holds every trajectory
// in memory. Once each returns, Stream reuses the slice it was given and
// the trajectories' Metadata maps: each may keep the trajectories' other
// fields, not those. An error from each stops the reading and is returned
// as is.
func Stream(paths []string, opts Options, each func(ts []engine.Trajectory) error) (*Result, error) {
	return load(paths, opts, each)
}

// streamChunk is about how many trajectories Stream hands over at a time.
const streamChunk = 8192

func load(paths []string, opts Options, each func([]engine.Trajectory) error) (*Result, error) {
	if len(paths) == 0 {
		return nil, errors.New("no input files")
	}
	if stdinCount(paths) > 1 {
		return nil, errors.New(`standard input ("-") given more than once`)
	}
	files, err := expandInputs(paths, dirInputs)
	if err != nil {
		return nil, err
	}
	paths = make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	total := &Result{}
	var kept []engine.Trajectory // Load's, when capped
	if opts.MaxRows > 0 {
		each = capRows(opts.MaxRows, each, &kept)
		opts.rowLimit = opts.MaxRows + 1
	}
	progress := newProgress(paths, opts.Progress)
	anyRead := false // whether a file was read, not only left out
	for i, f := range files {
		limit := int64(-1)
		if f.newest {
			var u *Unfinished
			if limit, u, err = liveSpan(f.path, opts); err != nil {
				return nil, err
			}
			if u != nil {
				total.Unfinished = append(total.Unfinished, *u)
				if u.Whole {
					continue
				}
			}
		}
		anyRead = true
		res, err := loadPrefix(f.path, i, opts, progress, each, limit)
		if errors.Is(err, errRowsCapped) {
			total.Capped = true
			if res != nil {
				total.append(res) // the lines skipped before the cap
			}
			break
		}
		if err != nil {
			return nil, err
		}
		total.append(res)
	}
	if !anyRead {
		return nil, fmt.Errorf("no trajectories yet: %s", total.Unfinished[0])
	}
	if opts.MaxRows > 0 && kept != nil {
		total.Trajectories = kept
	}
	return total, nil
}

// ExpectedCount estimates how many trajectories inputs of size bytes hold
// from the first ones read, ts: the size over the bytes per record so far,
// plus 5%, so that a caller reserves its arrays once. It is 0 when it
// cannot tell: the size is unknown (standard input) or the records have no
// offsets (Parquet).
func ExpectedCount(size int64, ts []engine.Trajectory) int {
	n := len(ts)
	if size <= 0 || n < 2 || ts[n-1].Source != ts[0].Source || ts[n-1].Offset <= ts[0].Offset {
		return 0
	}
	perRecord := float64(ts[n-1].Offset-ts[0].Offset) / float64(n-1)
	return int(float64(size)/perRecord*1.05) + 1
}

// CappedWarning says that Options.MaxRows stopped the reading after n
// trajectories, and what that means for the rewards.
func CappedWarning(n int) string {
	noun := "trajectories"
	if n == 1 {
		noun = "trajectory"
	}
	return fmt.Sprintf("read only the first %d %s (--max-rows); the rest of the input was not read, so the last group read may lack members", n, noun)
}

// errRowsCapped stops the reading at Options.MaxRows.
var errRowsCapped = errors.New("rows capped")

// capRows returns each, handed at most max trajectories in all, and
// stopping the reading with errRowsCapped once one more comes. A nil each
// (Load) keeps copies of them in *kept, their maps their own: the reading
// streams, to stop as soon as the cap is reached.
func capRows(max int, each func([]engine.Trajectory) error, kept *[]engine.Trajectory) func([]engine.Trajectory) error {
	if each == nil {
		*kept = []engine.Trajectory{}
		each = func(ts []engine.Trajectory) error {
			for _, t := range ts {
				t.Metadata, t.Picked = maps.Clone(t.Metadata), slices.Clone(t.Picked)
				*kept = append(*kept, t)
			}
			return nil
		}
	}
	left := max
	return func(ts []engine.Trajectory) error {
		if len(ts) <= left {
			left -= len(ts)
			return each(ts)
		}
		if left > 0 {
			if err := each(ts[:left]); err != nil {
				return err
			}
		}
		left = 0
		return errRowsCapped
	}
}

// progress adds up the bytes read over all inputs for Options.Progress.
type progress struct {
	report      func(done, total int64)
	done, total int64
}

// newProgress returns nil when report is nil, else a progress whose total
// is the size of the files among paths.
func newProgress(paths []string, report func(done, total int64)) *progress {
	if report == nil {
		return nil
	}
	p := &progress{report: report}
	for _, path := range paths {
		if st, err := os.Stat(path); path != "-" && err == nil {
			p.total += st.Size()
		}
	}
	return p
}

// reader returns r counting what is read through it (r itself for a nil
// progress).
func (p *progress) reader(r io.Reader) io.Reader {
	if p == nil {
		return r
	}
	return readerFunc(func(b []byte) (int, error) {
		n, err := r.Read(b)
		p.done += int64(n)
		p.report(p.done, p.total)
		return n, err
	})
}

// add reports n more bytes read (nothing for a nil progress).
func (p *progress) add(n int64) {
	if p != nil {
		p.done += n
		p.report(p.done, p.total)
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }

// stdinCount returns how many of paths are "-".
func stdinCount(paths []string) int {
	n := 0
	for _, p := range paths {
		if p == "-" {
			n++
		}
	}
	return n
}

// loadPath reads one path given to Load.
func loadPath(path string, fileIndex int, opts Options, progress *progress, each func([]engine.Trajectory) error) (*Result, error) {
	return loadPrefix(path, fileIndex, opts, progress, each, -1)
}

// loadPrefix is loadPath reading only the first limit bytes of the file
// (liveSpan), or all of it when limit < 0.
func loadPrefix(path string, fileIndex int, opts Options, progress *progress, each func([]engine.Trajectory) error, limit int64) (*Result, error) {
	if path == "-" {
		stdin := opts.Stdin
		if stdin == nil {
			stdin = os.Stdin
		}
		return read(progress.reader(stdin), stdinName, fileIndex, opts, 0, each)
	}
	// A FIFO blocks in open until a writer comes: ctrl+c must end that too.
	f, err := openctx.OpenFile(opts.Context, path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err // *fs.PathError: "open PATH: reason", or the interrupt
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", path)
		}
		if st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	if limit >= 0 {
		size = min(size, limit)
	}
	if size > 0 && parquetInPlace(f, path, opts.Format) {
		return readParquetFile(f, path, fileIndex, opts, size, progress, each)
	}
	var r io.Reader = f
	if limit >= 0 {
		r = io.LimitReader(f, limit)
	}
	return read(progress.reader(r), path, fileIndex, opts, size, each)
}

// Read reads one input that is already open. name is used in messages, as
// Trajectory.Source and, when opts.Format is "", to choose the format by
// extension; fileIndex is the default batch. A gzip stream is recognised by
// its magic bytes and decompressed, and a leading UTF-8 byte order mark is
// ignored. Errors are as for Load.
func Read(r io.Reader, name string, fileIndex int, opts Options) (*Result, error) {
	return read(r, name, fileIndex, opts, 0, nil)
}

// read is Read with the size of the input in bytes when it is the regular
// file called name (else 0): a hint for the memory to reserve, and what
// makes its records readable again by offset (engine.Trajectory.Format),
// unless gzipped; and, when each is not nil, streaming the trajectories to
// each (see Stream).
func read(r io.Reader, name string, fileIndex int, opts Options, size int64, each func([]engine.Trajectory) error) (*Result, error) {
	format, err := ParseFormat(string(opts.Format))
	if err != nil {
		return nil, err
	}
	in, err := openInput(withContext(opts.Context, r))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if format == "" {
		format = detectFormat(name, in.r)
	}
	spec := format.spec()
	if in.gzipped {
		size = 0
	}
	l := newLoader(name, fileIndex, opts, size, each)
	l.lead, l.origin = in.lead, int64(in.lead)
	if size > 0 && spec.reread != nil {
		l.format = string(format)
	}
	return l.finish(spec.read(l, in.r))
}

// newLoader returns the loader of the input called name, of size bytes
// when known (else 0), for read.
func newLoader(name string, fileIndex int, opts Options, size int64, each func([]engine.Trajectory) error) *loader {
	l := &loader{name: name, fileIndex: fileIndex, skipInvalid: opts.SkipInvalid, res: &Result{}, each: each, pickFor: opts.Pick, fields: opts.Fields.Clone(), maxRecord: opts.maxRecord(), rowLimit: opts.rowLimit, sizeHint: size, ctx: opts.Context}
	if each != nil {
		l.maps, l.picks = &mapStore{}, &pickedStore{}
	}
	return l
}

// finish hands over the last trajectories once the reader returned err,
// and returns read's result.
func (l *loader) finish(err error) (*Result, error) {
	if err == nil {
		err = l.flush(true)
	}
	if errors.Is(err, errRowsCapped) {
		return l.res, err // what was read before the cap stopped it
	}
	if err != nil {
		return nil, err
	}
	if l.n == 0 {
		return nil, l.noTrajectories()
	}
	if ts := l.res.Trajectories; cap(ts) > len(ts)+len(ts)/2+4096 {
		l.res.Trajectories = slices.Clone(ts) // reserved far too much
	}
	return l.res, nil
}

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
	res    *Result
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
