package loaders

import (
	"encoding/csv"
	"errors"
	"io"
	"runtime"

	"github.com/rewardlens/rewardlens/engine"
)

// csvBlockRows is how many CSV rows a block holds.
const csvBlockRows = 2048

// csvBlock is a run of CSV rows, read by the reading goroutine, and once
// converted (done closed), their trajectories and errors in out.
type csvBlock struct {
	rows []csvBlockRow
	// cells and places hold the rows' cells and where each is (line,
	// column), one row after the other.
	cells  []string
	places [][2]int
	out    jsonlBlock
}

// csvBlockRow is a row of a csvBlock: its cells from cells[first:], or the
// error of a malformed row, rejected in its place.
type csvBlockRow struct {
	first, n int
	start    int64
	err      *LineError
}

// readCSVRows reads the rows after the header as readCSV does row by row,
// in blocks: the reading goroutine reads the rows (encoding/csv) and up to
// GOMAXPROCS goroutines make their trajectories, which the reading
// goroutine takes block by block in input order (takeBlock, as JSONL's).
// So the result, the first error and the rows skipped are those of a
// reading row by row. next is the line after the header.
func (l *loader) readCSVRows(cr *csv.Reader, bound *recordBound, layout *csvLayout, next int) error {
	nw := runtime.GOMAXPROCS(0)
	work, stop := startWorkers(nw, func() func(*csvBlock) {
		var (
			t     engine.Trajectory
			spare []map[string]any
		)
		return func(b *csvBlock) {
			l.convertCSVBlock(b, layout, &t, &spare)
			close(b.out.done)
		}
	})
	defer stop()
	var pending, free []*csvBlock
	take := func() error {
		b := pending[0]
		pending = pending[1:]
		err := l.takeBlock(&b.out)
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
		for len(b.rows) < csvBlockRows {
			start := cr.InputOffset() // blank lines before the record included
			bound.mark()
			row, err := cr.Read()
			if err == io.EOF {
				end = err
				break
			}
			if errors.Is(err, errRecordTooLong) {
				// The reader cannot resume within the row: the end, even
				// when skipping.
				end = l.csvTooLong(cr, row, next)
				break
			}
			next = lineAfter(cr, row, err)
			if err != nil {
				err = l.csvError(err, row, cr)
				le, malformed := err.(*LineError)
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
		b.out.raw = int(cr.InputOffset() - from)
		b.out.done = make(chan struct{})
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
func (l *loader) convertCSVBlock(b *csvBlock, layout *csvLayout, t *engine.Trajectory, spare *[]map[string]any) {
	out := &b.out
	out.ts, out.errs = out.ts[:0], out.errs[:0]
	for _, r := range b.rows {
		if r.err != nil {
			out.errs = append(out.errs, blockError{at: len(out.ts), err: r.err})
			continue
		}
		places := b.places[r.first : r.first+r.n]
		fieldPos := func(i int) (int, int) { return places[i][0], places[i][1] }
		if err := l.csvTrajectory(t, layout, b.cells[r.first:r.first+r.n], fieldPos, r.start, l.maps.next(spare)); err != nil {
			out.errs = append(out.errs, blockError{at: len(out.ts), err: err})
			continue
		}
		out.ts = append(out.ts, *t)
	}
}
