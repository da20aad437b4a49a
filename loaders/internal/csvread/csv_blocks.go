package csvread

import (
	"encoding/csv"
	"errors"
	"io"
	"runtime"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// BlockRows is how many CSV rows a block holds.
const BlockRows = 2048

// csvBlock is a run of CSV rows, read by the reading goroutine, and once
// converted (done closed), their trajectories and errors in out.
type csvBlock struct {
	rows []csvBlockRow
	// cells and places hold the rows' cells and where each is (line,
	// column), one row after the other.
	cells  []string
	places [][2]int
	out    input.Block
}

// csvBlockRow is a row of a csvBlock: its cells from cells[first:], or the
// error of a malformed row, rejected in its place.
type csvBlockRow struct {
	first, n int
	start    int64
	err      *input.LineError
}

// readCSVRows reads the rows after the header as Read does row by row,
// in blocks: the reading goroutine reads the rows (encoding/csv) and up to
// GOMAXPROCS goroutines make their trajectories, which the reading
// goroutine takes block by block in input order (input.Loader.TakeBlock, as JSONL's).
// So the result, the first error and the rows skipped are those of a
// reading row by row. next is the line after the header.
func readCSVRows(l *input.Loader, cr *csv.Reader, bound *input.RecordBound, layout *csvLayout, next int) error {
	nw := runtime.GOMAXPROCS(0)
	work, stop := input.StartWorkers(nw, func() func(*csvBlock) {
		var (
			t     scoring.Trajectory
			spare []map[string]any
		)
		return func(b *csvBlock) {
			convertCSVBlock(l, b, layout, &t, &spare)
			close(b.out.Done)
		}
	})
	defer stop()
	var pending, free []*csvBlock
	take := func() error {
		b := pending[0]
		pending = pending[1:]
		err := l.TakeBlock(&b.out)
		free = append(free, b)
		return err
	}
	for {
		var b *csvBlock
		if n := len(free); n > 0 {
			b, free = free[n-1], free[:n-1]
		} else {
			b = &csvBlock{}
		}
		b.rows, b.cells, b.places = b.rows[:0], b.cells[:0], b.places[:0]
		from := cr.InputOffset()
		var end error // io.EOF, or the error that ends the reading
		for len(b.rows) < BlockRows {
			start := cr.InputOffset() // blank lines before the record included
			bound.Mark()
			row, err := cr.Read()
			if err == io.EOF {
				end = err
				break
			}
			if errors.Is(err, input.ErrRecordTooLong) {
				// The reader cannot resume within the row: the end, even
				// when skipping.
				end = csvTooLong(l, cr, row, next)
				break
			}
			next = lineAfter(cr, row, err)
			if err != nil {
				err = csvError(l, err, row, cr)
				le, malformed := err.(*input.LineError)
				if !malformed {
					end = err
					break
				}
				b.rows = append(b.rows, csvBlockRow{err: le})
				continue
			}
			b.rows = append(b.rows, csvBlockRow{first: len(b.cells), n: len(row), start: start})
			b.cells = append(b.cells, row...)
			for i := range row {
				line, col := cr.FieldPos(i)
				b.places = append(b.places, [2]int{line, col})
			}
		}
		b.out.Raw = int(cr.InputOffset() - from)
		b.out.Done = make(chan struct{})
		work <- b
		pending = append(pending, b)
		for len(pending) > nw+1 || (end != nil && len(pending) > 0) {
			if err := take(); err != nil {
				return err
			}
		}
		if end == io.EOF {
			return nil
		}
		if end != nil {
			return end
		}
	}
}

// convertCSVBlock makes the trajectories of b's rows, and rejects its bad
// rows, into b.out; t is the goroutine's scratch trajectory, spare its
// share of the metadata maps.
func convertCSVBlock(l *input.Loader, b *csvBlock, layout *csvLayout, t *scoring.Trajectory, spare *[]map[string]any) {
	out := &b.out
	out.Trajectories, out.Errs = out.Trajectories[:0], out.Errs[:0]
	for _, r := range b.rows {
		if r.err != nil {
			out.Errs = append(out.Errs, input.BlockError{At: len(out.Trajectories), Err: r.err})
			continue
		}
		places := b.places[r.first : r.first+r.n]
		fieldPos := func(i int) (int, int) { return places[i][0], places[i][1] }
		if err := csvTrajectory(l, t, layout, b.cells[r.first:r.first+r.n], fieldPos, r.start, l.Maps.Next(spare)); err != nil {
			out.Errs = append(out.Errs, input.BlockError{At: len(out.Trajectories), Err: err})
			continue
		}
		out.Trajectories = append(out.Trajectories, *t)
	}
}
