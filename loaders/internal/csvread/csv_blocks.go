package csvread

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

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
			t      scoring.Trajectory
			spare  []map[string]any
			picker csvPicker
		)
		return func(b *csvBlock) {
			convertCSVBlock(l, b, layout, &t, &spare, &picker)
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
// share of the metadata maps, picker where its columns are in the Pick.
// Once the scorer picks its keys (and no column of JSON metadata may add
// to them), the rows' values of those keys go to picked arrays, as JSONL's
// lines do, and Metadata stays nil.
func convertCSVBlock(l *input.Loader, b *csvBlock, layout *csvLayout, t *scoring.Trajectory, spare *[]map[string]any, picker *csvPicker) {
	out := &b.out
	out.Trajectories, out.Errs = out.Trajectories[:0], out.Errs[:0]
	out.Picked = nil
	pick := l.Pick.Load()
	if pick != nil && layout.fields[CellFieldIndex("metadata")] < 0 {
		picker.use(pick, layout)
		out.Picked = l.Picks.Take(len(b.rows) * len(pick.Keys))
	}
	for _, r := range b.rows {
		if r.err != nil {
			out.Errs = append(out.Errs, input.BlockError{At: len(out.Trajectories), Err: r.err})
			continue
		}
		places := b.places[r.first : r.first+r.n]
		fieldPos := func(i int) (int, int) { return places[i][0], places[i][1] }
		row := b.cells[r.first : r.first+r.n]
		var err *input.LineError
		if out.Picked != nil {
			k := len(pick.Keys)
			n := len(out.Trajectories)
			err = csvPickedTrajectory(l, t, layout, row, fieldPos, r.start, picker, out.Picked[n*k:(n+1)*k:(n+1)*k])
		} else {
			err = csvTrajectory(l, t, layout, row, fieldPos, r.start, l.Maps.Next(spare))
		}
		if err != nil {
			out.Errs = append(out.Errs, input.BlockError{At: len(out.Trajectories), Err: err})
			continue
		}
		out.Trajectories = append(out.Trajectories, *t)
	}
}

// csvPicker says where the metadata columns of a CSV layout go in a Pick.
type csvPicker struct {
	pick *scoring.Pick
	// at[j] is the index in pick.Keys of layout.metadata[j], or -1.
	at []int
}

// use makes p the picker of pick on layout, unless it is already.
func (p *csvPicker) use(pick *scoring.Pick, layout *csvLayout) {
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
func csvPickedTrajectory(l *input.Loader, t *scoring.Trajectory, layout *csvLayout, row []string, fieldPos func(i int) (line, col int), start int64, picker *csvPicker, picked []scoring.PickedValue) *input.LineError {
	if err := utf8Error(l, row, fieldPos); err != nil {
		return err
	}
	line, _ := fieldPos(0)
	*t = l.Trajectory(line, start, nil)
	t.Pick, t.Picked = picker.pick, picked
	for j, c := range layout.metadata {
		if k := picker.at[j]; k >= 0 {
			if picked[k] = cellPicked(row[c.index]); picked[k].Kind == scoring.PickedOther {
				t.SetPickedOther(k, strings.Clone(row[c.index])) // not the whole record's text
			}
		}
	}
	response := CellFieldIndex("response")
	for f, i := range layout.fields {
		if i < 0 || (f == response && !picker.pick.Response) {
			continue
		}
		if err := CellFields[f].Set(t, row[i]); err != nil {
			cellLine, col := fieldPos(i)
			return l.ErrorAt(cellLine, col, fmt.Errorf("%s: %w", CellFields[f].Name, err).Error())
		}
	}
	return nil
}
