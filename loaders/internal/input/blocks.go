package input

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// Block is a run of lines of a JSONL input and, once parsed, what they
// hold; the other readers that parse on several goroutines (JSON arrays,
// CSV, Parquet) hand their records over in its second half, from Done.
type Block struct {
	// Data holds the text of the block's lines that are not blank, without
	// their line ends; Lines[k] ends line k in Data.
	Data  []byte
	Lines []BlockLine
	// Raw counts the bytes of input the block covers, line ends and blank
	// lines included.
	Raw int
	// Advance is how many bytes of a Parquet file the block ends, for the
	// progress (parquetread).
	Advance int64
	// Done is closed once the lines are parsed into Trajectories and Errs.
	Done         chan struct{}
	Trajectories []scoring.Trajectory
	// Errs are the rejected lines, in order; each comes before Trajectories[At].
	Errs []BlockError
	// Picked holds the values picked from the lines (Loader.Pick), if any.
	Picked []scoring.PickedValue
	// Owned reports that Data is the block's one line, longer than the
	// read buffer: its trajectory's response is a slice of it, not a
	// copy (a record near the 256 MiB bound held three times over), and
	// the block drops it once taken.
	Owned bool
}

// BlockLine is a line of a Block.
type BlockLine struct {
	End, No int   // end offset in data, 1-based line number
	Off     int64 // where the line starts in the input
}

// BlockError is a rejected record of a Block, which comes before its
// Trajectories[At].
type BlockError struct {
	At  int
	Err *LineError
}

// TakeBlock waits for b to be parsed and adds its trajectories and its
// rejected lines to the result, in input order; it stops at the first
// error unless skipping.
func (l *Loader) TakeBlock(b *Block) error {
	<-b.Done
	next := 0
	for _, e := range b.Errs {
		if err := l.addParsed(b.Trajectories[next:e.At]); err != nil {
			return err
		}
		next = e.At
		if err := l.Reject(e.Err); err != nil {
			return err
		}
	}
	if err := l.addParsed(b.Trajectories[next:]); err != nil {
		return err
	}
	if b.Picked != nil && l.Picks != nil {
		l.Taken = append(l.Taken, b.Picked)
	}
	l.reserve(b)
	return l.Flush(false)
}

// addParsed adds trajectories parsed without their default ID: an empty ID
// becomes the position among the trajectories loaded. With record fields, a
// trajectory they fail on is rejected.
func (l *Loader) addParsed(ts []scoring.Trajectory) error {
	if l.Fields == nil {
		for i := range ts {
			if ts[i].ID == "" {
				ts[i].ID = strconv.Itoa(l.Count + i)
			}
		}
	} else {
		kept := ts[:0]
		for i := range ts {
			defaulted := ts[i].ID == ""
			if defaulted {
				ts[i].ID = strconv.Itoa(l.Count + i)
			}
			if err := l.derive(&ts[i], defaulted); err != nil {
				if err := l.Reject(err); err != nil {
					return err
				}
				continue
			}
			kept = append(kept, ts[i])
		}
		ts = kept
	}
	if l.Count == 0 && len(ts) > 0 {
		l.first(&ts[0])
	}
	l.Count += len(ts)
	l.Loaded.Trajectories = append(l.Loaded.Trajectories, ts...)
	return nil
}

// reserve makes room for the trajectories to come after the block b, so
// that the slice is not copied over and over as it grows: for as many as
// an input whose size is known seems to hold, judging by its first block,
// or, when streaming, for a chunk and two blocks like b (a chunk is handed
// over once it holds StreamChunk trajectories).
func (l *Loader) reserve(b *Block) {
	ts := l.Loaded.Trajectories
	if len(ts) == 0 || cap(ts) > len(ts)+len(b.Trajectories) {
		return
	}
	var want int
	switch {
	case l.Each != nil:
		want = StreamChunk + 2*len(b.Trajectories)
	case l.SizeHint > 0:
		// One long line among the first skews the estimate: it is at most
		// maxReserveGrowth times what was read (the slice grows past it).
		perLine := float64(b.Raw) / float64(len(b.Trajectories)+len(b.Errs))
		want = min(int(float64(l.SizeHint)/perLine*1.05)+64, len(ts)*maxReserveGrowth)
	}
	if l.RowLimit > 0 {
		want = min(want, l.RowLimit)
	}
	if want > cap(ts) {
		l.Loaded.Trajectories = slices.Grow(ts, want-len(ts))
	}
}

// maxReserveGrowth bounds reserve's estimate, as a multiple of the
// trajectories read.
const maxReserveGrowth = 256

// RecordBound passes on what r reads until more than max bytes have been
// read since the last mark, then fails with ErrRecordTooLong: a JSON array
// element or a CSV row longer than Options.MaxRecordBytes ends as it is
// read, never held whole. What the readers above had buffered before the
// mark is not counted, so a record may pass max by their buffers, never
// by more.
type RecordBound struct {
	R               io.Reader
	read, from, Max int64
}

// Mark starts a record.
func (b *RecordBound) Mark() { b.from = b.read }

func (b *RecordBound) Read(p []byte) (int, error) {
	if b.read-b.from > b.Max {
		return 0, ErrRecordTooLong
	}
	n, err := b.R.Read(p)
	b.read += int64(n)
	return n, err
}

// ErrRecordTooLong is readLine's error for a line past its bound; it wraps
// the read's own error (io.EOF at the end of the input, or nil).
var ErrRecordTooLong = errors.New("record too long")

// RecordTooLong is a JSONL line past Options.MaxRecordBytes, at line;
// next is the read's error after it (io.EOF at the end), or nil.
type RecordTooLong struct {
	Line int
	Max  int64
	Next error
}

func (e *RecordTooLong) Error() string {
	return "record longer than " + byteSize(e.Max)
}

// byteSize writes n bytes for a message: "256 MiB", "64 KiB", "100 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
