package loaders

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// Reread reads t's record again from its file, at t.Offset, and returns the
// trajectory it holds, Response and Metadata included: what a caller that
// dropped them (scoring.Trajectory.DropBody) shows on demand. It costs a
// seek and the reading of one record (and of the header, for CSV).
//
// fields must be the record fields t was loaded with (Options.Fields, nil
// for none): the record read again gets its id, batch and group as the
// load gave them (an id by position, which the record cannot tell, is
// t's), and only then is compared with t. They are a parameter, not an
// option, so that no caller can compare a record read without them with
// one loaded with them: its group and batch would differ, and the record
// would be taken for changed. fields is used on the calling goroutine
// only (scoring.RecordFields.Clone).
//
// The record must still be t's: the same id, batch, group, step_count and
// done, else the error is "PATH:LINE: trajectory "ID" changed since it was
// loaded: why" (Changed: placed as t.Where() places t). A trajectory without Format (read from standard input, a
// gzip or Parquet file, or made in code) cannot be read again. The file is
// only opened for reading.
func Reread(t *scoring.Trajectory, fields *scoring.RecordFields) (scoring.Trajectory, error) {
	r := NewRereader(fields)
	defer r.Close()
	return r.Reread(t)
}

// A Rereader reads trajectories again one after another, as Reread does,
// with the same record fields, keeping the last file open and one buffer:
// reading many (the first of each group of a batch) opens a file when the
// trajectory's file changes, not for each, and allocates one buffer. It
// is for one goroutine; Close releases the file.
type Rereader struct {
	fields *scoring.RecordFields
	f      *os.File
	br     *bufio.Reader
	// base is the file offset br was last reset at, and read counts the
	// bytes br has read from the file since: the next byte br gives is
	// at base + read - br.Buffered(). Records read in file order (a
	// batch's lean trajectories) are then skipped to in the buffer, not
	// read into it again.
	base int64
	read countingReader
}

// NewRereader returns a Rereader with the record fields the trajectories
// were loaded with (Reread), used on the calling goroutine only.
func NewRereader(fields *scoring.RecordFields) *Rereader {
	return &Rereader{fields: fields}
}

// Reread is Reread with r's record fields, file and buffer.
func (r *Rereader) Reread(t *scoring.Trajectory) (scoring.Trajectory, error) {
	if t.Format == "" {
		return scoring.Trajectory{}, fmt.Errorf("%s: cannot be read again (standard input, gzip and Parquet files are read once)", t.Where())
	}
	if r.f == nil || r.f.Name() != t.Source {
		r.Close()
		f, err := os.Open(t.Source)
		if err != nil {
			return scoring.Trajectory{}, fmt.Errorf("%s: cannot read it again: %w", t.Where(), err)
		}
		r.f, r.br = f, nil
	}
	if r.br != nil && r.ahead(t.Offset) {
		r.br.Discard(int(t.Offset - r.next())) // within the buffer: never fails
	} else {
		r.base, r.read = t.Offset, countingReader{r: io.NewSectionReader(r.f, t.Offset, 1<<62)}
		if r.br == nil {
			r.br = bufio.NewReaderSize(&r.read, input.BufferSize)
		} else {
			r.br.Reset(&r.read)
		}
	}
	got, err := rereadRecord(r.f, r.br, t)
	if err != nil {
		return scoring.Trajectory{}, Changed(t, err.Error())
	}
	if got.ID == "" {
		got.ID = t.ID // the default: the position it was loaded at
	}
	if r.fields != nil {
		if err := r.fields.Apply(&got); err != nil {
			return scoring.Trajectory{}, Changed(t, err.Error())
		}
	}
	if why := sameRecord(&got, t); why != "" {
		return scoring.Trajectory{}, Changed(t, why)
	}
	got.Line, got.Element, got.Offset = t.Line, t.Element, t.Offset
	return got, nil
}

// next returns the file offset of the next byte r.br gives.
func (r *Rereader) next() int64 { return r.base + r.read.n - int64(r.br.Buffered()) }

// ahead reports whether offset is at or after the next byte r.br gives
// and within what it holds.
func (r *Rereader) ahead(offset int64) bool {
	pos := r.next()
	return offset >= pos && offset-pos <= int64(r.br.Buffered())
}

// Close closes the file r keeps open, if any.
func (r *Rereader) Close() error {
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}

// Changed is the error of a record that is no longer t's, why saying
// what differs: "PATH:LINE: trajectory "ID" changed since it was loaded:
// why", placed as t is (t.Where(): "PATH:element N" for an element of a
// one-line JSON array). A caller that finds a difference Reread does not look for (the
// record scored again) says it with it too.
func Changed(t *scoring.Trajectory, why string) error {
	return &LineError{Path: t.Source, Line: t.Line, Element: t.Element, Msg: fmt.Sprintf("trajectory %q changed since it was loaded: %s", t.ID, why)}
}

// sameRecord returns "" when got, read again, has the fields t kept, else
// what differs.
func sameRecord(got, t *scoring.Trajectory) string {
	switch {
	case got.ID != t.ID:
		return fmt.Sprintf("the record there now has id %q", got.ID)
	case got.Batch != t.Batch, got.Group != t.Group, got.StepCount != t.StepCount, got.Done != t.Done:
		return "the record there now has other batch, group, step_count or done"
	}
	return ""
}

// rereadRecord reads the record of t's format that at, a reader of f at
// t.Offset, starts with, without its default ID. Its error says what is
// wrong there.
func rereadRecord(f *os.File, at *bufio.Reader, t *scoring.Trajectory) (scoring.Trajectory, error) {
	l := &input.Loader{Name: t.Source, FileIndex: int(t.Batch), Format: t.Format, Loaded: &input.Loaded{}, MaxRecord: math.MaxInt64} // a line read once already
	if spec := Format(t.Format).spec(); spec != nil && spec.reread != nil {
		return spec.reread(l, f, at)
	}
	return scoring.Trajectory{}, fmt.Errorf("unknown format %q", t.Format)
}
