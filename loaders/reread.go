package loaders

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonscan"
)

// Reread reads t's record again from its file, at t.Offset, and returns the
// trajectory it holds, Response and Metadata included: what a caller that
// dropped them (engine.Trajectory.DropBody) shows on demand. It costs a
// seek and the reading of one record (and of the header, for CSV).
//
// fields must be the record fields t was loaded with (Options.Fields, nil
// for none): the record read again gets its id, batch and group as the
// load gave them (an id by position, which the record cannot tell, is
// t's), and only then is compared with t. They are a parameter, not an
// option, so that no caller can compare a record read without them with
// one loaded with them: its group and batch would differ, and the record
// would be taken for changed. fields is used on the calling goroutine
// only (engine.RecordFields.Clone).
//
// The record must still be t's: the same id, batch, group, step_count and
// done, else the error is "PATH:LINE: trajectory "ID" changed since it was
// loaded: why". A trajectory without Format (read from standard input, a
// gzip or Parquet file, or made in code) cannot be read again. The file is
// only opened for reading.
func Reread(t *engine.Trajectory, fields *engine.RecordFields) (engine.Trajectory, error) {
	if t.Format == "" {
		return engine.Trajectory{}, fmt.Errorf("%s: cannot be read again (standard input, gzip and Parquet files are read once)", t.Where())
	}
	f, err := os.Open(t.Source)
	if err != nil {
		return engine.Trajectory{}, fmt.Errorf("%s: cannot read it again: %w", t.Where(), err)
	}
	defer f.Close()
	got, err := rereadRecord(f, t)
	if err != nil {
		return engine.Trajectory{}, changed(t, err.Error())
	}
	if got.ID == "" {
		got.ID = t.ID // the default: the position it was loaded at
	}
	if fields != nil {
		if err := fields.Apply(&got); err != nil {
			return engine.Trajectory{}, changed(t, err.Error())
		}
	}
	if why := sameRecord(&got, t); why != "" {
		return engine.Trajectory{}, changed(t, why)
	}
	got.Line, got.Offset = t.Line, t.Offset
	return got, nil
}

// changed is the error of a record that is no longer t's.
func changed(t *engine.Trajectory, why string) error {
	return &LineError{Path: t.Source, Line: t.Line, Msg: fmt.Sprintf("trajectory %q changed since it was loaded: %s", t.ID, why)}
}

// sameRecord returns "" when got, read again, has the fields t kept, else
// what differs.
func sameRecord(got, t *engine.Trajectory) string {
	switch {
	case got.ID != t.ID:
		return fmt.Sprintf("the record there now has id %q", got.ID)
	case got.Batch != t.Batch, got.Group != t.Group, got.StepCount != t.StepCount, got.Done != t.Done:
		return "the record there now has other batch, group, step_count or done"
	}
	return ""
}

// rereadRecord reads the record of t's format at t.Offset of f, without
// its default ID. Its error says what is wrong there.
func rereadRecord(f *os.File, t *engine.Trajectory) (engine.Trajectory, error) {
	l := &loader{name: t.Source, fileIndex: int(t.Batch), format: t.Format, res: &Result{}, maxRecord: math.MaxInt64} // a line read once already
	at := bufio.NewReaderSize(io.NewSectionReader(f, t.Offset, 1<<62), bufferSize)
	if spec := Format(t.Format).spec(); spec != nil && spec.reread != nil {
		return spec.reread(l, f, at)
	}
	return engine.Trajectory{}, fmt.Errorf("unknown format %q", t.Format)
}

// rereadLine reads the JSONL line br starts with.
func (l *loader) rereadLine(br *bufio.Reader) (engine.Trajectory, error) {
	var long []byte
	line, _, err := readLine(br, &long, l.maxRecord)
	if err != nil && err != io.EOF {
		return engine.Trajectory{}, err
	}
	p := lineParser{l: l}
	t, lerr := p.parse(line, blockLine{no: 1}, nil, nil)
	if lerr != nil {
		return engine.Trajectory{}, errors.New(lerr.Msg)
	}
	return t, nil
}

// rereadElement reads the JSON array element br starts with.
func (l *loader) rereadElement(br *bufio.Reader) (engine.Trajectory, error) {
	var raw json.RawMessage
	if err := json.NewDecoder(jsonscan.NewRewriter(br, 0)).Decode(&raw); err != nil {
		return engine.Trajectory{}, fmt.Errorf("no JSON value there: %v", err)
	}
	obj, lerr := objectOrError(raw, true)
	if lerr != nil {
		return engine.Trajectory{}, errors.New(lerr.Msg)
	}
	t := l.newTrajectory(1, 0)
	if err := obj.trajectory(&t); err != nil {
		return engine.Trajectory{}, err
	}
	return t, nil
}

// rereadRow reads the CSV record br starts with, by the header of f.
func (l *loader) rereadRow(f *os.File, br *bufio.Reader) (engine.Trajectory, error) {
	in, err := openInput(io.NewSectionReader(f, 0, 1<<62))
	if err != nil {
		return engine.Trajectory{}, err
	}
	hr := csv.NewReader(in.r)
	header, err := hr.Read()
	if err != nil {
		return engine.Trajectory{}, fmt.Errorf("header: %v", err)
	}
	layout, err := l.csvLayout(header, hr)
	if err != nil {
		return engine.Trajectory{}, err
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = len(header)
	row, err := cr.Read()
	if err != nil {
		return engine.Trajectory{}, err
	}
	t, lerr := l.csvTrajectory(layout, row, cr, 0)
	if lerr != nil {
		return engine.Trajectory{}, errors.New(lerr.Msg)
	}
	return *t, nil
}
