package loaders

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/rewardlens/rewardlens/engine"
)

// jsonlBlock is a run of lines of a JSONL input and, once parsed, what they
// hold.
type jsonlBlock struct {
	// data holds the text of the block's lines that are not blank, without
	// their line ends; lines[k] ends line k in data.
	data  []byte
	lines []blockLine
	// raw counts the bytes of input the block covers, line ends and blank
	// lines included.
	raw int
	// advance is how many bytes of a Parquet file the block ends, for the
	// progress (readParquetRows).
	advance int64
	// done is closed once the lines are parsed into ts and errs.
	done chan struct{}
	ts   []engine.Trajectory
	// errs are the rejected lines, in order; each comes before ts[at].
	errs []blockError
	// picked holds the values picked from the lines (loader.pick), if any.
	picked []engine.PickedValue
	// owned reports that data is the block's one line, longer than the
	// read buffer: its trajectory's response is a slice of it, not a
	// copy (a record near the 256 MiB bound held three times over), and
	// the block drops it once taken.
	owned bool
}

type blockLine struct {
	end, no int   // end offset in data, 1-based line number
	off     int64 // where the line starts in the input
}

type blockError struct {
	at  int
	err *LineError
}

// takeBlock waits for b to be parsed and adds its trajectories and its
// rejected lines to the result, in input order; it stops at the first
// error unless skipping.
func (l *loader) takeBlock(b *jsonlBlock) error {
	<-b.done
	next := 0
	for _, e := range b.errs {
		if err := l.addParsed(b.ts[next:e.at]); err != nil {
			return err
		}
		next = e.at
		if err := l.reject(e.err); err != nil {
			return err
		}
	}
	if err := l.addParsed(b.ts[next:]); err != nil {
		return err
	}
	if b.picked != nil && l.picks != nil {
		l.taken = append(l.taken, b.picked)
	}
	l.reserve(b)
	return l.flush(false)
}

// addParsed adds trajectories parsed without their default ID: an empty ID
// becomes the position among the trajectories loaded. With record fields, a
// trajectory they fail on is rejected.
func (l *loader) addParsed(ts []engine.Trajectory) error {
	if l.fields == nil {
		for i := range ts {
			if ts[i].ID == "" {
				ts[i].ID = strconv.Itoa(l.n + i)
			}
		}
	} else {
		kept := ts[:0]
		for i := range ts {
			defaulted := ts[i].ID == ""
			if defaulted {
				ts[i].ID = strconv.Itoa(l.n + i)
			}
			if err := l.derive(&ts[i], defaulted); err != nil {
				if err := l.reject(err); err != nil {
					return err
				}
				continue
			}
			kept = append(kept, ts[i])
		}
		ts = kept
	}
	if l.n == 0 && len(ts) > 0 {
		l.first(&ts[0])
	}
	l.n += len(ts)
	l.res.Trajectories = append(l.res.Trajectories, ts...)
	return nil
}

// reserve makes room for the trajectories to come after the block b, so
// that the slice is not copied over and over as it grows: for as many as
// an input whose size is known seems to hold, judging by its first block,
// or, when streaming, for a chunk and two blocks like b (a chunk is handed
// over once it holds streamChunk trajectories).
func (l *loader) reserve(b *jsonlBlock) {
	ts := l.res.Trajectories
	if len(ts) == 0 || cap(ts) > len(ts)+len(b.ts) {
		return
	}
	var want int
	switch {
	case l.each != nil:
		want = streamChunk + 2*len(b.ts)
	case l.sizeHint > 0:
		// One long line among the first skews the estimate: it is at most
		// maxReserveGrowth times what was read (the slice grows past it).
		perLine := float64(b.raw) / float64(len(b.ts)+len(b.errs))
		want = min(int(float64(l.sizeHint)/perLine*1.05)+64, len(ts)*maxReserveGrowth)
	}
	if l.rowLimit > 0 {
		want = min(want, l.rowLimit)
	}
	if want > cap(ts) {
		l.res.Trajectories = slices.Grow(ts, want-len(ts))
	}
}

// maxReserveGrowth bounds reserve's estimate, as a multiple of the
// trajectories read.
const maxReserveGrowth = 256

// recordBound passes on what r reads until more than max bytes have been
// read since the last mark, then fails with errRecordTooLong: a JSON array
// element or a CSV row longer than Options.MaxRecordBytes ends as it is
// read, never held whole. What the readers above had buffered before the
// mark is not counted, so a record may pass max by their buffers, never
// by more.
type recordBound struct {
	r               io.Reader
	read, from, max int64
}

// mark starts a record.
func (b *recordBound) mark() { b.from = b.read }

func (b *recordBound) Read(p []byte) (int, error) {
	if b.read-b.from > b.max {
		return 0, errRecordTooLong
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}

// errRecordTooLong is readLine's error for a line past its bound; it wraps
// the read's own error (io.EOF at the end of the input, or nil).
var errRecordTooLong = errors.New("record too long")

// recordTooLong is a JSONL line past Options.MaxRecordBytes, at line;
// next is the read's error after it (io.EOF at the end), or nil.
type recordTooLong struct {
	line int
	max  int64
	next error
}

func (e *recordTooLong) Error() string {
	return "record longer than " + byteSize(e.max)
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
