// Package loaders reads trajectory files (JSON arrays, JSONL/NDJSON, CSV,
// each optionally gzipped) into scoring.Trajectory values, following the
// "Trajectories" section of docs/CONTRACT.md.
//
// Every problem with the input is reported with its place, "PATH:LINE: what
// is wrong" (see LineError); with Options.SkipInvalid, a bad line, row or
// array element is counted and skipped instead, and every good one is kept.
// Inputs are only ever opened for reading.
//
// Each trajectory records where its record starts in its file
// (scoring.Trajectory.Offset) and, when the file can be read there again,
// its Format: Reread then reads the record back whole, so that a caller
// that keeps many trajectories may drop their responses and metadata once
// evaluated (scoring.Trajectory.DropBody). Standard input, gzip files
// (which cannot seek) and Parquet files are read once: their trajectories
// keep their bodies.
package loaders

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/openctx"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
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
	// all the caller reads of the metadata (scoring.Pick). Trajectories read
	// after it may then come with Pick set, those keys' values in Picked,
	// and no Metadata: for now, the JSONL lines that take the fast path.
	Pick func(first *scoring.Trajectory) *scoring.Pick
	// Fields, when not nil, sets each trajectory's group, batch and ID by
	// expression (scoring.RecordFields), once it is read whole and before
	// it is handed over (or to Pick); a record it fails on is rejected
	// like a malformed one, "PATH:LINE: group_by "input": missing...".
	// Trajectories then never come with a Pick: the expressions read the
	// whole record.
	Fields *scoring.RecordFields
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
	// RelogField, when not "", is the field a trainer changes alone when
	// it logs one generation's rows again under a new step (TRL's step):
	// Load and Stream leave out an input whose records repeat those of the
	// input read before it, in order, every other field equal, and
	// Result.Relogged names it. Follow does so in its first reading, and
	// of a file that appears later (Update.Relogged), against the file
	// read before it.
	RelogField string
	// capLeft, when capped (MaxRows above 0), is how many rows of the next
	// input the cap leaves (input.Loader.CapLeft).
	capLeft func() int
	// rowLimit, when above 0, is how many trajectories of one input are
	// read at most: MaxRows+1 when capping (one past the cap tells that
	// there is more), 1 for Peek. The readers that read ahead (Parquet's
	// row batches, JSONL's blocks) read no further.
	rowLimit int
	// stream reports that the input is not a regular file (standard
	// input, a FIFO): it cannot be looked at again once read.
	stream bool
	// textLimit, when above 0, is how many bytes of a gzipped input's
	// text (after a byte order mark) are read: the newest file of a
	// directory, its gzip stream or last line unfinished (liveSpan).
	textLimit int64
	// found, when not "", is the format liveSpan found of the newest file
	// of a directory, which its reading then does not find again.
	found Format
	// gzipReading, when not nil, is a follower's reading of a gzipped
	// file: a JSONL or CSV text is read to where its gzip stream, cut
	// short, ends its last row (heldText), and read says so there.
	gzipReading *gzipReading
	// skipCounted is input.Loader.Counted (a followed file's).
	skipCounted func(e *LineError) bool
}

// LineError is a problem at a place in an input. Line is 1-based; Col is
// the 1-based byte column, or 0 when only the line is known. Its Error
// reads "PATH:LINE: MSG", or "PATH:LINE:COL: MSG" when Col > 0.
type LineError = input.LineError

// DefaultMaxRecordBytes is Options.MaxRecordBytes when it is 0: 256 MiB.
const DefaultMaxRecordBytes = 256 << 20

// maxRecord is MaxRecordBytes, its default applied.
func (o Options) maxRecord() int64 { return cmp.Or(o.MaxRecordBytes, DefaultMaxRecordBytes) }

// Result is what Load and Read return.
type Result struct {
	// Trajectories are in input order, all files concatenated.
	Trajectories []scoring.Trajectory
	// Skipped counts the lines, rows and elements skipped (SkipInvalid).
	Skipped int
	// SkipReasons are the first 100 reasons for skipping, in input order.
	SkipReasons []*LineError
	// Capped reports that the reading stopped at Options.MaxRows: the rest
	// of the inputs was not read.
	Capped bool
	// capNext is, when Capped, what the first trajectory not read (the
	// reading goes one past the cap) told of the last read:
	// scoring.CappedInGroup or CappedBetweenGroups (see RowCap); capLast
	// is the last read, whose group CappedWarning names.
	capNext scoring.RowCap
	capLast groupOfRow
	// Unfinished are the newest files of the directories given that were
	// read in part or not at all, as their run is still writing them
	// (see Load), or, following, the Parquet files without their footer
	// yet (see Follow): a warning each.
	Unfinished []Unfinished
	// Unended are, following, the files whose last line had no line end
	// at the first reading (Follow): not read until it ends, said once
	// it stays so for FollowOptions.UnendedWait (Update.Unended), the
	// run probably still writing it from the start.
	Unended []Unended
	// Relogged are the inputs left out as repeating the one read before
	// them (Options.RelogField): a warning (ReloggedWarning).
	Relogged []Relogged
	// Unterminated are the CSV files whose last row, without a line end,
	// was read as complete (see Load): a warning each.
	Unterminated []Unterminated
	// picked are the arrays the picked values of Trajectories are in, when
	// recycled (a followed file's growth, Update.Recycle).
	picked [][]scoring.PickedValue
}

// RowCap returns what the cap on the rows read (Options.MaxRows) did to
// the last group read: scoring.Uncapped when not Capped; else, from Load
// and Stream, whether the first trajectory not read had the Batch and
// Group of the last read (scoring.CappedInGroup) or not
// (CappedBetweenGroups), as they read one trajectory past the cap in
// every format; scoring.CappedUntold for a Result made otherwise.
func (r *Result) RowCap() scoring.RowCap {
	switch {
	case !r.Capped:
		return scoring.Uncapped
	case r.capNext == scoring.Uncapped:
		return scoring.CappedUntold
	}
	return r.capNext
}

// resultOf returns what a loader read as a Result.
func resultOf(r *input.Loaded) *Result {
	return &Result{Trajectories: r.Trajectories, Skipped: r.Skipped, SkipReasons: r.SkipReasons}
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
	r.Unterminated = append(r.Unterminated, o.Unterminated...)
	room := input.MaxSkipReasons - len(r.SkipReasons)
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
// last line when that line has no line end and is not a record yet
// (gzipped too, its text ending where a gzip stream cut short ends); it is
// left out when it is empty, a Parquet file without its footer yet, or a
// JSON array or W&B table whose text ends before its value does.
// Result.Unfinished says so, with the reason; with nothing else to read,
// it is the error "no trajectories yet". (Load tells such a JSON text by
// its reading, which then fails; Stream, which hands the rows on as it
// reads them, looks at the text for it first.) Any other broken file stays an
// error, with or without SkipInvalid. A CSV file whose last row has no
// line end is read whole, and Result.Unterminated names it.
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
func Stream(paths []string, opts Options, each func(ts []scoring.Trajectory) error) (*Result, error) {
	return load(paths, opts, each)
}

func load(paths []string, opts Options, each func([]scoring.Trajectory) error) (*Result, error) {
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
	var kept []scoring.Trajectory // Load's, when capped
	if opts.MaxRows > 0 {
		each, opts.capLeft = capRows(opts.MaxRows, each, &kept, &total.capNext, &total.capLast)
		opts.rowLimit = opts.MaxRows + 1
	}
	progress := newProgress(paths, opts.Progress)
	anyRead := false // whether a file was read, not only left out
	var relog *relogCheck
	if opts.RelogField != "" {
		relog = newRelogCheck(opts.RelogField, each != nil)
	}
	for i, f := range files {
		limit := int64(-1)
		var u *Unfinished
		fileOpts := opts
		// Load, which hands nothing on as it reads and reads every record,
		// tells a JSON text cut short by its reading (cutAfterReading): the
		// text is read once, not checked first.
		jsonByReading := each == nil && opts.MaxRows == 0
		if f.newest {
			if limit, fileOpts.textLimit, fileOpts.found, u, err = liveSpan(f.path, opts, jsonByReading); err != nil {
				return nil, err
			}
			if u != nil {
				total.Unfinished = append(total.Unfinished, *u)
				if u.Whole {
					continue
				}
			}
		}
		res, err := loadPrefix(f.path, i, fileOpts, progress, relog.of(each), limit)
		if f.newest && jsonByReading {
			if cut := cutAfterReading(f.path, fileOpts.found, err); cut != nil {
				total.Unfinished = append(total.Unfinished, *cut)
				continue
			}
		}
		anyRead = true
		if err == nil && relog != nil {
			err = relog.end(f.path, each, res)
		}
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
		if u == nil && f.path != "-" {
			if t := unterminatedCSV(f.path, opts, limit); t != nil {
				total.Unterminated = append(total.Unterminated, *t)
			}
		}
	}
	if !anyRead {
		return nil, fmt.Errorf("no trajectories yet: %s", total.Unfinished[0])
	}
	if opts.MaxRows > 0 && kept != nil {
		total.Trajectories = kept
	}
	if relog != nil {
		total.Relogged = relog.found
	}
	return total, nil
}

// ExpectedCount estimates how many trajectories inputs of size bytes hold
// from the first ones read, ts: the size over the bytes per record so far,
// plus 5%, so that a caller reserves its arrays once. It is 0 when it
// cannot tell: the size is unknown (standard input) or the records have no
// offsets (Parquet).
func ExpectedCount(size int64, ts []scoring.Trajectory) int {
	n := len(ts)
	if size <= 0 || n < 2 || ts[n-1].Source != ts[0].Source || ts[n-1].Offset <= ts[0].Offset {
		return 0
	}
	perRecord := float64(ts[n-1].Offset-ts[0].Offset) / float64(n-1)
	return int(float64(size)/perRecord*1.05) + 1
}

// CappedWarning says that Options.MaxRows stopped r's reading after n
// trajectories, and what that did to the last group read (RowCap): the
// cap cut it, naming it (step S, group "G"); it is whole, the first row
// not read beginning another; or, untold, it may lack members. sources
// says the rows have sources (setup.Config.SourceBy), where one group
// value may be two sources' groups: a row not read of the last read's
// group may be another source's, so the cut is untold.
func (r *Result) CappedWarning(n int, sources bool) string {
	noun := "trajectories"
	if n == 1 {
		noun = "trajectory"
	}
	said := fmt.Sprintf("read only the first %d %s (--max-rows); the rest of the input was not read", n, noun)
	switch r.RowCap().WithSources(sources) {
	case scoring.CappedInGroup:
		return fmt.Sprintf("%s, and the cap cut the last group read (step %d, group %q)", said, r.capLast.batch, r.capLast.group)
	case scoring.CappedBetweenGroups:
		return said + "; the first row not read begins another group: the groups read are whole"
	}
	return said + ", so the last group read may lack members"
}

// groupOfRow is a trajectory's Batch and Group.
type groupOfRow struct {
	batch int64
	group string
}

// errRowsCapped stops the reading at Options.MaxRows.
var errRowsCapped = errors.New("rows capped")

// capRows returns each, handed at most max trajectories in all, and
// stopping the reading with errRowsCapped once one more comes, which
// sets *next: whether it has the Batch and Group of the last handed
// (scoring.CappedInGroup, CappedBetweenGroups), and *last, those of the
// last handed; and a func that says how many trajectories the cap
// leaves. A nil each (Load) keeps
// copies of them in *kept, their maps their own: the reading streams, to
// stop as soon as the cap is reached.
func capRows(max int, each func([]scoring.Trajectory) error, kept *[]scoring.Trajectory, next *scoring.RowCap, last *groupOfRow) (func([]scoring.Trajectory) error, func() int) {
	if each == nil {
		*kept = []scoring.Trajectory{}
		each = func(ts []scoring.Trajectory) error {
			for _, t := range ts {
				t.Metadata, t.Picked = maps.Clone(t.Metadata), slices.Clone(t.Picked)
				*kept = append(*kept, t)
			}
			return nil
		}
	}
	left := max
	// The last trajectory handed's, kept as values: each's slice is reused.
	var lastBatch int64
	var lastGroup string
	return func(ts []scoring.Trajectory) error {
		if len(ts) <= left {
			left -= len(ts)
			if len(ts) > 0 {
				lastBatch, lastGroup = ts[len(ts)-1].Batch, ts[len(ts)-1].Group
			}
			return each(ts)
		}
		if left > 0 {
			lastBatch, lastGroup = ts[left-1].Batch, ts[left-1].Group
		}
		*next, *last = scoring.CappedBetweenGroups, groupOfRow{lastBatch, lastGroup}
		if ts[left].Batch == lastBatch && ts[left].Group == lastGroup {
			*next = scoring.CappedInGroup
		}
		if left > 0 {
			if err := each(ts[:left]); err != nil {
				return err
			}
		}
		left = 0
		return errRowsCapped
	}, func() int { return left }
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

// loadPrefix reads one path given to Load: only the first limit bytes
// of the file (liveSpan), or all of it when limit < 0.
func loadPrefix(path string, fileIndex int, opts Options, progress *progress, each func([]scoring.Trajectory) error, limit int64) (*Result, error) {
	if path == "-" {
		stdin := opts.Stdin
		if stdin == nil {
			stdin = os.Stdin
		}
		opts.stream = true
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
		} else {
			opts.stream = true
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

// openText is input.Open, through which every reading of an input's text
// goes (a variable: the tests count the readings of a file).
var openText = input.Open

// read is Read with the size of the input in bytes when it is the regular
// file called name (else 0): a hint for the memory to reserve, and what
// makes its records readable again by offset (scoring.Trajectory.Format),
// unless gzipped; and, when each is not nil, streaming the trajectories to
// each (see Stream).
func read(r io.Reader, name string, fileIndex int, opts Options, size int64, each func([]scoring.Trajectory) error) (*Result, error) {
	if _, err := ParseFormat(string(opts.Format)); err != nil {
		return nil, err
	}
	in, err := openText(withContext(opts.Context, r))
	if err != nil {
		if opts.gzipReading != nil && errors.Is(err, io.ErrUnexpectedEOF) {
			opts.gzipReading.headerCut = true // Open fails on a gzip header alone
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return readOpened(in, name, fileIndex, opts, size, each)
}

// readOpened is read of the text in, opened already.
func readOpened(in input.Opened, name string, fileIndex int, opts Options, size int64, each func([]scoring.Trajectory) error) (*Result, error) {
	format, err := ParseFormat(string(opts.Format))
	if err != nil {
		return nil, err
	}
	if format == "" {
		format = opts.found
	}
	if format == "" {
		format = detectFormat(name, in.R)
	}
	spec := format.spec()
	if in.Gzipped {
		size = 0
	}
	l := newLoader(name, fileIndex, opts, size, each)
	l.Lead, l.Origin = in.Lead, int64(in.Lead)
	l.TableAdvice = tableAdvice(name, opts.Format)
	if size > 0 && spec.reread != nil {
		l.Format = string(format)
	}
	br := in.R
	if in.Gzipped && opts.textLimit > 0 {
		br = bufio.NewReaderSize(io.LimitReader(in.R, opts.textLimit), input.BufferSize)
	}
	if in.Gzipped && opts.gzipReading != nil && (format == JSONL || format == CSV) {
		opts.gzipReading.text = newHeldText(in.R, format, opts.maxRecord())
		br = bufio.NewReaderSize(opts.gzipReading.text, input.BufferSize)
	}
	var ends *csvRowEnds
	if opts.stream && format == CSV && !in.Gzipped {
		// A stream cannot be looked at again once read, as
		// unterminatedCSV looks at a regular file: its row ends are
		// found as it is read.
		ends = newCSVRowEnds()
		br = bufio.NewReaderSize(csvRowEndsReader{in.R, ends}, input.BufferSize)
	}
	res, err := finish(l, spec.read(l, br))
	if err == nil && ends != nil {
		if u := ends.unterminated(name); u != nil {
			res.Unterminated = append(res.Unterminated, *u)
		}
	}
	return res, err
}

// newLoader returns the loader of the input called name, of size bytes
// when known (else 0), for read.
func newLoader(name string, fileIndex int, opts Options, size int64, each func([]scoring.Trajectory) error) *input.Loader {
	l := &input.Loader{Name: name, FileIndex: fileIndex, SkipInvalid: opts.SkipInvalid, Loaded: &input.Loaded{}, Each: each, PickFor: opts.Pick, Fields: opts.Fields.Clone(), MaxRecord: opts.maxRecord(), RowLimit: opts.rowLimit, SizeHint: size, Context: opts.Context, Counted: opts.skipCounted}
	if each != nil {
		l.Maps, l.Picks = &input.MapStore{}, &input.PickedStore{}
	}
	if opts.capLeft != nil {
		l.Capped, l.CapLeft = true, opts.capLeft()
	}
	return l
}

// finish hands over the last trajectories once the reader returned err,
// and returns read's result.
func finish(l *input.Loader, err error) (*Result, error) {
	if errors.Is(err, input.ErrPastCap) {
		// The rows before it are handed over; when the cap does not stop
		// them (the record rejected was the one past the cap), the
		// reading still stopped at the cap, untold whether it cut a group.
		if err = l.Flush(true); err == nil {
			err = errRowsCapped
		}
	} else if err == nil {
		err = l.Flush(true)
	}
	if errors.Is(err, errRowsCapped) {
		return resultOf(l.Loaded), err // what was read before the cap stopped it
	}
	if err != nil {
		return nil, err
	}
	if l.Count == 0 {
		return nil, l.NoTrajectories()
	}
	if ts := l.Loaded.Trajectories; cap(ts) > len(ts)+len(ts)/2+4096 {
		l.Loaded.Trajectories = slices.Clone(ts) // reserved far too much
	}
	return resultOf(l.Loaded), nil
}
