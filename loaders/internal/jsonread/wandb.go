package jsonread

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// A W&B table file is what wandb writes for a wandb.Table, which TRL's and
// OpenRLHF's trainers log their completions as (wandb/sdk/data_types/
// table.py, wandb/wandb at 4304c4d3f4f6fd3af5c3ec4f43ac3a1a2ea37db4): one
// JSON object with "columns", a list of names (strings or integers), and
// "data", a list of rows, each a list of one cell per column. The run's
// file media/table/{key}_{step}_{sha256[:20]}.table.json holds only those
// two (Table.bind_to_run); an artifact's {name}.table.json adds "_type":
// "table", "ncols", "nrows" and "column_types" (Table.to_json). Each row is
// read as the JSON object {column: cell, ...} would be: the columns are
// the record's fields, so that a trainer's layout recognises them.

// The keys of a W&B table object that the reader reads.
const (
	wandbColumns = "columns"
	wandbData    = "data"
	wandbType    = "_type"
	// wandbTableType is an artifact table's "_type"; wandbFileType that of
	// the history's pointer to a run's table file, which holds no rows.
	wandbTableType = "table"
	wandbFileType  = "table-file"
)

// ReadWandbTable reads a W&B table, a trajectory per row. Rows are
// numbered from 1 in messages and trajectories (Line), as Parquet's are;
// a syntax error is placed at its line and column of the text. A row that
// is not a list of one cell per column, or whose record is bad, is
// rejected (skipped with SkipInvalid); the table itself must have its
// columns, once each, before its data.
func ReadWandbTable(l *input.Loader, br *bufio.Reader) error {
	if err := l.CheckText(br); err != nil {
		return err
	}
	bound := &input.RecordBound{R: br, Max: l.MaxRecord}
	t := wandbReader{l: l, bound: bound, rw: jsonscan.NewRewriter(bufio.NewReaderSize(bound, input.BufferSize), l.Lead)}
	t.dec = json.NewDecoder(t.rw)
	if err := t.open(); err != nil {
		return err
	}
	var columns [][]byte
	seen := map[string]bool{}
	for t.dec.More() {
		key, err := t.key()
		if err != nil {
			return err
		}
		if seen[key] {
			return t.errorAt(t.dec.InputOffset(), fmt.Sprintf("a W&B table with %q twice", key))
		}
		seen[key] = true
		switch key {
		case wandbColumns:
			raw, err := t.value()
			if err != nil {
				return err
			}
			if off, ok := t.rw.Stray(t.dec.InputOffset()-int64(len(raw)), t.dec.InputOffset()); ok {
				return t.errorAt(off, `a W&B table's "columns": `+input.InvalidUTF8(0xFF))
			}
			if columns, err = wandbColumnNames(raw); err != nil {
				return t.errorAt(t.dec.InputOffset()-int64(len(raw)), err.Error())
			}
		case wandbData:
			if columns == nil {
				return t.errorAt(t.dec.InputOffset(), `a W&B table's "data" before its "columns": the rows cannot be named`)
			}
			if err := t.rows(columns); err != nil {
				return err
			}
		case wandbType:
			raw, err := t.value()
			if err != nil {
				return err
			}
			if err := wandbTypeError(raw); err != nil {
				return t.errorAt(t.dec.InputOffset()-int64(len(raw)), err.Error())
			}
		default: // ncols, nrows, column_types: what the rows say already
			if _, err := t.value(); err != nil {
				return err
			}
		}
	}
	if err := t.endError(); err != nil {
		return t.fail(err) // the table cut short, as an array ending inside it is
	}
	if !seen[wandbColumns] || !seen[wandbData] {
		return t.errorAt(t.dec.InputOffset(), `not a W&B table: it needs "columns" and "data"`)
	}
	return t.close()
}

// wandbReader reads the members of a W&B table object.
type wandbReader struct {
	l     *input.Loader
	bound *input.RecordBound
	rw    *jsonscan.Rewriter
	dec   *json.Decoder
	row   int    // the rows read so far
	obj   []byte // scratch: a row's record as a JSON object
}

// open reads the "{" that opens the table.
func (t *wandbReader) open() error {
	if !t.dec.More() {
		if err := t.endError(); err != nil && err != io.EOF {
			return t.fail(err) // a gzip stream cut short before any text, or a read error
		}
		return t.errorAt(0, "empty input: expected a W&B table, a JSON object with columns and data")
	}
	tok, err := t.dec.Token()
	if err != nil {
		return t.fail(err)
	}
	if tok != json.Delim('{') {
		return t.errorAt(0, "expected a W&B table, a JSON object with columns and data")
	}
	return nil
}

// endError returns, when the decoder's More was false at no bracket
// (the decoder holds nothing but white space), the error the text ended
// with: io.EOF at its end, io.ErrUnexpectedEOF where a gzip stream was
// cut short, or a read error; nil at a bracket.
func (t *wandbReader) endError() error {
	rest, _ := io.ReadAll(t.dec.Buffered()) // reading bytes cannot fail
	if jsonscan.SkipSpace(rest) < len(rest) {
		return nil
	}
	_, err := t.dec.Token()
	return err
}

// key reads the key of the next member.
func (t *wandbReader) key() (string, error) {
	tok, err := t.dec.Token()
	if err != nil {
		return "", t.fail(err)
	}
	return tok.(string), nil // the decoder gives only strings as keys
}

// value reads the value of a member whole, bounded as a record is.
func (t *wandbReader) value() (json.RawMessage, error) {
	var raw json.RawMessage
	t.bound.Mark()
	if err := t.dec.Decode(&raw); err != nil {
		return nil, t.fail(err)
	}
	return raw, nil
}

// rows reads the list of rows, each a trajectory.
func (t *wandbReader) rows(columns [][]byte) error {
	tok, err := t.dec.Token()
	if err != nil {
		return t.fail(err)
	}
	if tok != json.Delim('[') {
		return t.errorAt(t.dec.InputOffset(), `a W&B table's "data" must be a list of rows`)
	}
	for t.dec.More() {
		t.row++
		raw, err := t.value()
		if err != nil {
			return err
		}
		start := t.dec.InputOffset() - int64(len(raw))
		tr := &t.l.Scratch
		*tr = t.l.NewTrajectory(t.row, t.rw.InputOffset(start))
		t.obj, err = wandbRecord(t.obj[:0], columns, raw, tr)
		if _, ok := t.rw.Stray(start, start+int64(len(raw))); ok {
			err = errors.New(input.InvalidUTF8(0xFF))
		}
		if err != nil {
			if lerr := t.l.Reject((&input.LineError{Path: t.l.Name, Line: t.row, Msg: err.Error()}).WithText(raw)); lerr != nil {
				return lerr
			}
			continue
		}
		if err := t.l.Add(*tr); err != nil {
			return err
		}
	}
	_, err = t.dec.Token() // "]"
	return t.fail(err)
}

// close reads the "}" that closes the table and checks nothing follows.
func (t *wandbReader) close() error {
	if _, err := t.dec.Token(); err != nil {
		return t.fail(err)
	}
	if t.dec.More() {
		j := jsonReader{l: t.l, rw: t.rw, dec: t.dec, bound: t.bound}
		return t.errorAt(t.dec.InputOffset()+j.separation(), "invalid JSON: data after the W&B table")
	}
	if _, err := t.dec.Token(); err != io.EOF {
		return t.fail(err) // "]" or "}" where nothing may stand, or a read error
	}
	return nil
}

// fail turns an error of the decoder into the error to return (nil for
// nil): a row too long at its row, the others as the JSON reader places
// them.
func (t *wandbReader) fail(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, input.ErrRecordTooLong):
		return &input.LineError{Path: t.l.Name, Line: t.row, Msg: (&input.RecordTooLong{Max: t.l.MaxRecord}).Error()}
	}
	return jsonReader{l: t.l, rw: t.rw, dec: t.dec, bound: t.bound}.fail(err)
}

// errorAt returns msg placed at the line and column of the text that the
// offset off of the rewritten text stands for.
func (t *wandbReader) errorAt(off int64, msg string) *input.LineError {
	line, col := t.rw.Locate(off)
	return &input.LineError{Path: t.l.Name, Line: line, Col: col, Msg: msg}
}

// wandbColumnNames returns the column names of raw, each as a JSON string
// (an integer name as its decimal text), or why raw is not a list of
// distinct names.
func wandbColumnNames(raw []byte) ([][]byte, error) {
	if lerr := utf8Error(raw, true); lerr != nil {
		return nil, errors.New(`a W&B table's "columns": ` + lerr.Msg)
	}
	var cells []json.RawMessage
	if err := json.Unmarshal(raw, &cells); err != nil {
		return nil, fmt.Errorf(`a W&B table's "columns" must be a list of names, found %s`, describe(raw, true))
	}
	names := make([][]byte, len(cells))
	seen := map[string]bool{}
	for i, c := range cells {
		var name string
		if err := json.Unmarshal(c, &name); err != nil {
			var n int64
			if json.Unmarshal(c, &n) != nil {
				return nil, fmt.Errorf("W&B table column %d: a name is a string or an integer, found %s", i+1, describe(c, true))
			}
			name = strconv.FormatInt(n, 10)
		}
		if seen[name] {
			return nil, fmt.Errorf("W&B table column %q given twice", name)
		}
		seen[name] = true
		names[i], _ = json.Marshal(name)
	}
	return names, nil
}

// wandbTypeError returns why a table whose "_type" is raw cannot be read,
// nil for "table".
func wandbTypeError(raw []byte) error {
	var typ string
	if json.Unmarshal(raw, &typ) == nil {
		switch typ {
		case wandbTableType:
			return nil
		case wandbFileType:
			return errors.New(`a W&B "table-file" reference holds no rows: read the .table.json file its "path" names`)
		}
	}
	return fmt.Errorf(`not a W&B table: "_type" is %s`, describe(raw, true))
}

// wandbRecord sets t's fields from the row raw, read as the object
// {column: cell, ...} (built in buf, returned for reuse), or returns why
// it cannot.
func wandbRecord(buf []byte, columns [][]byte, raw []byte, t *scoring.Trajectory) ([]byte, error) {
	var cells []json.RawMessage
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &cells) != nil {
		return buf, fmt.Errorf("a W&B table row must be a list of cells, found %s", describe(raw, true))
	}
	if len(cells) != len(columns) {
		return buf, fmt.Errorf("a W&B table row of %d cells, the table has %d columns", len(cells), len(columns))
	}
	buf = append(buf, '{')
	for i, name := range columns {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(append(append(buf, name...), ':'), cells[i]...)
	}
	buf = append(buf, '}')
	obj, lerr := objectOrError(buf, true)
	if lerr != nil {
		return buf, errors.New(lerr.Msg)
	}
	return buf, obj.trajectory(t)
}

// RereadTableRow reads the W&B table row br starts with, by the columns
// of the table in f.
func RereadTableRow(l *input.Loader, f *os.File, br *bufio.Reader) (scoring.Trajectory, error) {
	in, err := input.Open(io.NewSectionReader(f, 0, 1<<62))
	if err != nil {
		return scoring.Trajectory{}, err
	}
	t := wandbReader{l: l, bound: &input.RecordBound{R: in.R, Max: l.MaxRecord}}
	t.rw = jsonscan.NewRewriter(bufio.NewReaderSize(t.bound, input.BufferSize), in.Lead)
	t.dec = json.NewDecoder(t.rw)
	if err := t.open(); err != nil {
		return scoring.Trajectory{}, err
	}
	for t.dec.More() {
		key, err := t.key()
		if err != nil {
			return scoring.Trajectory{}, err
		}
		raw, err := t.value()
		if err != nil {
			return scoring.Trajectory{}, err
		}
		if key != wandbColumns {
			continue
		}
		columns, err := wandbColumnNames(raw)
		if err != nil {
			return scoring.Trajectory{}, err
		}
		var row json.RawMessage
		if err := json.NewDecoder(jsonscan.NewRewriter(br, 0)).Decode(&row); err != nil {
			return scoring.Trajectory{}, fmt.Errorf("no JSON value there: %v", err)
		}
		tr := l.NewTrajectory(1, 0)
		_, err = wandbRecord(nil, columns, row, &tr)
		return tr, err
	}
	return scoring.Trajectory{}, errors.New(`no "columns" in the W&B table`)
}

// IsWandbTable reports whether head, the start of a text input, opens a
// W&B table: an object whose first member is "_type": "table", or
// "columns": a list of strings and integers followed by "data". The
// first is an artifact's table, the second a run's table file; a JSONL
// record whose first field is "columns" followed by "data" would be taken
// for one, and --input-format jsonl reads it.
func IsWandbTable(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	key, err := dec.Token()
	if err != nil {
		return false
	}
	switch key {
	case wandbType:
		v, err := dec.Token()
		return err == nil && v == wandbTableType
	case wandbColumns:
		var names []any
		if dec.Decode(&names) != nil {
			return false
		}
		for _, n := range names {
			if _, ok := n.(string); !ok {
				if _, ok := n.(float64); !ok {
					return false
				}
			}
		}
		next, err := dec.Token()
		return err == nil && next == wandbData
	}
	return false
}

// WandbTableColumns returns the column names of the W&B table whose text
// br starts (a buffer of MaxTableSniff bytes at least) in the table's
// order, nil when it is not a W&B table with "columns" before "data"
// (both of wandb's forms write them so) or cannot be read (the load says
// why): TRL's table puts its reward columns before its log_extra ones, as
// its Parquet file does. integers are those of them of ints
// (integerColumns): a log_extra column, never a reward's (TRL logs
// rewards_per_func, floats).
func WandbTableColumns(br *bufio.Reader) (columns, integers []string) {
	if head, _ := br.Peek(MaxTableSniff); !IsWandbTable(head) {
		return nil, nil
	}
	dec := json.NewDecoder(br)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return columns, nil
		}
		if key == wandbData {
			if columns == nil {
				return nil, nil
			}
			return columns, integerColumns(dec, columns)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return columns, nil
		}
		if key != wandbColumns {
			continue
		}
		names, err := wandbColumnNames(raw)
		if err != nil {
			return nil, nil
		}
		columns = make([]string, len(names))
		for i, n := range names {
			if json.Unmarshal(n, &columns[i]) != nil {
				return nil, nil
			}
		}
	}
	return columns, nil
}

// integerColumns returns the columns of ints (IntegerScan) in the first
// rows of the data dec is at (before its '['); none when the rows cannot
// be read (the load says why).
func integerColumns(dec *json.Decoder, columns []string) []string {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil
	}
	scan := NewIntegerScan(len(columns))
	for n := 0; n < IntegerRows && dec.More(); n++ {
		var row []json.RawMessage
		if dec.Decode(&row) != nil || len(row) != len(columns) {
			return nil
		}
		for i, v := range row {
			scan.Add(i, v)
		}
	}
	return scan.Integers(columns)
}

// MaxTableSniff is how much of an input sniffFormat looks at to tell a W&B
// table: the read buffer.
const MaxTableSniff = input.BufferSize
