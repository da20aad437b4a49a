package parquetread

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/crash"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

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
	if pr.l.Context == nil || pr.l.Context.Err() == nil {
		return nil
	}
	return fmt.Errorf("%s:%d: read: %w", pr.l.Name, pr.rowNo+1, pr.l.Context.Err())
}

// BlockRows is how many rows the decoding goroutine of
// readParquetRows hands over at a time.
const BlockRows = 4096

// readParquetRows reads the rows of f's row groups as readParquetAt does
// with no row limit, the row groups decoded on up to GOMAXPROCS
// goroutines at once: each goroutine decodes a row group into blocks of
// trajectories and rejected rows, and the calling goroutine takes the
// blocks in input order (TakeBlock, as JSONL's), handing the
// trajectories on. So the result, the first error and the rows skipped
// are those of reading row by row. A row group's goroutine waits once two
// of its blocks are not taken: what is held is a few blocks a goroutine.
func readParquetRows(l *input.Loader, f *parquet.File, plan *parquetPlan) error {
	groups := f.RowGroups()
	chans := make([]chan *input.Block, len(groups))
	errs := make([]error, len(groups))
	firstRow := make([]int64, len(groups)) // 0-based, of each row group
	for i, rg := range groups {
		chans[i] = make(chan *input.Block, 2)
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
					pr.block.Advance = pr.groupBytes
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
			if len(b.Trajectories)+len(b.Errs) > 0 { // the last holds the progress only
				if err := l.TakeBlock(b); err != nil {
					return err
				}
				taken += len(b.Trajectories) + len(b.Errs)
			}
			// The decoding may be ahead of an interrupt.
			if l.Context != nil && l.Context.Err() != nil {
				return fmt.Errorf("%s:%d: read: %w", l.Name, taken+1, l.Context.Err())
			}
			if l.Advance != nil && b.Advance > 0 {
				l.Advanced += b.Advance
				l.Advance(b.Advance)
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
	if len(b.Trajectories)+len(b.Errs) > 0 {
		// reserve's estimate of the rows to come: b.raw bytes per row.
		b.Raw = max(1, int(pr.groupBytes*int64(len(b.Trajectories)+len(b.Errs))/max(1, pr.groupRows)))
	}
	b.Done = make(chan struct{})
	close(b.Done)
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
func (pr *parquetReader) keep(t *scoring.Trajectory, rejected *input.LineError) error {
	b := pr.block
	if rejected != nil {
		b.Errs = append(b.Errs, input.BlockError{At: len(b.Trajectories), Err: rejected})
	} else {
		b.Trajectories = append(b.Trajectories, *t)
	}
	if len(b.Trajectories)+len(b.Errs) >= BlockRows && !pr.send() {
		return errParquetStopped
	}
	return nil
}

// errParquetStopped ends the decoding goroutine of readParquetRows once
// the reading has stopped (its error is the reading's).
var errParquetStopped = errors.New("stopped")
