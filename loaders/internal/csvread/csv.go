// Package csvread reads CSV with a header row: the columns of the
// trajectory fields by name (CellFields, which the Parquet reader sets its
// columns through too), the others metadata.
package csvread

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
)

// Read reads a header row, then one trajectory per row. The columns of
// the trajectory fields are found by name (around which spaces are
// ignored); every other column is a metadata value, except columns without
// a name, such as the index column pandas writes, which are ignored.
func Read(l *input.Loader, br *bufio.Reader) error {
	if err := l.CheckText(br); err != nil {
		return err
	}
	bound := &input.RecordBound{R: br, Max: l.MaxRecord}
	cr := csv.NewReader(bound)
	cr.ReuseRecord = true
	// next is the line after the last row read: where a row too long,
	// whose fields the reader has not placed, starts (blank lines before
	// it aside).
	next := 1
	header, err := cr.Read()
	switch {
	case err == io.EOF:
		return nil // empty input: no trajectories
	case errors.Is(err, input.ErrRecordTooLong):
		return csvTooLong(l, cr, header, next)
	case err != nil:
		return csvError(l, err, nil, cr) // without a header, no row can be read
	}
	next = lineAfter(cr, header, nil)
	if err := utf8Error(l, header, cr.FieldPos); err != nil {
		return err
	}
	if err := checkHeader(l, header, cr); err != nil {
		return err
	}
	layout, err := layoutOf(l, header, cr)
	if err != nil {
		return err
	}
	if l.RowLimit == 0 {
		return readCSVRows(l, cr, bound, layout, next)
	}
	for {
		start := cr.InputOffset() // blank lines before the record included
		bound.Mark()
		row, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, input.ErrRecordTooLong) {
			// The reader cannot resume within the row: the end, even when
			// skipping.
			return csvTooLong(l, cr, row, next)
		}
		next = lineAfter(cr, row, err)
		if err != nil {
			if err = csvRowError(l, err, row, cr); err != nil {
				return err
			}
			continue
		}
		if err := csvRow(l, layout, row, cr, start); err != nil {
			return err
		}
	}
}

// csvTooLong is the error of a row longer than Options.MaxRecordBytes,
// which the reader gave as row: at the line of its first field, or at next
// when the reader placed none (a first field quoted and cut by the bound).
func csvTooLong(l *input.Loader, cr *csv.Reader, row []string, next int) error {
	line := next
	if len(row) > 0 {
		line, _ = cr.FieldPos(0)
	}
	return &input.LineError{Path: l.Name, Line: line, Msg: (&input.RecordTooLong{Max: l.MaxRecord}).Error()}
}

// lineAfter returns the line after the one on which the row cr just read
// ends: its last field's line and the line breaks within that field (the
// reader turns "\r\n" into "\n"), or after the line of a parse error.
func lineAfter(cr *csv.Reader, row []string, err error) int {
	var parse *csv.ParseError
	if errors.As(err, &parse) && !errors.Is(parse.Err, csv.ErrFieldCount) {
		return parse.Line + 1
	}
	if len(row) == 0 {
		return 1
	}
	line, _ := cr.FieldPos(len(row) - 1)
	return line + strings.Count(row[len(row)-1], "\n") + 1
}

// csvRowError handles an error of cr, which came with row: a malformed row
// is rejected, a read error is fatal.
func csvRowError(l *input.Loader, err error, row []string, cr *csv.Reader) error {
	err = csvError(l, err, row, cr)
	if le, ok := err.(*input.LineError); ok {
		return l.Reject(le)
	}
	return err
}

// csvError turns an error of cr, which came with row, into a *LineError
// when the input is malformed, or else the read error it is.
func csvError(l *input.Loader, err error, row []string, cr *csv.Reader) error {
	var parse *csv.ParseError
	switch {
	case errors.As(err, &parse) && errors.Is(parse.Err, csv.ErrFieldCount):
		// The header row set cr.FieldsPerRecord.
		fields := "fields"
		if len(row) == 1 {
			fields = "field"
		}
		msg := fmt.Sprintf("row has %d %s, header has %d", len(row), fields, cr.FieldsPerRecord)
		if len(row) > cr.FieldsPerRecord {
			line, col := cr.FieldPos(cr.FieldsPerRecord) // the first extra field
			return l.ErrorAt(line, col, msg)
		}
		return l.ErrorAt(parse.StartLine, 0, msg)
	case errors.As(err, &parse) && errors.Is(parse.Err, csv.ErrQuote):
		// The reader places the error where it gave up, the end of the
		// input for a quote never closed: the field is said where it opens.
		line, col := quotedFieldStart(cr, row, parse.StartLine)
		msg := parse.Err.Error() + " opened here"
		if line != parse.Line || col != parse.Column {
			msg += fmt.Sprintf(" (found at line %d, column %d)", parse.Line, parse.Column)
		}
		return l.ErrorAt(line, col, msg)
	case errors.As(err, &parse):
		return l.ErrorAt(parse.Line, parse.Column, parse.Err.Error())
	}
	return fmt.Errorf("%s: read: %w", l.Name, err)
}

// quotedFieldStart returns the line and column (in bytes, from 1) of the
// quote that opens the field after row, the fields cr read of a record
// starting at startLine before its error. The field before it is taken as
// quoted when it must be (a quote, comma or line break in it), as
// Python's csv and pandas write it, else as written plain.
func quotedFieldStart(cr *csv.Reader, row []string, startLine int) (line, col int) {
	if len(row) == 0 {
		return startLine, 1
	}
	last := row[len(row)-1]
	line, col = cr.FieldPos(len(row) - 1)
	raw := len(last)
	if strings.ContainsAny(last, "\"\r\n") || strings.ContainsRune(last, cr.Comma) {
		raw = len(last) + 2 + strings.Count(last, "\"")
	}
	if nl := strings.Count(last, "\n"); nl > 0 {
		// Its text after its last line break, its quotes doubled, and the
		// closing quote.
		tail := last[strings.LastIndexByte(last, '\n')+1:]
		return line + nl, len(tail) + strings.Count(tail, "\"") + 1 + 2
	}
	return line, col + raw + 1
}

// csvLayout says where a CSV row holds what.
type csvLayout struct {
	// fields has, for each of CellFields, the index of its column or -1.
	fields [len(CellFields)]int
	// metadata are the other columns with a name.
	metadata []csvColumn
}

// csvColumn is a metadata column.
type csvColumn struct {
	index int
	name  string
}

// layoutOf reads the layout from the header row (its namedColumns); a
// name given twice is an error.
func layoutOf(l *input.Loader, header []string, cr *csv.Reader) (*csvLayout, error) {
	layout := &csvLayout{}
	for i := range layout.fields {
		layout.fields[i] = -1
	}
	names, index := namedColumns(header)
	seen := make(map[string]bool, len(names))
	for k, name := range names {
		i := index[k]
		if seen[name] {
			line, col := cr.FieldPos(i)
			return nil, l.ErrorAt(line, col, fmt.Sprintf("duplicate column %q", name))
		}
		seen[name] = true
		if f := CellFieldIndex(name); f >= 0 {
			layout.fields[f] = i
		} else {
			layout.metadata = append(layout.metadata, csvColumn{index: i, name: name})
		}
	}
	return layout, nil
}

// csvRow reads the trajectory of row, which starts at the offset start of
// the text; a bad row is rejected.
func csvRow(l *input.Loader, layout *csvLayout, row []string, cr *csv.Reader, start int64) error {
	t := &l.Scratch // not a local: its address would make it escape
	if err := csvTrajectory(l, t, layout, row, cr.FieldPos, start, l.NewMetadata()); err != nil {
		return l.Reject(err)
	}
	return l.Add(*t)
}

// csvTrajectory sets *t to the trajectory of row, which starts at the
// offset start of the text, without its default ID, metadata its
// Metadata, or returns what is wrong with it; fieldPos places row's
// fields (csv.Reader's FieldPos).
func csvTrajectory(l *input.Loader, t *scoring.Trajectory, layout *csvLayout, row []string, fieldPos func(i int) (line, col int), start int64, metadata map[string]any) *input.LineError {
	if err := utf8Error(l, row, fieldPos); err != nil {
		return err
	}
	line, _ := fieldPos(0)
	*t = l.Trajectory(line, start, metadata)
	for _, c := range layout.metadata {
		t.Metadata[c.name] = cellValue(row[c.index])
	}
	for f, i := range layout.fields {
		if i < 0 {
			continue
		}
		if err := CellFields[f].Set(t, row[i]); err != nil {
			var member *jsonread.MemberError
			if !errors.As(err, &member) {
				err = fmt.Errorf("%s: %w", CellFields[f].Name, err)
			}
			cellLine, col := fieldPos(i)
			return l.ErrorAt(cellLine, col, err.Error())
		}
	}
	return nil
}

// utf8Error returns the error of the first cell of row that is not valid
// UTF-8, placed at the cell (fieldPos places row's cells), or nil. Every
// cell is held to it, read or not, as a JSON line is as a whole: the
// formats are strict alike.
func utf8Error(l *input.Loader, row []string, fieldPos func(i int) (line, col int)) *input.LineError {
	for i, cell := range row {
		if !utf8.ValidString(cell) {
			line, col := fieldPos(i)
			return l.ErrorAt(line, col, input.InvalidUTF8(cell[input.FirstInvalidUTF8([]byte(cell))]))
		}
	}
	return nil
}

// cellValue returns the metadata value of a cell: a number when it parses as
// one (including nan, inf, -inf and infinity in any case, and numbers too
// large for a float64, which are infinities), a bool when it is one
// (cellBool), nil when empty, else the text.
func cellValue(cell string) any {
	s := strings.TrimSpace(cell)
	if s == "" {
		return nil
	}
	if f, ok := cellNumber(s); ok {
		return f
	}
	if b, ok := cellBool(s); ok {
		return b
	}
	return cell
}

// cellPicked returns the metadata value of a cell as cellValue reads it,
// as a picked value: a bool is the number 1 or 0, as JSON's is.
func cellPicked(cell string) scoring.PickedValue {
	s := strings.TrimSpace(cell)
	if s == "" {
		return scoring.PickedValue{}
	}
	if f, ok := cellNumber(s); ok {
		return scoring.PickedValue{Number: f, Kind: scoring.PickedNumber}
	}
	if b, ok := cellBool(s); ok {
		return scoring.PickedBool(b)
	}
	return scoring.PickedValue{Kind: scoring.PickedOther}
}

// cellBool returns the bool s is written as, and whether it is one: true
// and false as JSON and Python's json write them, True and False as
// Python's csv and pandas' to_csv write a bool, TRUE and FALSE as
// spreadsheets export one. Other spellings ("tRUE", "yes", "1") are
// not: such a column is text, or a number.
func cellBool(s string) (value, ok bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

// cellNumber returns the number s holds, as strconv.ParseFloat reads it
// (numbers too large for a float64 are infinities), and whether it is one.
// A JSON number is read by jsonscan.Number, which gives strconv's value.
func cellNumber(s string) (float64, bool) {
	if end, f, ok := jsonscan.Number([]byte(s), 0); ok && end == len(s) {
		return f, true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil || errors.Is(err, strconv.ErrRange)
}

// CellFields are the trajectory fields a CSV column can hold, and how to set
// them from a cell; an empty cell leaves the default. Metadata comes last,
// so that it meets the other metadata columns already set.
var CellFields = [...]struct {
	Name string
	Set  func(t *scoring.Trajectory, cell string) error
}{
	{"id", func(t *scoring.Trajectory, cell string) error {
		if cell != "" {
			t.ID = cell
		}
		return nil
	}},
	{"batch", func(t *scoring.Trajectory, cell string) error {
		return cellInteger(cell, &t.Batch)
	}},
	{"group", func(t *scoring.Trajectory, cell string) error {
		t.Group = cell
		return nil
	}},
	{"step_count", func(t *scoring.Trajectory, cell string) error {
		if err := cellInteger(cell, &t.StepCount); err != nil {
			return err
		}
		if t.StepCount < 0 {
			return fmt.Errorf("must be an integer >= 0, found %s", textsafe.QuoteShort(cell))
		}
		return nil
	}},
	{"response", func(t *scoring.Trajectory, cell string) error {
		if cell != "" {
			t.Response = quoteJSON(cell)
		}
		return nil
	}},
	{"done", func(t *scoring.Trajectory, cell string) error {
		switch strings.ToLower(strings.TrimSpace(cell)) {
		case "", "true", "1":
			t.Done = true
		case "false", "0":
			t.Done = false
		default:
			return fmt.Errorf("must be true, false, 1 or 0, found %s", textsafe.QuoteShort(cell))
		}
		return nil
	}},
	{"metadata", cellMetadata},
}

// CellFieldIndex returns the index in CellFields of the field called name,
// or -1.
func CellFieldIndex(name string) int {
	for i, f := range CellFields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// cellInteger sets *n to the integer in cell, if it is not empty.
func cellInteger(cell string, n *int64) error {
	s := strings.TrimSpace(cell)
	if s == "" {
		return nil
	}
	v, err := jsonscan.ParseInteger(s)
	if err != nil {
		return fmt.Errorf("%w, found %s", err, textsafe.QuoteShort(cell))
	}
	*n = v
	return nil
}

// cellMetadata merges the JSON object in cell, if it is not empty, into
// t.Metadata; a key that a column gives too is an error.
func cellMetadata(t *scoring.Trajectory, cell string) error {
	if strings.TrimSpace(cell) == "" {
		return nil
	}
	obj, lerr := jsonread.DecodeObject([]byte(cell))
	if lerr != nil {
		return errors.New(lerr.Msg)
	}
	m := map[string]any{}
	if err := obj.AddMetadata(m); err != nil {
		return err
	}
	for _, key := range slices.Sorted(maps.Keys(m)) {
		if _, dup := t.Metadata[key]; dup {
			return &jsonread.MemberError{Key: key, Err: errors.New("given both as a column and in the metadata column")}
		}
		t.Metadata[key] = m[key]
	}
	return nil
}

// quoteJSON returns s as a JSON string, with <, > and & as they are.
func quoteJSON(s string) json.RawMessage {
	if plainJSON(s) {
		q := make([]byte, 0, len(s)+2)
		return append(append(append(q, '"'), s...), '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // cannot fail for a string
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// plainJSON reports whether s is its own JSON string text: printable
// ASCII but '"' and '\\'.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// RereadRow reads the CSV record br starts with, by the header of f.
func RereadRow(l *input.Loader, f *os.File, br *bufio.Reader) (scoring.Trajectory, error) {
	in, err := input.Open(io.NewSectionReader(f, 0, 1<<62))
	if err != nil {
		return scoring.Trajectory{}, err
	}
	hr := csv.NewReader(in.R)
	header, err := hr.Read()
	if err != nil {
		return scoring.Trajectory{}, fmt.Errorf("header: %v", err)
	}
	layout, err := layoutOf(l, header, hr)
	if err != nil {
		return scoring.Trajectory{}, err
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = len(header)
	row, err := cr.Read()
	if err != nil {
		return scoring.Trajectory{}, err
	}
	var t scoring.Trajectory
	if lerr := csvTrajectory(l, &t, layout, row, cr.FieldPos, 0, l.NewMetadata()); lerr != nil {
		return scoring.Trajectory{}, errors.New(lerr.Msg)
	}
	return t, nil
}
