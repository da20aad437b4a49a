package loaders

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"

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
			t      engine.Trajectory
			spare  []map[string]any
			picker csvPicker
		)
		return func(b *csvBlock) {
			l.convertCSVBlock(b, layout, &t, &spare, &picker)
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
// share of the metadata maps, picker where its columns are in the Pick.
// Once the scorer picks its keys (and no column of JSON metadata may add
// to them), the rows' values of those keys go to picked arrays, as JSONL's
// lines do, and Metadata stays nil.
func (l *loader) convertCSVBlock(b *csvBlock, layout *csvLayout, t *engine.Trajectory, spare *[]map[string]any, picker *csvPicker) {
	out := &b.out
	out.ts, out.errs = out.ts[:0], out.errs[:0]
	out.picked = nil
	pick := l.pick.Load()
	if pick != nil && layout.fields[cellFieldIndex("metadata")] < 0 {
		picker.use(pick, layout)
		out.picked = l.picks.take(len(b.rows) * len(pick.Keys))
	}
	for _, r := range b.rows {
		if r.err != nil {
			out.errs = append(out.errs, blockError{at: len(out.ts), err: r.err})
			continue
		}
		places := b.places[r.first : r.first+r.n]
		fieldPos := func(i int) (int, int) { return places[i][0], places[i][1] }
		row := b.cells[r.first : r.first+r.n]
		var err *LineError
		if out.picked != nil {
			k := len(pick.Keys)
			err = l.csvPickedTrajectory(t, layout, row, fieldPos, r.start, picker, out.picked[len(out.ts)*k:(len(out.ts)+1)*k:(len(out.ts)+1)*k])
		} else {
			err = l.csvTrajectory(t, layout, row, fieldPos, r.start, l.maps.next(spare))
		}
		if err != nil {
			out.errs = append(out.errs, blockError{at: len(out.ts), err: err})
			continue
		}
		out.ts = append(out.ts, *t)
	}
}

// csvPicker says where the metadata columns of a CSV layout go in a Pick.
type csvPicker struct {
	pick *engine.Pick
	// at[j] is the index in pick.Keys of layout.metadata[j], or -1.
	at []int
}

// use makes p the picker of pick on layout, unless it is already.
func (p *csvPicker) use(pick *engine.Pick, layout *csvLayout) {
	if p.pick == pick {
		return
	}
	p.pick, p.at = pick, make([]int, len(layout.metadata))
	for j, c := range layout.metadata {
		p.at[j] = slices.Index(pick.Keys, c.name)
	}
}

// csvPickedTrajectory is csvTrajectory with the metadata columns of
// picker's keys read into picked (as cellValue reads them: a number, text
// or nothing) and no Metadata; the response is read only when the Pick
// asks for it.
func (l *loader) csvPickedTrajectory(t *engine.Trajectory, layout *csvLayout, row []string, fieldPos func(i int) (line, col int), start int64, picker *csvPicker, picked []engine.PickedValue) *LineError {
	line, _ := fieldPos(0)
	*t = l.trajectory(line, start, nil)
	t.Pick, t.Picked = picker.pick, picked
	for j, c := range layout.metadata {
		if k := picker.at[j]; k >= 0 {
			picked[k] = cellPicked(row[c.index])
		}
	}
	response := cellFieldIndex("response")
	for f, i := range layout.fields {
		if i < 0 || (f == response && !picker.pick.Response) {
			continue
		}
		if err := cellFields[f].set(t, row[i]); err != nil {
			cellLine, col := fieldPos(i)
			return l.errorAt(cellLine, col, fmt.Errorf("%s: %w", cellFields[f].name, err).Error())
		}
	}
	return nil
}
