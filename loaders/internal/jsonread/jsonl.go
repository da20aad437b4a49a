// Package jsonread reads the JSON formats: JSONL (a trajectory object a
// line, with its fast path in plain.go), a JSON array of objects, and a W&B
// table (wandb.go); and decodes one JSON object into a trajectory
// (object.go), which the CSV reader's metadata cells use too.
package jsonread

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// BlockBytes is about how much text a JSONL block holds.
const BlockBytes = 256 << 10

// ReadJSONL reads one JSON object per line. Blank lines are skipped; a line
// may be of any length and end in "\n" or "\r\n".
//
// The reading goroutine cuts the input into blocks of lines; up to
// GOMAXPROCS goroutines parse the blocks, and the reading goroutine takes
// their trajectories and errors block by block in input order. So the
// result, the first error and the skipped lines are those of a reading line
// by line, whatever the schedule.
func ReadJSONL(l *input.Loader, br *bufio.Reader) error {
	if err := l.CheckText(br); err != nil {
		return err
	}
	if l.Each != nil && cap(l.Loaded.Trajectories) == 0 {
		// A small file gets a small chunk (reserve grows it if the lines
		// are shorter than 16 bytes).
		n := input.StreamChunk + input.StreamChunk/2
		if l.SizeHint > 0 {
			n = int(min(int64(n), l.SizeHint/16+1))
		}
		l.Loaded.Trajectories = make([]scoring.Trajectory, 0, n)
	}
	// Peek's reading (a row limit of 1) stops at the first line that is
	// not blank, parsed here: no block read ahead, no goroutines.
	nw, target := runtime.GOMAXPROCS(0), BlockBytes
	if l.RowLimit == 1 {
		nw, target = 0, 1
	}
	work, stop := input.StartWorkers(nw, func() func(*input.Block) {
		p := lineParser{l: l}
		return func(b *input.Block) {
			p.parseBlock(b)
			close(b.Done)
		}
	})
	defer stop()

	var (
		pending []*input.Block // sent to the workers, in input order
		free    []*input.Block
		long    []byte // reused for lines longer than the buffer
		at      = textPos{line: 1, off: l.Origin}
	)
	defer func() {
		for _, b := range free {
			keepBlock(b)
		}
	}()
	take := func() error {
		b := pending[0]
		pending = pending[1:]
		err := l.TakeBlock(b)
		if b.Owned {
			b.Data, b.Owned = nil, false
		}
		free = append(free, b)
		return err
	}
	for {
		var b *input.Block
		if n := len(free); n > 0 {
			b, free = free[n-1], free[:n-1]
		} else if kept, ok := keptBlocks.Get().(*input.Block); ok {
			b = kept
		} else {
			// Room for BlockBytes and a last line, so that filling the
			// block seldom outgrows it.
			b = &input.Block{Data: make([]byte, 0, BlockBytes+BlockBytes/8)}
		}
		readErr := fillBlock(b, br, &long, &at, target, l.MaxRecord, l.SkipInvalid)
		b.Done = make(chan struct{})
		if nw == 0 {
			here := lineParser{l: l}
			here.parseBlock(b)
			close(b.Done)
		} else {
			work <- b
		}
		pending = append(pending, b)
		var tooLong *input.RecordTooLong
		if errors.As(readErr, &tooLong) {
			// Rejected in input order, once the lines before it are taken.
			for len(pending) > 0 {
				if err := take(); err != nil {
					return err
				}
			}
			if err := l.Reject(&input.LineError{Path: l.Name, Line: tooLong.Line, Msg: tooLong.Error()}); err != nil {
				return err
			}
			readErr = tooLong.Next
		}
		for len(pending) > nw+1 || ((readErr != nil || nw == 0) && len(pending) > 0) {
			if err := take(); err != nil {
				return err
			}
		}
		if readErr == io.EOF || l.Full() {
			return nil
		}
		if readErr != nil {
			return &input.ReadError{Path: l.Name, Line: at.line, Err: readErr}
		}
	}
}

// keptBlocks holds the blocks of the readings done, for the next: a
// followed file's growth is read in parts, a reading each, which would
// otherwise make its blocks anew (their text, trajectories and lines,
// in fresh memory) part after part.
var keptBlocks sync.Pool

// keepBlock puts b, taken, in keptBlocks, without the trajectories and
// errors of its lines, which it must not keep alive, nor its picked
// values, which are the loader's.
func keepBlock(b *input.Block) {
	clear(b.Trajectories[:cap(b.Trajectories)])
	clear(b.Errs[:cap(b.Errs)])
	b.Trajectories, b.Errs, b.Picked, b.Done = b.Trajectories[:0], b.Errs[:0], nil, nil
	keptBlocks.Put(b)
}

// textPos is a place in the input: a 1-based line and where it starts.
type textPos struct {
	line int
	off  int64
}

// fillBlock reads lines from br into b until it holds about target bytes of
// text or the input ends. *at is the place of the next line to read; long
// is a buffer for readLine. It returns io.EOF at the end of the input and
// any other read error as it comes, *at then being the line it stopped.
func fillBlock(b *input.Block, br *bufio.Reader, long *[]byte, at *textPos, target int, max int64, skip bool) error {
	b.Data, b.Lines, b.Raw = b.Data[:0], b.Lines[:0], 0
	for len(b.Data) < target {
		blank, blankBytes := skipBlankLines(br)
		b.Raw += int(blankBytes)
		at.line += blank
		at.off += blankBytes
		if len(b.Data) > 0 && longLineAhead(br) {
			return nil // the long line gets a block of its own
		}
		line, n, err := readLine(br, long, max)
		if errors.Is(err, input.ErrRecordTooLong) {
			tooLong := &input.RecordTooLong{Line: at.line, Max: max}
			if errors.Is(err, errLineGoesOn) {
				if !skip {
					return tooLong // stop now: the rest is never read
				}
				var rest int
				rest, err = skipLine(br)
				n += rest
			}
			at.line++
			at.off += int64(n)
			switch {
			case errors.Is(err, io.EOF):
				tooLong.Next = io.EOF
			case err != nil && !errors.Is(err, input.ErrRecordTooLong):
				tooLong.Next = err // a read error after it
			}
			return tooLong
		}
		if err != nil && err != io.EOF {
			return err
		}
		b.Raw += len(line) + 1
		own := len(b.Data) == 0 && len(line) > 0 && len(*long) > 0 && &line[0] == &(*long)[0]
		switch {
		case own:
			// A line longer than br's buffer, built in long: the block
			// takes long's array rather than a copy, and the trajectory
			// its response (input.Block.Owned).
			b.Data, *long = line, b.Data[:0]
			b.Owned = true
			b.Lines = append(b.Lines, input.BlockLine{End: len(b.Data), No: at.line, Off: at.off})
		case jsonscan.SkipSpace(line) < len(line):
			b.Data = append(b.Data, line...)
			b.Lines = append(b.Lines, input.BlockLine{End: len(b.Data), No: at.line, Off: at.off})
		}
		if err == io.EOF {
			return io.EOF
		}
		at.line++
		at.off += int64(n)
		if own {
			return nil
		}
	}
	return nil
}

// longLineAhead reports whether the next line is longer than br's buffer,
// which then holds no line end: what br holds is looked at first, and the
// buffer filled only when that holds no line end (once per buffer).
func longLineAhead(br *bufio.Reader) bool {
	buf, _ := br.Peek(br.Buffered())
	if bytes.IndexByte(buf, '\n') >= 0 {
		return false
	}
	buf, _ = br.Peek(br.Size())
	return len(buf) == br.Size() && bytes.IndexByte(buf, '\n') < 0
}

// lineParser parses lines on one goroutine.
type lineParser struct {
	l     *input.Loader
	in    interner
	spare []map[string]any // see input.MapStore
	t     scoring.Trajectory
	rec   objectRecord
	// extra holds the unknown top-level members of the line parsePlain
	// reads (plainExtras).
	extra []member
	// owned is the block's owned: its lines' text is theirs.
	owned bool
	// index finds a key of the Pick indexOf (pickIndex).
	indexOf *scoring.Pick
	index   map[string]int
}

// parseBlock parses the lines of b into b.Trajectories and b.Errs.
func (p *lineParser) parseBlock(b *input.Block) {
	if cap(b.Trajectories) < len(b.Lines) {
		b.Trajectories = slices.Grow(b.Trajectories[:0], len(b.Lines))
	}
	b.Trajectories, b.Errs = b.Trajectories[:0], b.Errs[:0]
	p.owned = b.Owned
	// The values picked from line j are b.picked[j*k:(j+1)*k]. The array
	// is the trajectories', not the block's: the block is parsed again
	// while they wait to be handed over.
	pick := p.l.Pick.Load()
	b.Picked = nil
	if pick != nil {
		b.Picked = p.l.Picks.Take(len(b.Lines) * len(pick.Keys))
	}
	start := 0
	for j, ln := range b.Lines {
		var picked []scoring.PickedValue
		if pick != nil {
			k := len(pick.Keys)
			picked = b.Picked[j*k : (j+1)*k : (j+1)*k]
		}
		text := b.Data[start:ln.End]
		t, err := p.parse(text, ln, pick, picked)
		start = ln.End
		if err != nil {
			b.Errs = append(b.Errs, input.BlockError{At: len(b.Trajectories), Err: err.WithText(text)})
			continue
		}
		b.Trajectories = append(b.Trajectories, t)
	}
}

// parse reads the trajectory on line ln, leaving its ID empty when it
// takes the default. With a pick, a plain line's values of pick's keys go
// to picked, one per key, and Metadata stays nil.
func (p *lineParser) parse(line []byte, ln input.BlockLine, pick *scoring.Pick, picked []scoring.PickedValue) (scoring.Trajectory, *input.LineError) {
	l, lineNo := p.l, ln.No
	// The fields are set through p.t: a local trajectory whose address is
	// passed on would be allocated on the heap, one per line.
	var metadata map[string]any
	if pick == nil {
		metadata = l.Maps.Next(&p.spare)
	}
	p.t = p.blank(ln, metadata)
	if pick != nil {
		p.t.Pick, p.t.Picked = pick, picked
	}
	if p.parsePlain(line, &p.t) {
		return p.t, nil
	}
	// The general path reads into a map, which the plain one may have
	// filled in part.
	if metadata == nil {
		metadata = l.Maps.Next(&p.spare)
	}
	clear(metadata)
	p.t = p.blank(ln, metadata)
	obj, lerr := decodeObjectRecord(line, &p.rec)
	if lerr != nil {
		return scoring.Trajectory{}, l.ErrorAt(lineNo, lerr.Col, lerr.Msg)
	}
	obj.in = &p.in
	if err := obj.trajectory(&p.t); err != nil {
		return scoring.Trajectory{}, l.ErrorAt(lineNo, lineValueColumn(line, obj), err.Error())
	}
	return p.t, nil
}

// blank returns the trajectory of line ln with every field at its default
// and metadata, empty, as its Metadata.
func (p *lineParser) blank(ln input.BlockLine, metadata map[string]any) scoring.Trajectory {
	l := p.l
	return scoring.Trajectory{
		Batch:    int64(l.FileIndex),
		Done:     true,
		Metadata: metadata,
		LoaderState: scoring.LoaderState{
			Source: l.Name,
			Line:   ln.No,
			Offset: ln.Off,
			Format: l.Format,
		},
	}
}

// readLine returns the next line without its "\n" or "\r\n", the number of
// bytes it took from br, and io.EOF with the last one. The line is valid
// until the next call; long is a buffer kept between calls for lines that
// do not fit br's buffer.
//
// Past ChunkedLine bytes, the rest of a long line is kept in pieces,
// joined once its length is known: growing one array held the old and the
// new at each step, and the collector let the heap reach twice that, about
// four times the line at its end; the pieces and the joined line are twice.
func readLine(br *bufio.Reader, long *[]byte, max int64) (line []byte, n int, err error) {
	line, err = br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		*long = append((*long)[:0], line...)
		inPlace := cap(*long)
		if inPlace < ChunkedLine {
			inPlace = ChunkedLine
		}
		var pieces [][]byte
		total := len(*long)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = br.ReadSlice('\n')
			total += len(line)
			if int64(total)-1 > max { // the "\n" aside
				return nil, total, tooLongError(err)
			}
			if pieces == nil && len(*long)+len(line) <= inPlace {
				*long = append(*long, line...)
				continue
			}
			if k := len(pieces) - 1; k < 0 || len(pieces[k])+len(line) > cap(pieces[k]) {
				pieces = append(pieces, make([]byte, 0, ChunkedLine))
			}
			pieces[len(pieces)-1] = append(pieces[len(pieces)-1], line...)
		}
		if pieces != nil {
			*long = slices.Grow(*long, total-len(*long))
			for _, p := range pieces {
				*long = append(*long, p...)
			}
		}
		line = *long
	}
	if int64(len(bytes.TrimSuffix(line, []byte("\n")))) > max {
		return nil, len(line), tooLongError(err)
	}
	n = len(line)
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, n, err
}

// skipBlankLines reads past the blank lines at br, as many as follow,
// and returns how many lines and bytes that was: runs of "\n" are passed
// eight bytes at a time, other blank lines (spaces, tabs, "\r\n") a line
// at a time, found with bytes.IndexByte. Only whole lines are passed: a
// blank last line without "\n", or one longer than br's buffer, is left
// to readLine.
func skipBlankLines(br *bufio.Reader) (lines int, n int64) {
	for {
		if br.Buffered() == 0 {
			if _, err := br.Peek(1); err != nil {
				return lines, n
			}
		}
		buf, _ := br.Peek(br.Buffered())
		i := 0
		for i < len(buf) {
			if k := newlineRun(buf[i:]); k > 0 {
				lines += k
				i += k
				continue
			}
			end := bytes.IndexByte(buf[i:], '\n')
			if end < 0 || jsonscan.SkipSpace(buf[i:i+end]) < end {
				break // not blank, or cut by the end of the buffer
			}
			lines++
			i += end + 1
		}
		br.Discard(i)
		n += int64(i)
		if i < len(buf) {
			return lines, n
		}
	}
}

// newlineRun returns how many "\n" b starts with.
func newlineRun(b []byte) int {
	const eightNewlines = 0x0a0a0a0a0a0a0a0a
	i := 0
	for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:]) == eightNewlines {
		i += 8
	}
	for i < len(b) && b[i] == '\n' {
		i++
	}
	return i
}

// ChunkedLine is how much of a long line readLine grows in one array;
// the rest comes in pieces of this size.
const ChunkedLine = 16 << 20

// errLineGoesOn is tooLongError's mark of a line whose end is not read yet.
var errLineGoesOn = errors.New("the line goes on")

// tooLongError returns input.ErrRecordTooLong, wrapping err unless it is nil;
// bufio.ErrBufferFull, the line not read to its end, as errLineGoesOn.
func tooLongError(err error) error {
	if err == nil {
		return input.ErrRecordTooLong
	}
	if errors.Is(err, bufio.ErrBufferFull) {
		err = errLineGoesOn
	}
	return fmt.Errorf("%w: %w", input.ErrRecordTooLong, err)
}

// skipLine reads past the rest of a line, holding none of it, and returns
// how many bytes that was, its "\n" included, and the read's error (io.EOF
// at the end of the input).
func skipLine(br *bufio.Reader) (int, error) {
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return n, err
		}
	}
}

// RereadLine reads the JSONL line br starts with.
func RereadLine(l *input.Loader, _ *os.File, br *bufio.Reader) (scoring.Trajectory, error) {
	var long []byte
	line, _, err := readLine(br, &long, l.MaxRecord)
	if err != nil && err != io.EOF {
		return scoring.Trajectory{}, err
	}
	p := lineParser{l: l}
	t, lerr := p.parse(line, input.BlockLine{No: 1}, nil, nil)
	if lerr != nil {
		return scoring.Trajectory{}, errors.New(lerr.Msg)
	}
	return t, nil
}
