package loaders

import (
	"bytes"
	"context"
	"errors"
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
// in input order. A file's reading stops at its first trajectory, and
// reads no more than that: a JSONL file up to its first line that is not
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
		ctx, stop := context.WithCancel(parent)
		var ff *FileFields
		o := opts
		o.Context, o.Progress, o.Fields, o.MaxRows, o.rowLimit = ctx, nil, nil, 0, 1
		// The load chooses the same format again: its messages then say
		// whether --input-format chose it.
		format := pathFormat(path, opts.Format)
		o.Pick = func(first *scoring.Trajectory) *scoring.Pick {
			ff = peeked(path, first)
			ff.Format = format
			stop() // the formats read ahead (JSON, CSV) end at their next read
			return nil
		}
		var columns, floats []string
		parquetFile := false
		if err == nil && format == Parquet {
			l := newLoader(path, i, o, st.Size(), nil)
			parquetFile, columns, floats, err = peekParquet(l)
			if parquetFile {
				_, err = finish(l, err)
			}
		}
		// A gzip stream cut short (its run writing it, followed) ends
		// at its last line end, as the follower reads it.
		gz := &gzipReading{}
		if !parquetFile {
			o.gzipReading = gz
			_, err = loadPath(path, i, o, nil, nil)
		}
		stop()
		if ff == nil && (errors.Is(err, input.ErrNoRecord) || gz.headerCut) {
			// A CSV file of its header alone, a gzip stream cut short
			// before its first line end or within its header: nothing
			// to tell yet, as an empty file.
			continue
		}
		if ff == nil { // no trajectory: err says why
			return nil, err
		}
		if parquetFile {
			ff.Columns, ff.Floats = columns, floats
			ff.Nulls = nil // the schema tells the types
		} else if format == WandBTable || len(out) == 0 {
			// A CSV, JSONL or JSON file's order is read of the first file
			// alone, whose order the layouts read: of every file of a
			// directory of dumps it would read their first rows again.
			ff.Columns, ff.Integers = fileColumns(path, format)
		}
		out = append(out, *ff)
	}
	return out, nil
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

// peekParquet reads the Parquet file l.Name, of l.SizeHint bytes, as far
// as l.RowLimit says, reading the file where the footer and the pages
// are, rather than whole as Load reads it, and returns its columns
// (parquetread.PeekAt). isParquet is false, and nothing read, when the
// file does not start as Parquet does: Load's reading then gives the
// error.
func peekParquet(l *input.Loader) (isParquet bool, columns, floats []string, err error) {
	f, err := os.Open(l.Name)
	if err != nil {
		return false, nil, nil, nil
	}
	defer f.Close()
	head := make([]byte, len(input.ParquetMagic))
	if _, err := f.ReadAt(head, 0); err != nil || !bytes.Equal(head, input.ParquetMagic) {
		return false, nil, nil, nil
	}
	columns, floats, err = parquetread.PeekAt(l, f, l.SizeHint)
	return true, columns, floats, err
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

// pathFormat returns the format the file path is read in: format when
// given, else the one detectFormat chooses by its name or its (gunzipped)
// content; "" when the file cannot be read (the load says why).
func pathFormat(path string, format Format) Format {
	if format != "" {
		return format
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	in, err := openText(f)
	if err != nil {
		return ""
	}
	return detectFormat(path, in.R)
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
// not, in format ("" to sniff it from the content), in the table's order,
// and those of ints among them: a W&B table's (jsonread.WandbTableColumns),
// a CSV file's header (csvread.Columns), the keys of a JSONL file's or a
// JSON array's first record (jsonread.JSONLColumns, JSONColumns); nil in
// another format, or when there is no such order.
func orderedColumns(r io.Reader, format Format) (columns, integers []string) {
	in, err := openText(r)
	if err != nil {
		return nil, nil
	}
	if format == "" {
		format = sniffFormat(in.R)
	}
	switch format {
	case WandBTable:
		return jsonread.WandbTableColumns(in.R)
	case CSV:
		return csvread.Columns(in.R)
	case JSONL:
		return jsonread.JSONLColumns(in.R)
	case JSON:
		return jsonread.JSONColumns(in.R)
	}
	return nil, nil
}
