package loaders

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/rewardlens/rewardlens/engine"
)

// FileFields is what Peek tells of one input file: enough to recognise
// the layout a trainer wrote it in.
type FileFields struct {
	Path string
	// Names are the metadata keys of the file's first trajectory, sorted:
	// the keys of its metadata object and its other top-level fields or
	// columns.
	Names []string
	// Floats are the names whose column is of floating-point numbers: in
	// Parquet, the FLOAT and DOUBLE columns (whatever the first row
	// holds, a null included); in the other formats, the names whose
	// value is a number in the first record.
	Floats []string
	// Columns are, in Parquet, the top-level columns in the file's order
	// (nil in the other formats): a trainer's table puts its columns in
	// an order that tells what they are (TRL's rewards, then its
	// log_extra columns).
	Columns []string
	// Group is the first trajectory's own group field ("" when it has
	// none).
	Group string
}

// Peek reads the first trajectory of each input file that paths stand for
// (directories expanded as Load does; standard input is left out, as it
// can be read once only) and returns what it tells of each file's fields,
// in input order. A file's reading stops at its first trajectory; an
// empty file, or a directory without input files, is left out, as it
// tells nothing (Load's error for it stays), and so is the newest file of
// a directory when Load leaves it out (Unfinished).
// Options.Pick and Fields are not used. The errors are Load's.
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
		if st, err := os.Stat(path); path == "-" || err == nil && !st.Mode().IsRegular() {
			continue // a stream, a FIFO: looking would take what the load must read
		} else if err == nil && st.Size() == 0 {
			continue // nothing to tell yet: a followed file its run has not written to
		}
		ctx, stop := context.WithCancel(parent)
		var ff *FileFields
		o := opts
		o.Context, o.Progress, o.Fields = ctx, nil, nil
		o.Pick = func(first *engine.Trajectory) *engine.Pick {
			ff = peeked(path, first)
			stop() // the reading ends at its next read
			return nil
		}
		var err error
		if head, ok := jsonlHead(path, opts.Format); ok {
			_, err = read(bytes.NewReader(head), path, i, o, 0, nil)
		}
		if ff == nil { // not JSONL, or its first line is not a trajectory
			_, err = loadPath(path, i, o, nil, nil) // the error Load gives
		}
		stop()
		if ff == nil { // no trajectory: err says why
			return nil, err
		}
		if isParquet(path, opts.Format) {
			if ff.Columns, ff.Floats, err = parquetColumns(path); err != nil {
				return nil, err
			}
		}
		out = append(out, *ff)
	}
	return out, nil
}

// peeked returns what the first trajectory of path tells.
func peeked(path string, t *engine.Trajectory) *FileFields {
	ff := &FileFields{Path: path, Group: t.Group}
	for k, v := range t.Metadata {
		ff.Names = append(ff.Names, k)
		if _, ok := v.(float64); ok {
			ff.Floats = append(ff.Floats, k)
		}
	}
	slices.Sort(ff.Names)
	slices.Sort(ff.Floats)
	return ff
}

// jsonlHead returns the text of the JSONL file path up to its first line
// that is not blank, included, when path is a JSONL file that is not
// gzipped: all Peek need read of it (a file of another format is read
// until its first trajectory, some blocks of text for JSONL).
func jsonlHead(path string, format Format) ([]byte, bool) {
	lower := strings.ToLower(path)
	if format != JSONL && (format != "" || !(strings.HasSuffix(lower, ".jsonl") || strings.HasSuffix(lower, ".ndjson"))) {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false // loadPath reports it
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		return nil, false // gzipped whatever its name
	}
	var head []byte
	for {
		line, err := br.ReadBytes('\n')
		head = append(head, line...)
		if len(bytes.TrimSpace(line)) > 0 || err != nil {
			return head, true
		}
	}
}

// isParquet reports whether the file path is read as Parquet.
func isParquet(path string, format Format) bool {
	return format == Parquet || format == "" && strings.HasSuffix(strings.ToLower(path), ".parquet")
}

// parquetColumns returns the top-level columns of the Parquet file path,
// in the file's order, and those of them that are FLOAT or DOUBLE, sorted.
func parquetColumns(path string) (columns, floats []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, nil, errors.New(path + ": not a Parquet file: " + err.Error())
	}
	for _, field := range pf.Schema().Fields() {
		columns = append(columns, field.Name())
		if !field.Leaf() {
			continue
		}
		if k := field.Type().Kind(); k == parquet.Float || k == parquet.Double {
			floats = append(floats, field.Name())
		}
	}
	slices.Sort(floats)
	return columns, floats, nil
}
