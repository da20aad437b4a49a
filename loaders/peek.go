package loaders

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/csvread"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// FileFields is what Peek tells of one input file: enough to recognise
// the layout a trainer wrote it in.
type FileFields struct {
	Path string
	// Format is the format the file was read in (Options.Format, else
	// chosen by its name or content): what a Load of Path is given to read
	// it as Peek did.
	Format Format
	// Names are the metadata keys of the file's first trajectory, sorted:
	// the keys of its metadata object and its other top-level fields or
	// columns.
	Names []string
	// Floats are the names whose column is of floating-point numbers: in
	// Parquet, the FLOAT and DOUBLE columns (whatever the first row
	// holds, a null included); in the other formats, the names whose
	// value is a number in the first record.
	Floats []string
	// Nulls are, in the formats other than Parquet, the names whose
	// value is null in the first record, sorted: what their column holds
	// that record does not tell (a pandas NaN is written null).
	Nulls []string
	// Columns are the columns in the file's order: in Parquet, the
	// top-level columns; in a W&B table its columns; in CSV its header's
	// and in JSONL and JSON the keys of its first record, of the first
	// file told of alone (nil in the other files of those formats, and
	// when that record has a "metadata" object): a trainer's table
	// puts its columns in an order that tells what they are (TRL's
	// rewards, then its log_extra columns).
	Columns []string
	// Integers are, in a W&B table, CSV and JSONL, the columns of ints:
	// numbers written without a fraction or an exponent in its first
	// rows, which write an integral float with one
	// (jsonread.IntegerScan); a Parquet file's INT columns are not among
	// Floats.
	Integers []string
	// Group is the first trajectory's own group field ("" when it has
	// none).
	Group string
	// Records are, for standard input (PeekStdin), its first
	// trajectories as read: it cannot be read again for them, as a
	// file is.
	Records []scoring.Trajectory
}

// Peek reads the first trajectory of each input file that paths stand for
// (directories expanded as Load does; standard input is left out, as it
// can be read once only) and returns what it tells of each file's fields,
// in input order. A file is opened, and its text read, once: its format,
// its first trajectory and its columns are read of that one opening (the
// newest file of a directory is looked at before, as Load does, for
// whether it is Unfinished). The load of its first trajectory reads no
// more than that, and the columns no more than their first rows
// (jsonread.IntegerRows): a JSONL file up to its first line that is not
// blank (runs of blank lines skipped unread, the line bounded by
// Options.MaxRecordBytes); a Parquet file, its footer and the first row
// (its first pages); the other formats, their first record and the
// blocks read ahead. An empty file, a gzipped one whose gzip stream is
// cut short before its first line end (as a follower reads it), or a
// directory without input files, is left out, as it tells nothing
// (Load's error for it stays), and so is
// the newest file of a directory when Load leaves it out (Unfinished).
// Options.Pick, Fields and MaxRows are not used. The errors are Load's.
func Peek(paths []string, opts Options) ([]FileFields, error) {
	// The format by its name, an alias or any case as Load takes it:
	// the columns read, and the FileFields' Format, go by it.
	format, err := ParseFormat(string(opts.Format))
	if err != nil {
		return nil, err
	}
	opts.Format = format
	// A directory without input files tells nothing, as an empty file:
	// Load's error for it stays (following waits for it).
	files, err := peekedFiles(paths, opts)
	if err != nil {
		return nil, err
	}
	parent := opts.Context
	if parent == nil {
		parent = context.Background()
	}
	var out []FileFields
	for i, path := range files {
		st, err := os.Stat(path)
		if path == "-" || err == nil && !st.Mode().IsRegular() {
			continue // a stream, a FIFO: looking would take what the load must read
		} else if err == nil && st.Size() == 0 {
			continue // nothing to tell yet: a followed file its run has not written to
		}
		// A CSV, JSONL or JSON file's order is read of the first file
		// alone, whose order the layouts read: of every file of a
		// directory of dumps it would read their first rows again.
		ff, err := peekFile(path, i, opts, parent, len(out) == 0)
		if err != nil {
			return nil, err
		}
		if ff != nil {
			out = append(out, *ff)
		}
	}
	return out, nil
}

// peekFile is Peek of the regular file path, its fileIndex-th input,
// reading it once: its format found, its first trajectory read and, when
// firstFile or a W&B table, its columns (textColumns) read of the same
// opening, from the text the load read, kept, then on. Only when the load
// read more than MaxStdinPeek bytes of text (a first record that long),
// which are not kept, are the columns read of a second opening. Its
// fields are nil when it tells nothing yet (Peek).
func peekFile(path string, fileIndex int, opts Options, parent context.Context, firstFile bool) (*FileFields, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // *fs.PathError: "open PATH: reason", as Load's
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(parent)
	defer stop()
	var ff *FileFields
	var format Format
	o := opts
	o.Context, o.Progress, o.Fields, o.MaxRows, o.rowLimit = ctx, nil, nil, 0, 1
	o.Pick = func(first *scoring.Trajectory) *scoring.Pick {
		ff = peeked(path, first)
		ff.Format = format
		stop() // the formats read ahead (JSON, CSV) end at their next read
		return nil
	}
	if parquetInPlace(f, path, opts.Format) {
		format = Parquet
		l := newLoader(path, fileIndex, o, st.Size(), nil)
		columns, floats, err := parquetread.PeekAt(l, f, st.Size())
		if _, err = finish(l, err); ff == nil {
			return nil, peekError(err)
		}
		ff.Columns, ff.Floats = columns, floats
		ff.Nulls = nil // the schema tells the types
		return ff, nil
	}
	in, err := openText(withContext(parent, f))
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, nil // a gzip stream cut short within its header, as an empty file
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// The load is told the format found (found), and chooses none
	// itself: its messages still say whether --input-format chose it.
	if format = opts.Format; format == "" {
		format = detectFormat(path, in.R)
		o.found = format
	}
	wantColumns := firstFile || format == WandBTable
	kept := &keptText{r: in.R}
	if wantColumns {
		kept.limit = MaxStdinPeek
	}
	text := in
	text.R = bufio.NewReaderSize(withContext(ctx, kept), input.BufferSize)
	// A gzip stream cut short (its run writing it, followed) ends at its
	// last line end, as the follower reads it.
	o.gzipReading = &gzipReading{}
	_, err = readOpened(text, path, fileIndex, o, st.Size(), nil)
	stop()
	if ff == nil {
		return nil, peekError(err)
	}
	switch {
	case !wantColumns:
	case kept.over:
		// The load read past what is kept: the columns' rows are read
		// again from the file's start.
		ff.Columns, ff.Integers = fileColumns(path, format)
	default:
		text.R.Reset(io.MultiReader(bytes.NewReader(kept.kept), in.R)) // its buffer reused
		ff.Columns, ff.Integers = textColumns(text.R, format)
	}
	return ff, nil
}

// peekError is the error of a file's peek that found no trajectory: nil
// for a CSV file of its header alone, or a gzip stream cut short before
// its first line end (nothing to tell yet, as an empty file), else err.
func peekError(err error) error {
	if errors.Is(err, input.ErrNoRecord) {
		return nil
	}
	return err
}

// keptText is r, the bytes read of it kept in kept until they would pass
// limit: then none are, and over says so.
type keptText struct {
	r     io.Reader
	limit int
	kept  []byte
	over  bool
}

func (k *keptText) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	if k.over || len(k.kept)+n > k.limit {
		k.over, k.kept = true, nil
	} else {
		k.kept = append(k.kept, p[:n]...)
	}
	return n, err
}

// MaxStdinPeek bounds what PeekStdin reads, and keeps, of standard input.
const MaxStdinPeek = 16 << 20

// PeekStdin reads standard input (Options.Stdin, else os.Stdin) as far as
// its first n trajectories (n >= 1), and returns what the first tells, as
// Peek tells a file's (Path "-", Format Options.Format; Columns in the
// order of a W&B table, a CSV header, the first JSONL or JSON record, or
// a Parquet file read whole), with Records the trajectories read; and the
// reader that
// gives standard input whole: the bytes read, kept, then the rest. It
// reads at most MaxStdinPeek bytes, and fewer trajectories when they end
// there: when the bytes fill them, the records are read up to the last
// line ending among them, the record the bound cuts left out (the lines
// before it kept). The fields are nil when no trajectory comes within
// them or the reading fails before one (the load says why).
func PeekStdin(opts Options, n int) (*FileFields, io.Reader) {
	stdin := opts.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	var kept bytes.Buffer
	o := opts
	o.Stdin = &wholeLines{r: io.TeeReader(io.LimitReader(stdin, MaxStdinPeek), &kept), limit: MaxStdinPeek}
	o.Progress, o.Fields, o.Pick, o.MaxRows = nil, nil, nil, n
	var records []scoring.Trajectory
	// Its error is the load's; the records before it are kept.
	Stream([]string{"-"}, o, func(ts []scoring.Trajectory) error {
		for _, t := range ts {
			t.Metadata = maps.Clone(t.Metadata) // Stream reuses the maps
			records = append(records, t)
		}
		return nil
	})
	whole := io.MultiReader(&kept, stdin)
	if len(records) == 0 {
		return nil, whole
	}
	ff := peeked("-", &records[0])
	ff.Format, ff.Records = opts.Format, records
	switch head := kept.Bytes(); {
	case bytes.HasPrefix(head, input.ParquetMagic) && len(head) < MaxStdinPeek:
		// Read whole (its footer ends it): the schema tells the columns'
		// order and types, as Peek reads a file's.
		l := newLoader(stdinName, 0, Options{}, int64(len(head)), nil)
		l.RowLimit = 1
		if columns, floats, err := parquetread.PeekAt(l, bytes.NewReader(head), int64(len(head))); err == nil {
			ff.Columns, ff.Floats, ff.Nulls = columns, floats, nil
		}
	default:
		ff.Columns, ff.Integers = orderedColumns(bytes.NewReader(head), opts.Format)
	}
	return ff, whole
}

// wholeLines gives what r, a reader limited to limit bytes, reads, a line
// at a time: the bytes up to the last line ending read so far, the rest
// held until its line ends; at r's end, the rest too, unless r read limit
// bytes, whose last line the bound may have cut (left out, the lines
// before it given whole, rather than a record cut in the middle that
// fails the reading of those before it).
type wholeLines struct {
	r           io.Reader
	limit, read int64
	ready, held []byte
	buf         []byte // what each read of r fills
	done        bool
}

func (w *wholeLines) Read(p []byte) (int, error) {
	for len(w.ready) == 0 {
		if w.done {
			return 0, io.EOF
		}
		if w.buf == nil {
			w.buf = make([]byte, 64<<10)
		}
		n, err := w.r.Read(w.buf)
		w.read += int64(n)
		w.held = append(w.held, w.buf[:n]...)
		if end := bytes.LastIndexByte(w.held, '\n'); end >= 0 {
			w.ready, w.held = w.held[:end+1], slices.Clone(w.held[end+1:])
		}
		switch {
		case err == io.EOF:
			w.done = true
			if w.read < w.limit {
				w.ready = append(w.ready, w.held...)
			}
			w.held = nil
		case err != nil:
			return 0, err
		}
	}
	n := copy(p, w.ready)
	w.ready = w.ready[n:]
	return n, nil
}

// peeked returns what the first trajectory of path tells.
func peeked(path string, t *scoring.Trajectory) *FileFields {
	ff := &FileFields{Path: path, Group: t.Group}
	for k, v := range t.Metadata {
		ff.Names = append(ff.Names, k)
		switch v.(type) {
		case float64:
			ff.Floats = append(ff.Floats, k)
		case nil:
			ff.Nulls = append(ff.Nulls, k)
		}
	}
	slices.Sort(ff.Names)
	slices.Sort(ff.Floats)
	slices.Sort(ff.Nulls)
	return ff
}

// fileColumns returns the columns of the file path read in format
// (orderedColumns).
func fileColumns(path string, format Format) (columns, integers []string) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	return orderedColumns(f, format)
}

// orderedColumns returns the columns of the table r holds, gzipped or
// not, in format ("" to sniff it from the content) (textColumns).
func orderedColumns(r io.Reader, format Format) (columns, integers []string) {
	in, err := openText(r)
	if err != nil {
		return nil, nil
	}
	if format == "" {
		format = sniffFormat(in.R)
	}
	return textColumns(in.R, format)
}

// textColumns returns the columns of the table the text br holds in
// format, in the table's order, and those of ints among them: a W&B
// table's (jsonread.WandbTableColumns), a CSV file's header
// (csvread.Columns), the keys of a JSONL file's or a JSON array's first
// record (jsonread.JSONLColumns, JSONColumns); nil in another format, or
// when there is no such order.
func textColumns(br *bufio.Reader, format Format) (columns, integers []string) {
	switch format {
	case WandBTable:
		return jsonread.WandbTableColumns(br)
	case CSV:
		return csvread.Columns(br)
	case JSONL:
		return jsonread.JSONLColumns(br)
	case JSON:
		return jsonread.JSONColumns(br)
	}
	return nil, nil
}
