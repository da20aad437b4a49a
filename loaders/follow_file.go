package loaders

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"slices"
	"time"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/openctx"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// followedFile is one followed file and how far it was read.
type followedFile struct {
	path  string
	index int // the file index: the default batch
	// info is the file as last read; loaded is set once it was.
	info   fs.FileInfo
	loaded bool
	// failed is the file as it was when reading it failed: it is not read
	// again until it changes.
	failed fs.FileInfo
	// lastErr is the text of the last error reported, not repeated.
	lastErr string
	// errSaid is set once a check returned an error of the file, until
	// a reading of it ends without one (fileChange.recovered) or it is
	// gone: the consumer holds that error until then.
	errSaid bool
	// notFound is set when the last reading that failed found no file
	// at its path: it never saw the file (follower.goneUnread).
	notFound bool
	// relogDue is set for a file that appeared in a followed directory
	// until a reading of it brings rows: the relog check (Options.
	// RelogField) is of its first rows, whichever reading reads them.
	relogDue bool
	gone     bool
	// changedReadings counts the readings in a row that failed as the
	// file changed under them or found it half written (changedError),
	// said at maxChangedReadings; halfWrittenReadings counts those of
	// them that found it half written, no change under them seen: the
	// error says what each kind did.
	changedReadings, halfWrittenReadings int
	// reread is set while a reading from the start (load) runs and stays
	// set when it failed: it reset how far the file was read (offset,
	// lines, head, before, tailer) as it went, to no reading's, and the
	// rows it read never went to the consumer. The next check that reads
	// the file reads it from the start again, said reloaded, not as grown
	// from there.
	reread bool
	// tail is set for a JSONL file that is not gzipped, read as it grows.
	tail bool
	// offset is where the next line starts, after the last complete line
	// read (tail), or, for a file read whole, where the part read that a
	// run appending to it leaves as it is ends (keptEnd); lines is the
	// number of lines read; head is the start of the file, to tell a file
	// written anew from one that grew.
	offset int64
	lines  int
	head   []byte
	// before is the last bytes read, up to offset (at most beforeSize):
	// what must still be there, unchanged, for the file to have grown
	// rather than been written anew (cp over it, a rewrite in place).
	before []byte
	// prefix is the hash of the file's bytes up to offset (hashPrefix):
	// an edit between head and before is a rewrite too, found in a file
	// read whole when it is no smaller, and in a tail file when it is as
	// large as it was and its modification time changed (an edit in
	// place; a growth is checked by head and before alone, as reading
	// every byte again at each would cost the whole file).
	prefix uint64
	// readHash is a tail file's hash of its bytes read so far, fed as
	// they are read (lineCounter): its prefix without reading them again.
	readHash maphash.Hash
	// count is the trajectories read of the file since its last reading
	// from the start (a tail file's growth too): a reading of a file read
	// whole after them is what it grew by, and one with fewer may be of
	// the file half written anew (halfWritten).
	count int
	// skipsCounted are the records skipped and counted so far, by place,
	// text and fault (firstSkip): a record read again, the file grown or
	// rewritten, is not counted (nor warned of) again. readingSkips are
	// those the reading under way skipped first: they join skipsCounted
	// once its Result is delivered (keepSkips), as a reading that fails
	// is thrown away, its skips neither counted nor warned of.
	skipsCounted, readingSkips map[uint64]struct{}
	// tailer reads the new lines, counting the trajectories of the file so
	// far (the default IDs).
	tailer *input.Loader
	// file is the tail file, kept open: read through it, the lines
	// written before a rotation (a rename and a new file at the path) or
	// a deletion are read to the end before the follower moves on (drain).
	// It is nil for a file read whole, and for a tail file whose
	// descriptor was given back (follower.limitOpen), which is then opened
	// by its path again.
	file *os.File
	// grown counts the checks that found the file grown (the follower's
	// clock): those not grown for longest give their descriptors back.
	grown int64
	// behind is set when the last read of the file's growth stopped at
	// growChunk, with more of the file after it (follower.catchUp).
	behind bool
	// store recycles the arrays of the lines read as the file grows (nil
	// for none).
	store *partStore
	// unended is what the last read left after the last line end (a JSONL
	// or CSV file's; Bytes 0 for none), unendedSince when it became so,
	// and unendedSaid is set once an Update said it; resumed is set when
	// one said changed, until an Update says that (noteUnended).
	unended      Unended
	unendedSince time.Time
	unendedSaid  bool
	resumed      bool
}

// growChunk is the most of a followed file's growth read at a time, in
// bytes: a burst of lines appended at once is handed over in parts, the
// follower reading the next while the consumer digests the last, and
// neither holds the whole burst. (A variable for the tests.)
var growChunk int64 = 2 << 20

// headSize is how many of the first bytes of a file tell whether it is
// still the file that was read.
const headSize = 64

// beforeSize is how many of the last bytes read are checked again when a
// file grows: a rewrite that kept the file's start (lines of one shape)
// almost never keeps the block before the offset too, byte for byte.
const beforeSize = 4096

// fileChange is what a check of a file found.
type fileChange struct {
	// drained holds the last lines of a file that was rotated away or
	// deleted, read to its end through the descriptor kept open (nil for
	// none): they come before the file is reloaded.
	drained *Result
	// res holds the new trajectories (all the file's when reloaded), nil
	// for none.
	res      *Result
	reloaded bool
	gone     bool
	err      error
	// unended is a last line without its line end to tell of
	// (Update.Unended), nil for none.
	unended *Unended
	// relogged is the file, appeared, left out as repeating the one read
	// before it (Update.Relogged).
	relogged []Relogged
	// recovered is set when the file, of which an error was said, was
	// read without one (Update.Recovered).
	recovered bool
}

// check looks at the file and reads what changed (look), and notes
// whether it says an error of the file or ends one said before (said).
func (f *followedFile) check(opts Options) fileChange {
	return f.said(f.look(opts))
}

// said notes whether c, what a reading of the file found (a check's, or
// the first of a file that appeared), says an error of the file or ends
// one said before (recovered), and returns it.
func (f *followedFile) said(c fileChange) fileChange {
	switch {
	case c.gone:
		f.errSaid = false // the consumer forgets a gone file's error
	case c.err != nil:
		f.errSaid = true
	case c.res != nil && f.errSaid:
		f.errSaid, c.recovered = false, true
	}
	return c
}

// look stats the file, and reads it only when that shows a change.
func (f *followedFile) look(opts Options) fileChange {
	st, err := os.Stat(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if f.gone || !f.loaded && !f.errSaid {
			return fileChange{}
		}
		// A file never read whose error was said is gone too: its
		// error goes, and is said again should it come back failing.
		c := f.drain(opts)
		f.gone, c.gone, f.lastErr = true, true, ""
		f.noteUnended(0, 0) // nothing waits at a path with no file
		return c
	case err != nil:
		return f.fail(nil, err)
	case f.failed != nil && sameState(st, f.failed):
		return fileChange{} // as it was when it could not be read
	case f.gone || !f.loaded || f.reread || !os.SameFile(st, f.info):
		// Back, new, replaced, or its last reading failed: a rotated
		// file's last lines first.
		drained := f.drain(opts)
		c := f.reload(opts, st)
		c.drained, c.err = drained.res, errors.Join(drained.err, c.err)
		return c
	case f.tail:
		return f.grow(st, opts)
	case sameState(st, f.info):
		return fileChange{}
	}
	return f.reload(opts, st) // a file read whole changed: grown or written anew
}

// sameState reports whether a and b are the same file, of the same size
// and modification time.
func sameState(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// fail records that the file could not be read as it is in st (nil when
// unknown), and returns the error unless it is the one returned last.
func (f *followedFile) fail(st fs.FileInfo, err error) fileChange {
	f.failed, f.notFound = st, errors.Is(err, fs.ErrNotExist)
	if err.Error() == f.lastErr {
		return fileChange{}
	}
	f.lastErr = err.Error()
	return fileChange{err: err}
}

// reload reads the file again from the start, as the check found it in
// since (nil when no check did). The lines it cannot read are
// skipped (and reported, without SkipInvalid): following cannot stop. A
// file read whole that grew, what was read of it unchanged (load), is not
// reloaded: its trajectories after those read before are new, as a JSONL
// file's appended lines are, and what was read of it stays with its
// consumer (the prompts read of its records, say). A reading that failed
// as the file changed under it, or found it half written (halfWritten),
// is done again at the next check (readChanged).
func (f *followedFile) reload(opts Options, since fs.FileInfo) fileChange {
	reloaded, count := f.loaded, f.count
	res, grew, err := f.load(opts, true, since, nil, nil)
	if changed := (*changedError)(nil); errors.As(err, &changed) {
		return f.readChanged(changed)
	}
	if err != nil {
		return f.fail(f.failed, err)
	}
	if grew && len(res.Unfinished) > 0 {
		return fileChange{} // a row group being added: read with its footer
	}
	// The records skipped before are not counted again (firstSkip): the
	// skipped ones are the growth's.
	if grew && len(res.Trajectories) >= count {
		res.Trajectories = slices.Clone(res.Trajectories[count:])
		reloaded = false
	}
	return f.skippedAsError(fileChange{res: res, reloaded: reloaded}, opts)
}

// load reads the file from the start, skipping bad lines when skip, and
// records how far it read. A file without trajectories (yet) is no error.
// A reading that fails on a file that changed while it was read, since
// the check that found it as since (nil for none) or since its own stat,
// returns a *changedError: it read no one state of the file.
// When each is not nil, it takes the trajectories (FollowOptions.Each),
// and the Result has none. grew reports that the file, read whole before
// as now, is the file read last, as large or larger, what was read of it
// still there, unchanged (rewritten, then prefixKept): a run appended to
// it, rather than wrote it anew, in place or not.
func (f *followedFile) load(opts Options, skip bool, since fs.FileInfo, progress *progress, each func([]scoring.Trajectory) error) (_ *Result, grew bool, _ error) {
	file, err := openctx.OpenFile(opts.Context, f.path, os.O_RDONLY, 0)
	if err != nil {
		return nil, false, err // *fs.PathError: "open PATH: reason"
	}
	kept := false
	defer func() {
		if !kept {
			file.Close()
		}
	}()
	st, err := file.Stat()
	if err != nil {
		return nil, false, err
	}
	if st.IsDir() {
		return nil, false, fmt.Errorf("%s: is a directory", f.path)
	}
	if afterStat != nil {
		afterStat(f.path)
	}
	// What was read is hashed again (prefixKept) only where it decides:
	// the same file as large, or another file or a truncated one.
	same := f.loaded && os.SameFile(st, f.info)
	grew = same && !f.gone && !f.tail && st.Size() >= f.info.Size() && f.prefixKept(file) && !f.rewritten(file)
	// A reading thrown away (changedError) leaves what was read last, and
	// the records counted of it, for the next reading to compare the
	// file with: a file caught half written anew holds them again once
	// written.
	readOffset, readPrefix, counted := f.offset, f.prefix, f.skipsCounted
	if f.loaded && (!same || st.Size() < f.offset) && !f.prefixKept(file) {
		// Another file, or one truncated, that does not hold what was
		// read (a rotated log's successor, a log written anew): its
		// records are not those counted, though its line 1 may read
		// the same. One edited in place keeps them.
		f.skipsCounted = nil
	}
	opts.SkipInvalid = skip
	opts.skipCounted = func(e *LineError) bool { return f.firstSkip(e.Line, e) }
	f.closeFile()
	f.reread = true // until this reading from the start ends well
	format, gzipped := fileFormat(file, f.path, opts.Format)
	f.tail = !gzipped && format.spec() != nil && format.spec().tails
	count := 0
	if each != nil {
		inner := each
		each = func(ts []scoring.Trajectory) error {
			count += len(ts)
			return inner(ts)
		}
	}
	var res *Result
	var end int64 // where the part read that a growth keeps ends (keptEnd)
	// What is left after the last line end: its line's number and size.
	unendedLine, unendedBytes := 0, int64(0)
	switch {
	case f.tail:
		res, err = f.loadLines(file, opts, progress, each)
		unendedLine, unendedBytes = f.lines+1, st.Size()-f.offset
	case format == CSV && !gzipped:
		res, end, unendedLine, err = f.loadCSV(file, st.Size(), opts, progress, each)
		unendedBytes = st.Size() - end
	default:
		res, unendedLine, unendedBytes, err = f.loadWhole(file, st.Size(), opts, progress, each)
		if err == nil && len(res.Unfinished) == 0 {
			end, err = keptEnd(file, st.Size(), format, gzipped)
		}
	}
	grew = grew && !f.tail
	// A Parquet file that grew without its footer yet (written again
	// after the row group added) keeps what was read of it, to compare
	// the file with once its footer is there.
	pending := grew && err == nil && len(res.Unfinished) > 0
	if err == nil && each == nil {
		count = len(res.Trajectories)
	}
	changed := func() bool { return f.changedWhileRead(file, since, st) }
	half := f.halfWritten(same, pending, count, unendedBytes > 0, err, changed)
	if half == nil && err == nil && !f.tail && !pending {
		err = f.recordWhole(file, end)
	}
	if half == nil && err != nil && changed() {
		half = &changedError{path: f.path, err: err}
	}
	if half != nil {
		f.keepSkips(false)
		f.offset, f.prefix, f.skipsCounted = readOffset, readPrefix, counted
		return nil, false, half
	}
	f.keepSkips(err == nil)
	if err != nil {
		f.failed, f.changedReadings, f.halfWrittenReadings = st, 0, 0
		return nil, false, err
	}
	f.noteUnended(unendedLine, unendedBytes)
	if each != nil {
		res.Trajectories = nil // each's, reused: nothing to keep
	}
	if !pending {
		f.count = count
	}
	// A file that changed while it was read, without failing, is read
	// again at the next check: st, recorded, is its state before.
	f.info, f.failed, f.loaded, f.gone, f.lastErr, f.reread = st, nil, true, false, "", false
	f.changedReadings, f.halfWrittenReadings = 0, 0
	if f.tail {
		f.file, kept = file, true
	}
	return res, grew, nil
}

// halfWritten returns, as a *changedError, why a reading from the start
// of the file, the same file (same) as read last and not gone since,
// which then had rows (count), is taken for one of a run writing the
// file anew in place, not done yet, or nil. open(path, "w") truncates
// it, then json.dump or pandas' to_json, to_parquet or to_csv writes it
// (a resumed run's table of a step written again, a script's list of
// every step dumped at each): taken as it is, its rows would leave the
// dashboard until the next reading, or an error be said of a file about
// to be whole. Such a reading finds
//   - a file read whole without rows (empty, its header alone, a Parquet
//     file without its footer yet, not pending), or fails (err);
//   - any file, a JSONL file too, with fewer rows (rows) while it changes
//     under the reading (changed) or its last line has no line end
//     (unended). One found so, its last line ended and unchanged, shrank
//     (a run restarted) and is taken as it is; so is a JSONL file found
//     empty, its consumer keeping its rows until new ones come.
//
// It is read again at the next check, as one changed under its reading
// is, up to maxChangedReadings in a row: the last is taken as it is, as
// a file that stays so was left so. The error's halfWritten is set
// unless the file changed under the reading (changed).
func (f *followedFile) halfWritten(same, pending bool, rows int, unended bool, err error, changed func() bool) *changedError {
	if !same || f.gone || pending || f.count == 0 || f.changedReadings >= maxChangedReadings-1 {
		return nil
	}
	var why error
	switch {
	case !f.tail && err != nil:
		why = err
	case err != nil || rows >= f.count:
		return nil
	case rows == 0 && !f.tail:
		why = fmt.Errorf("no rows, where its last reading had %d", f.count)
	case unended:
		why = fmt.Errorf("%d rows, where its last reading had %d, its last line without its line end", rows, f.count)
	case changed():
		return &changedError{path: f.path, err: fmt.Errorf("%d rows, where its last reading had %d, changing as it was read", rows, f.count)}
	default:
		return nil
	}
	return &changedError{path: f.path, err: why, halfWritten: !changed()}
}

// afterStat, when not nil, runs in load between the file's stat and its
// reading: the tests change the file there, as a writer may at any time.
var afterStat func(path string)

// maxChangedReadings is how many readings in a row may fail as the file
// changes under them (changedError) before it is said. One write in
// place (a row group and its footer, a list dumped again) is caught by a
// check or two: a check comes once the writer's events settle, and the
// next once its last write is done. Ten in a row is a file written again
// and again faster than it can be read, whose new rows would never come
// while those read before stay on screen unexplained; at the default
// poll, without events, that is said within seconds. A file found half
// written (halfWritten) is taken as it is at the tenth reading instead:
// one that stays so was left so.
const maxChangedReadings = 10

// changedError is the error of a reading of the file path that failed
// as the file changed under it (followedFile.changedWhileRead), or found
// it half written (followedFile.halfWritten, which sets halfWritten
// unless it saw the file change under the reading): err, of no one
// state of the file, is not what is wrong with it.
type changedError struct {
	path        string
	err         error
	halfWritten bool
}

func (e *changedError) Error() string {
	return fmt.Sprintf("%s: changed while being read (%v)", e.path, e.err)
}

func (e *changedError) Unwrap() error { return e.err }

// changedWhileRead reports whether the file, open as file, as st before
// its reading and as since by the check that decided to read it (nil for
// none), is no longer so: its size or modification time differ, or
// another file, or none, is at its path.
func (f *followedFile) changedWhileRead(file *os.File, since, st fs.FileInfo) bool {
	now, err := file.Stat()
	if err != nil || !sameState(now, st) {
		return true
	}
	at, err := os.Stat(f.path)
	return err != nil || !sameState(at, st) || since != nil && !sameState(at, since)
}

// readChanged counts a reading that failed as the file changed under it
// or found it half written (e): the file is read again at the next
// check, unsaid, but at the maxChangedReadings-th in a row it is said,
// once (fail) until a reading ends otherwise, with how many of those
// readings found it half written, when any did. The last one is never
// such (halfWritten takes the file as it is at that reading).
func (f *followedFile) readChanged(e *changedError) fileChange {
	f.changedReadings++
	if e.halfWritten {
		f.halfWrittenReadings++
	}
	if f.changedReadings != maxChangedReadings {
		return fileChange{}
	}
	readings := fmt.Sprintf("it changed while each of its last %d readings read it", maxChangedReadings)
	if f.halfWrittenReadings > 0 {
		readings = fmt.Sprintf("of its last %d readings, %d found it changing under them and %d found it half written (fewer rows than it had, or failing, as a run writing it anew in place leaves it)", maxChangedReadings, maxChangedReadings-f.halfWrittenReadings, f.halfWrittenReadings)
	}
	return f.fail(nil, fmt.Errorf("%s: not read: %s, the last failing (%v); read again at each check until one finds it unchanged", f.path, readings, e.err))
}

// recordWhole keeps what a file read whole must still hold, unchanged,
// when it grows: its first bytes and the last ones before end, where the
// part read that a run appending to it leaves as it is ends (keptEnd),
// and the hash of all those before end.
func (f *followedFile) recordWhole(file *os.File, end int64) error {
	f.offset = end
	f.head = make([]byte, min(end, headSize))
	if _, err := file.ReadAt(f.head, 0); err != nil {
		return err
	}
	prefix, err := hashPrefix(file, end)
	if err != nil {
		return err
	}
	f.prefix = prefix
	return f.recordBefore(file)
}

// prefixSeed seeds the follower's hashes (followedFile's prefix, readHash
// and skipsCounted), compared within one process only.
var prefixSeed = maphash.MakeSeed()

// hashPrefix returns the hash of the file's first n bytes (of all of
// them, when it is shorter).
func hashPrefix(file *os.File, n int64) (uint64, error) {
	var h maphash.Hash
	h.SetSeed(prefixSeed)
	if _, err := io.CopyBuffer(&h, io.NewSectionReader(file, 0, n), make([]byte, 64<<10)); err != nil {
		return 0, err
	}
	return h.Sum64(), nil
}

// keepPrefix records the tail file's prefix, the hash of its bytes up to
// offset: readHash's, which counted fed with those it read from from on,
// or, when counted did not read up to offset (a reading that stopped at
// an error), the hash of them read again.
func (f *followedFile) keepPrefix(file *os.File, counted *lineCounter, from int64) error {
	if from+counted.bytes != f.offset {
		f.readHash.SetSeed(prefixSeed)
		if _, err := io.Copy(&f.readHash, io.NewSectionReader(file, 0, f.offset)); err != nil {
			return err
		}
	}
	f.prefix = f.readHash.Sum64()
	return nil
}

// prefixKept reports whether the file still holds the part read last (up
// to offset) byte for byte, by its hash (recordWhole, keepPrefix): the
// check after rewritten's, which reads a few KiB, for an edit within the
// part (a value changed in place, the file as large).
func (f *followedFile) prefixKept(file *os.File) bool {
	prefix, err := hashPrefix(file, f.offset)
	return err == nil && prefix == f.prefix
}

// keptEnd returns where the part of a file read whole, of size bytes,
// ends that a run appending to it leaves as it is: a JSON file's closing
// brackets, and the white space around them, are written again after the
// element added (json.dump of the grown list), and a Parquet file's page
// indexes and footer after the row group added; a gzipped file keeps all
// its bytes when a member is appended (Python's gzip.open(path, "a")). A
// file rewritten whole, compressed again, is read again from the start.
func keptEnd(file *os.File, size int64, format Format, gzipped bool) (int64, error) {
	switch {
	case size == 0 || gzipped:
		return size, nil
	case format == Parquet:
		return parquetread.DataEnd(file, size)
	}
	last := make([]byte, min(size, beforeSize))
	if _, err := file.ReadAt(last, size-int64(len(last))); err != nil {
		return 0, err
	}
	// The closers of the containers that hold the elements, and no more:
	// the last element's own } or ] is its value's, compared with the rest
	// (an edit of its last number, 1 to 12, is no growth).
	closers := "]" // a JSON array of records
	if format == WandBTable {
		closers = "}]" // {"columns": [...], "data": [[...], ...]}
	}
	kept := bytes.TrimRight(last, " \t\r\n")
	for _, c := range []byte(closers) {
		if n := len(kept); n > 0 && kept[n-1] == c {
			kept = bytes.TrimRight(kept[:n-1], " \t\r\n")
		}
	}
	return size - int64(len(last)-len(kept)), nil
}

// closeFile gives the kept descriptor back, if any.
func (f *followedFile) closeFile() {
	if f.file != nil {
		f.file.Close()
		f.file = nil
	}
}

// drain reads the lines of the tail file that were written after the
// last read, to its very end (a last line without its line end too: no
// more will come), through the descriptor kept open, then gives it back:
// the file at the path was rotated away, replaced or deleted, and what
// was written to it before that is not lost. Without a kept descriptor
// there is nothing to read.
func (f *followedFile) drain(opts Options) fileChange {
	file := f.file
	if file == nil || !f.tail {
		return fileChange{}
	}
	defer f.closeFile()
	st, err := file.Stat()
	if err != nil || st.Size() <= f.offset || f.rewritten(file) {
		return fileChange{} // truncated or rewritten: what was there is gone
	}
	from := f.offset
	res, counted, err := f.readAppended(io.NewSectionReader(file, from, st.Size()-from), from, st.Size())
	f.keepSkips(true) // the lines read are delivered, an error or not
	f.count += len(res.Trajectories)
	// What replaces the file holds the lines drained too, when it is
	// the file rewritten (load: its skips are those counted).
	if perr := f.keepPrefix(file, counted, from); err == nil {
		err = perr
	}
	return f.skippedAsError(fileChange{res: res, err: err}, opts)
}

// fileFormat returns the format of the file called name, opened as file:
// format when given, else detected as read does; gzipped reports that the
// file is gzipped (format is then its content's).
func fileFormat(file *os.File, name string, format Format) (_ Format, gzipped bool) {
	br := bufio.NewReader(io.NewSectionReader(file, 0, 1<<62))
	magic, _ := br.Peek(len(input.GzipMagic))
	gzipped = bytes.Equal(magic, input.GzipMagic)
	if format == "" && !gzipped {
		format = detectFormat(name, br)
	}
	return format, gzipped
}

// loadWhole reads a file of a format that is read whole; an empty file,
// a Parquet file without its footer yet or a JSON array cut short
// (Result.Unfinished), has no
// trajectories (yet): it is read when it changes. A JSON array or W&B
// table is found cut short by its reading (jsonread.CutShortError, the
// whole size read), which then hands nothing on; only the first reading,
// which hands its rows on as it reads them (each) or stops at a bad
// record (not skipping) where the cut end would have been found, looks
// for a cut end first (unfinishedWhole). It reads the size bytes
// it judged, a Parquet file in place as Load does, and no more: a file
// written as it is read would otherwise be read past the footer found
// (a Parquet file's end then no footer, said as an error). A gzipped
// JSONL or CSV file whose gzip stream is cut short (its run still
// writing it) is read to its last row end (heldText), none yet being no
// error; it returns the line held back after it, and its bytes (none
// when 0).
func (f *followedFile) loadWhole(file *os.File, size int64, opts Options, progress *progress, each func([]scoring.Trajectory) error) (_ *Result, unendedLine int, unendedBytes int64, _ error) {
	if size == 0 {
		return &Result{}, 0, 0, nil
	}
	checkFirst := each != nil || !opts.SkipInvalid
	if u := unfinishedWhole(file, f.path, size, opts.Format, checkFirst); u != nil {
		return &Result{Unfinished: []Unfinished{*u}}, 0, 0, nil
	}
	if parquetInPlace(file, f.path, opts.Format) {
		res, err := readParquetFile(file, f.path, f.index, opts, size, progress, each)
		return res, 0, 0, err
	}
	gz := &gzipReading{}
	opts.gzipReading = gz
	text := &countingReader{r: io.NewSectionReader(file, 0, size)}
	res, err := read(progress.reader(text), f.path, f.index, opts, size, each)
	// Cut short only when all its stat found was read, and not checked
	// first: a file that shrank under the reading, or was found whole by
	// the check, changed, which load tells.
	if cut := (*jsonread.CutShortError)(nil); !checkFirst && errors.As(err, &cut) && text.n == size {
		f.keepSkips(false) // the records skipped are counted by the reading that delivers them
		u := jsonCutUnfinished(f.path)
		u.Followed = true
		return &Result{Unfinished: []Unfinished{*u}}, 0, 0, nil
	}
	if gz.headerCut || gz.text != nil && gz.text.cut && errors.Is(err, input.ErrNoRecord) {
		res, err = &Result{}, nil // no row whole yet
	}
	unendedLine, unendedBytes = gz.unended()
	return res, unendedLine, unendedBytes, err
}

// loadCSV reads a CSV file (not gzipped) to the end of its last complete
// row (csvRowsEnd), as loadWhole reads the others: a row being written,
// without its line end yet, is read once it has one, when the file
// changes, as a JSONL file's partial last line is. A file of its header
// alone holds no record yet, as an empty one. It returns where the rows
// read end too, what a run appending rows leaves as it is, and the line
// the row after them (the bytes after end) starts at.
func (f *followedFile) loadCSV(file *os.File, size int64, opts Options, progress *progress, each func([]scoring.Trajectory) error) (_ *Result, end int64, unendedLine int, _ error) {
	end, lines, err := csvRowsEnd(file, size)
	if err != nil {
		return &Result{}, end, 0, err
	}
	if lines <= 1 {
		return &Result{}, end, lines + 1, nil
	}
	res, err := read(progress.reader(io.NewSectionReader(file, 0, end)), f.path, f.index, opts, end, each)
	return res, end, lines + 1, err
}

// csvRowsEnd returns the offset just past the last line end of the file's
// first size bytes that is not within a quoted field, 0 when there is
// none: where its complete rows end; lines counts the line ends before
// it (csvRowEnds).
func csvRowsEnd(file *os.File, size int64) (end int64, lines int, err error) {
	ends := newCSVRowEnds()
	buf := make([]byte, 64<<10)
	for ends.at < size {
		n, err := file.ReadAt(buf[:min(int64(len(buf)), size-ends.at)], ends.at)
		ends.feed(buf[:n])
		if err == io.EOF {
			break // shrunk since the stat: read again at the next check
		}
		if err != nil {
			return 0, 0, err
		}
	}
	return ends.end, ends.lines, nil
}

// csvRowEnds finds the line ends of CSV text, fed to it in order, that
// are not within a quoted field: where its complete rows end. A field is
// quoted when it starts with '"' (encoding/csv's rule), up to the '"'
// that closes it (an escaped quote, two, closes and opens it again); a
// '"' within an unquoted field is literal here, as the row is read up to
// it and the reader then says what is wrong with it.
type csvRowEnds struct {
	// closed says that the last byte closed a quoted field: a '"' right
	// after it is an escaped quote, which opens it again.
	quoted, fieldStart, closed bool
	seen                       int // line ends so far, quoted ones too
	at                         int64
	// end is the offset just past the last line end out of quotes, 0 for
	// none yet; lines counts the line ends before it.
	end   int64
	lines int
	last  byte // the last byte fed
}

func newCSVRowEnds() *csvRowEnds { return &csvRowEnds{fieldStart: true} }

func (e *csvRowEnds) rowsEnd() (int64, int) { return e.end, e.lines }

func (e *csvRowEnds) fed() int64 { return e.at }

// feed scans buf, the text's next bytes.
func (e *csvRowEnds) feed(buf []byte) {
	n := len(buf)
	for i := 0; ; i++ {
		j := bytes.IndexAny(buf[i:n], "\",\n")
		if j < 0 {
			e.fieldStart, e.closed = e.fieldStart && i == n, e.closed && i == n
			break
		}
		start, escaped := e.fieldStart && j == 0, e.closed && j == 0
		i += j
		e.fieldStart, e.closed = false, false
		switch c := buf[i]; {
		case c == '"' && e.quoted:
			e.quoted, e.closed = false, true
		case c == '"' && (start || escaped):
			e.quoted = true
		case c == '"', e.quoted:
		case c == ',':
			e.fieldStart = true
		default: // a line end out of quotes
			e.seen++
			e.end, e.lines = e.at+int64(i)+1, e.seen
			e.fieldStart = true
		}
		if c := buf[i]; e.quoted && c == '\n' {
			e.seen++
		}
	}
	if n > 0 {
		e.last = buf[n-1]
	}
	e.at += int64(n)
}

// unterminated returns the Unterminated of the CSV input path whose text
// e scanned whole, when its last row after the header has no line end;
// else nil (unterminatedCSV's rule for a regular file).
func (e *csvRowEnds) unterminated(path string) *Unterminated {
	if e.at == 0 || e.last == '\n' || e.end == 0 {
		return nil
	}
	return &Unterminated{Path: path, Line: e.lines + 1}
}

// csvRowEndsReader feeds what is read through it to ends.
type csvRowEndsReader struct {
	r    io.Reader
	ends *csvRowEnds
}

func (r csvRowEndsReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.ends.feed(p[:n])
	return n, err
}

// loadLines reads the complete lines of a JSONL file from the start,
// handing them to each when not nil, as Stream does. They can be read
// again by offset (Reread): a followed file is a regular file, not
// gzipped.
func (f *followedFile) loadLines(file *os.File, opts Options, progress *progress, each func([]scoring.Trajectory) error) (*Result, error) {
	// Options.Pick holds for every reading of the file, the first and
	// those as it grows or is read again: a file that appears later, or a
	// rotated one, comes as lean as the first reading, which streams.
	f.tailer = &input.Loader{Name: f.path, FileIndex: f.index, SkipInvalid: opts.SkipInvalid, Format: string(JSONL), Each: each, PickFor: opts.Pick, Fields: opts.Fields.Clone(), MaxRecord: opts.maxRecord()}
	// readLines numbers the lines it reads from 1, after the f.lines read
	// before.
	f.tailer.Counted = func(e *LineError) bool { return f.firstSkip(f.lines+e.Line, e) }
	if each != nil {
		f.tailer.Maps, f.tailer.Picks = &input.MapStore{}, &input.PickedStore{}
	}
	f.offset, f.lines = 0, 0
	end, err := lastLineEnd(file, 0, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	// The first reading stops at its next read once ctx is done (an
	// interrupt), as a plain load does.
	f.readHash.SetSeed(prefixSeed)
	counted := &lineCounter{r: progress.reader(withContext(opts.Context, io.NewSectionReader(file, 0, end))), hash: &f.readHash}
	in, err := openText(counted)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.path, err)
	}
	f.tailer.Lead, f.tailer.Origin = in.Lead, int64(in.Lead)
	// readLines numbers the lines after those read before, none here: the
	// trajectories it hands to each as it reads are numbered right.
	res, err := f.readLines(in.R, end, counted)
	if err == nil {
		err = f.tailer.Flush(true)
	}
	f.release()
	// The lines read as the file grows are kept in the Updates, in maps
	// of their own, and in arrays that the consumer may give back
	// (Update.Recycle).
	f.tailer.Each, f.tailer.Maps, f.tailer.Picks = nil, nil, nil
	if f.store != nil {
		f.tailer.Picks = &f.store.picks
	}
	f.head = make([]byte, min(end, headSize))
	if _, herr := file.ReadAt(f.head, 0); err == nil && herr != nil {
		err = herr
	}
	if berr := f.recordBefore(file); err == nil {
		err = berr
	}
	if err == nil {
		// A reading that failed is done again from the start.
		err = f.keepPrefix(file, counted, 0)
	}
	return res, err
}

// grow reads the lines completed since the last read of a JSONL file, as
// it is in st, or reads it again when it was not merely appended to.
func (f *followedFile) grow(st fs.FileInfo, opts Options) fileChange {
	if !f.behind && st.Size() == f.info.Size() && st.ModTime().Equal(f.info.ModTime()) {
		return fileChange{}
	}
	f.behind = false
	if f.file == nil {
		file, err := openctx.OpenFile(opts.Context, f.path, os.O_RDONLY, 0)
		if err != nil {
			return f.fail(st, err)
		}
		f.file = file
	}
	file := f.file
	now, err := file.Stat()
	if err != nil {
		return f.fail(st, err)
	}
	if !os.SameFile(now, f.info) || now.Size() < f.offset || f.rewritten(file) {
		return f.reload(opts, st)
	}
	if now.Size() == f.info.Size() && !now.ModTime().Equal(f.info.ModTime()) && !f.prefixKept(file) {
		return f.reload(opts, st) // edited in place, as large as it was
	}
	end, err := lastLineEnd(file, f.offset, f.offset+growChunk)
	if err != nil {
		return f.fail(now, err)
	}
	f.info = now
	f.behind = now.Size() > f.offset+growChunk
	if end == f.offset {
		f.noteUnended(f.lines+1, now.Size()-f.offset)
		return fileChange{} // a partial line so far
	}
	from, lines, count := f.offset, f.lines, f.tailer.Count
	var growth io.Reader = io.NewSectionReader(file, from, end-from)
	if duringGrowth != nil {
		growth = duringGrowth(growth)
	}
	res, counted, err := f.readAppended(growth, from, end)
	if err != nil {
		return f.growthStopped(file, now, counted, from, lines, count, err)
	}
	f.keepSkips(true)
	f.count += len(res.Trajectories)
	if berr := f.recordBefore(file); err == nil {
		err = berr
	}
	if perr := f.keepPrefix(file, counted, from); err == nil {
		err = perr
	}
	if f.behind {
		f.noteUnended(0, 0) // more lines to read first
	} else {
		f.noteUnended(f.lines+1, now.Size()-f.offset)
	}
	return f.skippedAsError(fileChange{res: res, err: err}, opts)
}

// readAppended reads the lines of r, the file's bytes from the offset
// from to end, after those read before, skipping the malformed ones: a
// tail file's growth (grow), or what it held after the last read when
// it was rotated away (drain).
func (f *followedFile) readAppended(r io.Reader, from, end int64) (*Result, *lineCounter, error) {
	counted := &lineCounter{r: r, hash: &f.readHash}
	f.tailer.Lead, f.tailer.Origin, f.tailer.SkipInvalid, f.tailer.Resumed = 0, from, true, from > 0
	// The lines' array is made their size once, not grown by doubling.
	f.tailer.SizeHint = end - from
	res, err := f.readLines(bufio.NewReaderSize(counted, input.BufferSize), end, counted)
	f.release()
	return res, counted, err
}

// skippedAsError returns c with its skipped records as its error
// (malformedError), no longer counted as skipped, when nothing else
// failed and opts does not skip invalid records: following reads on
// past them, and says so.
func (f *followedFile) skippedAsError(c fileChange, opts Options) fileChange {
	if c.err == nil && !opts.SkipInvalid && c.res.Skipped > 0 {
		c.err = malformedError(f.path, c.res)
		c.res.Skipped, c.res.SkipReasons = 0, nil
	}
	return c
}

// duringGrowth, when not nil, wraps the reader of a tail file's growth:
// the tests make it fail part-way there, as a disk may.
var duringGrowth func(r io.Reader) io.Reader

// growthStopped ends a reading of a tail file's growth, as it is in now,
// that stopped part-way on err (a read error: a malformed line is
// skipped, the reading going on): none of its rows is delivered, nor its
// skipped lines counted, and the file is read again from where that
// reading started (from, after its first lines lines and count
// trajectories) once it changes: each row then comes once, at its line.
func (f *followedFile) growthStopped(file *os.File, now fs.FileInfo, counted *lineCounter, from int64, lines, count int, err error) fileChange {
	f.offset, f.lines, f.tailer.Count, f.behind = from, lines, count, false
	f.keepSkips(false)
	if perr := f.keepPrefix(file, counted, from); perr != nil {
		err = errors.Join(err, perr)
	}
	return f.fail(now, err)
}

// readLines reads the lines of r, which ends at the offset end of the
// file, numbering them after those read before, and records how far it
// read. The tailer holds the Result until released.
func (f *followedFile) readLines(r *bufio.Reader, end int64, counted *lineCounter) (*Result, error) {
	l := f.tailer
	l.Loaded = &input.Loaded{}
	if l.Each == nil {
		l.Loaded.Trajectories = f.store.take()
	}
	err := jsonread.ReadJSONL(l, r)
	res := resultOf(l.Loaded)
	if l.Each == nil {
		// The picked values' arrays go with the trajectories.
		res.picked, l.Taken = l.Taken, nil
	}
	// ReadJSONL numbers the lines of r from 1.
	for i := range res.Trajectories {
		res.Trajectories[i].Line += f.lines
	}
	for _, e := range res.SkipReasons {
		e.Line += f.lines
	}
	var le *LineError
	if errors.As(err, &le) {
		le.Line += f.lines
	}
	var re *input.ReadError
	if errors.As(err, &re) {
		re.Line += f.lines
	}
	f.lines += counted.n
	f.offset = end
	return res, err
}

// firstSkip reports whether the record skipped at line of the file, for
// e, is skipped there, with its text and for its reason, for the first
// time, and records it: a file read again from the start (replaced,
// rewritten, or read whole as it grows) holds again the malformed records
// counted already, unless it is another file, or was truncated, that no
// longer holds what was read of it (load forgets them). A record is kept as the hash of its line, the hash of
// its text (LineError.Text, 0 when unknown), its column, its element (of
// a one-line JSON array) and its reason: a few bytes each, however many a
// file holds.
func (f *followedFile) firstSkip(line int, e *LineError) bool {
	var h maphash.Hash
	h.SetSeed(prefixSeed)
	h.WriteString(fmt.Sprintf("%d:%d:%d:%d:", line, e.Col, e.Element, e.Text))
	h.WriteString(e.Msg)
	k := h.Sum64()
	if _, ok := f.skipsCounted[k]; ok {
		return false
	}
	if _, ok := f.readingSkips[k]; ok {
		return false
	}
	if f.readingSkips == nil {
		f.readingSkips = make(map[uint64]struct{})
	}
	f.readingSkips[k] = struct{}{}
	return true
}

// keepSkips ends a reading: the records it skipped first join those
// counted when delivered, else are forgotten, to be counted by the
// reading that delivers them.
func (f *followedFile) keepSkips(delivered bool) {
	if delivered && len(f.readingSkips) > 0 {
		if f.skipsCounted == nil {
			f.skipsCounted = make(map[uint64]struct{}, len(f.readingSkips))
		}
		maps.Copy(f.skipsCounted, f.readingSkips)
	}
	clear(f.readingSkips)
}

// release lets go of the lines the tailer read last, which its caller
// hands on: a followed file must not hold them until its next read.
func (f *followedFile) release() { f.tailer.Loaded = nil }

// recordBefore keeps the last bytes read from file, up to the offset.
func (f *followedFile) recordBefore(file *os.File) error {
	f.before = f.before[:0]
	n := min(f.offset, beforeSize)
	if n == 0 {
		return nil
	}
	f.before = append(f.before, make([]byte, n)...)
	_, err := file.ReadAt(f.before, f.offset-n)
	return err
}

// rewritten reports whether the file no longer holds what was read at its
// start, or in the block before where the last complete line read ended
// (which ends with that line's "\n"): a file truncated and written again,
// or rewritten in place, beyond where it was read, between two checks.
func (f *followedFile) rewritten(file *os.File) bool {
	buf := make([]byte, max(len(f.head), len(f.before)))
	head := buf[:len(f.head)]
	if _, err := file.ReadAt(head, 0); err != nil || !bytes.Equal(head, f.head) {
		return true
	}
	if len(f.before) == 0 {
		return false
	}
	before := buf[:len(f.before)]
	_, err := file.ReadAt(before, f.offset-int64(len(before)))
	return err != nil || !bytes.Equal(before, f.before)
}

// lastLineEnd returns the offset just past the last "\n" of the file at
// or after from and before limit, from when there is none: where its
// complete lines end. When no line ends between from and limit, it is the
// end of the line that starts at from, if complete: one line is never
// cut.
func lastLineEnd(file *os.File, from, limit int64) (int64, error) {
	st, err := file.Stat()
	if err != nil {
		return 0, err
	}
	if limit >= st.Size() {
		return lastLineEndIn(file, from, st.Size())
	}
	if end, err := lastLineEndIn(file, from, limit); end > from || err != nil {
		return end, err
	}
	buf := make([]byte, 64<<10)
	for lo := limit; lo < st.Size(); lo += int64(len(buf)) {
		n, err := file.ReadAt(buf[:min(int64(len(buf)), st.Size()-lo)], lo)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return lo + int64(i) + 1, nil
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
	}
	return from, nil
}

// lastLineEndIn returns the offset just past the last "\n" of the file's
// bytes [from, hi), from when there is none.
func lastLineEndIn(file *os.File, from, hi int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for hi > from {
		lo := max(from, hi-int64(len(buf)))
		n, err := file.ReadAt(buf[:hi-lo], lo)
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return lo + int64(i) + 1, nil
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
		hi = lo
	}
	return from, nil
}

// lineCounter counts the line ends and the bytes read through it, and
// feeds those bytes to hash when not nil.
type lineCounter struct {
	r     io.Reader
	n     int
	bytes int64
	hash  *maphash.Hash
}

func (c *lineCounter) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += bytes.Count(b[:n], []byte{'\n'})
	c.bytes += int64(n)
	if c.hash != nil {
		c.hash.Write(b[:n])
	}
	return n, err
}
