package loaders

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/crash"
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
	head := make([]byte, len(parquetMagic))
	n, _ := f.ReadAt(head, 0)
	return n == len(head) && bytes.Equal(head, parquetMagic)
}

// readParquetFile reads the first size bytes of the Parquet file f, called
// path, in place: its footer, then its row groups' pages as their rows are
// read, so that memory holds the pages being decoded rather than the file.
// Every read of the file fails once opts.Context is done, and the rows
// stop at the next batch; progress counts a row group's bytes once its
// rows are read.
func readParquetFile(f *os.File, path string, fileIndex int, opts Options, size int64, progress *progress, each func([]engine.Trajectory) error) (*Result, error) {
	if _, err := ParseFormat(string(opts.Format)); err != nil {
		return nil, err
	}
	l := newLoader(path, fileIndex, opts, size, each)
	var r io.ReaderAt = io.NewSectionReader(f, 0, size)
	if opts.Context != nil {
		r = contextReaderAt{opts.Context, r}
	}
	l.advance = progress.add
	res, err := l.finish(l.readParquetAt(r, size))
	if err == nil {
		progress.add(size - l.advanced) // the footer and what no row group spans
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

// rowGroupBytes returns the bytes of the column chunks of the i-th row
// group of f.
func rowGroupBytes(f *parquet.File, i int) int64 {
	var n int64
	if rgs := f.Metadata().RowGroups; i < len(rgs) {
		for _, c := range rgs[i].Columns {
			n += c.MetaData.TotalCompressedSize
		}
	}
	return n
}

// cancelled returns the error of a load whose context is done, at the row
// after the rows read, or nil.
func (pr *parquetReader) cancelled() error {
	if pr.l.ctx == nil || pr.l.ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("%s:%d: read: %w", pr.l.name, pr.rowNo+1, pr.l.ctx.Err())
}

// parquetBlockRows is how many rows the decoding goroutine of
// readParquetRows hands over at a time.
const parquetBlockRows = 4096

// readParquetRows reads the rows of f's row groups as readParquetAt does
// with no row limit, the row groups decoded on up to GOMAXPROCS
// goroutines at once: each goroutine decodes a row group into blocks of
// trajectories and rejected rows, and the calling goroutine takes the
// blocks in input order (takeBlock, as JSONL's), handing the
// trajectories on. So the result, the first error and the rows skipped
// are those of reading row by row. A row group's goroutine waits once two
// of its blocks are not taken: what is held is a few blocks a goroutine.
func (l *loader) readParquetRows(f *parquet.File, plan *parquetPlan) error {
	groups := f.RowGroups()
	chans := make([]chan *jsonlBlock, len(groups))
	errs := make([]error, len(groups))
	firstRow := make([]int64, len(groups)) // 0-based, of each row group
	for i, rg := range groups {
		chans[i] = make(chan *jsonlBlock, 2)
		if i+1 < len(groups) {
			firstRow[i+1] = firstRow[i] + rg.NumRows()
		}
	}
	stop := make(chan struct{})
	nw := min(runtime.GOMAXPROCS(0), len(groups))
	var wg sync.WaitGroup
	for k := range nw {
		wg.Add(1)
		go func() {
			defer crash.Recover()
			defer wg.Done()
			pr := &parquetReader{l: l, plan: plan, stop: stop, pickable: plan.pickable()}
			for i := k; i < len(groups); i += nw {
				pr.rowNo, pr.groupBytes, pr.groupRows = int(firstRow[i]), rowGroupBytes(f, i), groups[i].NumRows()
				pr.blocks = chans[i]
				pr.startBlock()
				errs[i] = pr.rowGroup(groups[i])
				if errs[i] == nil {
					pr.block.advance = pr.groupBytes
					if !pr.send() {
						errs[i] = errParquetStopped
					}
				}
				close(chans[i]) // errs[i] is read once it is closed
				if errs[i] != nil {
					return
				}
			}
		}()
	}
	defer func() {
		close(stop)
		wg.Wait()
	}()
	taken := 0 // rows
	for i := range groups {
		for b := range chans[i] {
			if len(b.ts)+len(b.errs) > 0 { // the last holds the progress only
				if err := l.takeBlock(b); err != nil {
					return err
				}
				taken += len(b.ts) + len(b.errs)
			}
			// The decoding may be ahead of an interrupt.
			if l.ctx != nil && l.ctx.Err() != nil {
				return fmt.Errorf("%s:%d: read: %w", l.name, taken+1, l.ctx.Err())
			}
			if l.advance != nil && b.advance > 0 {
				l.advanced += b.advance
				l.advance(b.advance)
			}
		}
		if errs[i] != nil {
			return errs[i]
		}
	}
	return nil
}

// send hands the block being filled over to the reading goroutine, and
// starts a new one; false when the reading has stopped.
func (pr *parquetReader) send() bool {
	b := pr.block
	if len(b.ts)+len(b.errs) > 0 {
		// reserve's estimate of the rows to come: b.raw bytes per row.
		b.raw = max(1, int(pr.groupBytes*int64(len(b.ts)+len(b.errs))/max(1, pr.groupRows)))
	}
	b.done = make(chan struct{})
	close(b.done)
	select {
	case pr.blocks <- b:
		pr.startBlock()
		return true
	case <-pr.stop:
		return false
	}
}

// keep adds the trajectory t, or the error of its row, to the block being
// filled, and sends it once full.
func (pr *parquetReader) keep(t *engine.Trajectory, rejected *LineError) error {
	b := pr.block
	if rejected != nil {
		b.errs = append(b.errs, blockError{at: len(b.ts), err: rejected})
	} else {
		b.ts = append(b.ts, *t)
	}
	if len(b.ts)+len(b.errs) >= parquetBlockRows && !pr.send() {
		return errParquetStopped
	}
	return nil
}

// errParquetStopped ends the decoding goroutine of readParquetRows once
// the reading has stopped (its error is the reading's).
var errParquetStopped = errors.New("stopped")
