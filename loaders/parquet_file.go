package loaders

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// parquetInPlace reports whether the regular file f, called path, is read
// as Parquet (by format, else by its name, else by its magic bytes, as
// detectFormat chooses) and starts as Parquet does: then it is read where
// its footer and pages are (readParquetFile), not whole. A gzip file never
// starts with "PAR1".
func parquetInPlace(f *os.File, path string, format Format) bool {
	if format == "" {
		format = formatByName(strings.TrimSuffix(strings.ToLower(path), ".gz"), false)
	}
	if format != "" && format != Parquet {
		return false
	}
	head := make([]byte, len(input.ParquetMagic))
	n, _ := f.ReadAt(head, 0)
	return n == len(head) && bytes.Equal(head, input.ParquetMagic)
}

// readParquetFile reads the first size bytes of the Parquet file f, called
// path, in place: its footer, then its row groups' pages as their rows are
// read, so that memory holds the pages being decoded rather than the file.
// Every read of the file fails once opts.Context is done, and the rows
// stop at the next batch; progress counts a row group's bytes once its
// rows are read.
func readParquetFile(f *os.File, path string, fileIndex int, opts Options, size int64, progress *progress, each func([]scoring.Trajectory) error) (*Result, error) {
	if _, err := ParseFormat(string(opts.Format)); err != nil {
		return nil, err
	}
	l := newLoader(path, fileIndex, opts, size, each)
	var r io.ReaderAt = io.NewSectionReader(f, 0, size)
	if opts.Context != nil {
		r = contextReaderAt{opts.Context, r}
	}
	l.Advance = progress.add
	res, err := finish(l, parquetread.ReadAt(l, r, size))
	if err == nil {
		progress.add(size - l.Advanced) // the footer and what no row group spans
	}
	return res, err
}

// contextReaderAt is r failing with ctx's error once ctx is done, as
// contextReader.
type contextReaderAt struct {
	ctx context.Context
	r   io.ReaderAt
}

func (c contextReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.ReadAt(p, off)
}
