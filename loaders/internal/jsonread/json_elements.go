package jsonread

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// The elements of a JSON array are read as JSONL's lines are, when they
// can be: the reading goroutine finds each element that is an object,
// valid JSON (jsonscan, which accepts what encoding/json accepts), with
// neither a non-finite token nor a 0xFF byte (the text the rewriter would
// change), and up to GOMAXPROCS goroutines make their trajectories. At
// the first byte that is anything else (the "]" that ends the array
// included), the rest of the input goes to the decoder of readJSONText,
// as it would have gone there from the start: the same trajectories,
// errors and places.
const (
	// maxFastElement is the longest element read so; a longer one, and
	// the rest, go to the decoder.
	maxFastElement = 1 << 20
	// jsonBlockBytes is about how much text a block of elements holds.
	jsonBlockBytes = 256 << 10
)

// jsonBlock is a run of elements and, once made (out.done closed), their
// trajectories and errors in out.
type jsonBlock struct {
	data  []byte // the elements' text, one after the other
	elems []jsonElement
	out   input.Block
}

// jsonElement is an element of a jsonBlock: its text ends at end in data;
// it starts at line, col, at off past the loader's origin; number is its
// Trajectory.Element.
type jsonElement struct {
	end, line, col, number int
	off                    int64
}

// arrayScan is the reading goroutine's place in the input: buf holds it
// from base (past the loader's origin) on; the element or "[" last read
// ends at buf[p], where the decoder takes over when it must (prefix is
// what stands for the text before p there); the line being scanned
// starts at buf[lineStart] (before buf when negative).
type arrayScan struct {
	br              *bufio.Reader
	buf             []byte
	base            int64
	i, p, lineStart int
	line            int
	pLine, pCol     int
	// The element last found starts at buf[elemStart], at elemLine,
	// elemCol; it is element elements of the array, and elemNumber is
	// its Trajectory.Element.
	elemStart, elemLine, elemCol int
	elements, elemNumber         int
	prefix                       string
	err                          error // the input's end (io.EOF) or read error
}

// readJSONElements reads the JSON array in br, whose text starts at line
// line, lead bytes into it.
func readJSONElements(l *input.Loader, br *bufio.Reader, line, lead int) error {
	s := &arrayScan{br: br, buf: make([]byte, 0, input.BufferSize), line: line, lineStart: -lead, pLine: line, pCol: lead + 1}
	nw := runtime.GOMAXPROCS(0)
	work, stop := input.StartWorkers(nw, func() func(*jsonBlock) {
		p := lineParser{l: l}
		return func(b *jsonBlock) {
			p.parseElements(b)
			close(b.out.Done)
		}
	})
	defer stop()
	// A block taken is filled again: its arrays, made once, are not
	// grown again block after block (their trajectories are copied out).
	var pending, free []*jsonBlock
	next := func() *jsonBlock {
		if n := len(free); n > 0 {
			b := free[n-1]
			free = free[:n-1]
			b.data, b.elems = b.data[:0], b.elems[:0]
			return b
		}
		return &jsonBlock{data: make([]byte, 0, jsonBlockBytes+jsonBlockBytes/8)}
	}
	take := func() error {
		b := pending[0]
		err := takeJSONBlock(l, &pending)
		free = append(free, b)
		return err
	}
	b := next()
	send := func() {
		b.out.Raw = len(b.data)
		b.out.Done = make(chan struct{})
		work <- b
		pending = append(pending, b)
		b = next()
	}
	for {
		if !s.next(l.MaxRecord) {
			break
		}
		b.data = append(b.data, s.buf[s.elemStart:s.p]...)
		b.elems = append(b.elems, jsonElement{end: len(b.data), line: s.elemLine, col: s.elemCol, number: s.elemNumber, off: s.base + int64(s.elemStart)})
		if len(b.data) >= jsonBlockBytes {
			send()
			for len(pending) > nw+1 {
				if err := take(); err != nil {
					return err
				}
			}
		}
	}
	if len(b.elems) > 0 {
		send()
	}
	for len(pending) > 0 {
		if err := take(); err != nil {
			return err
		}
	}
	// The decoder reads the rest, from p, as if it had read the text
	// before it.
	var rest io.Reader = bytes.NewReader(s.buf[s.p:])
	switch s.err {
	case nil:
		rest = io.MultiReader(rest, br)
	case io.EOF:
	default:
		rest = io.MultiReader(rest, errorReader{s.err})
	}
	l.Origin += s.base + int64(s.p) - int64(len(s.prefix))
	return readJSONText(l, rest, s.pLine, s.pCol-1-len(s.prefix), s.prefix, s.elements)
}

type errorReader struct{ err error }

func (r errorReader) Read([]byte) (int, error) { return 0, r.err }

// takeJSONBlock takes the first of pending.
func takeJSONBlock(l *input.Loader, pending *[]*jsonBlock) error {
	b := (*pending)[0]
	*pending = (*pending)[1:]
	return l.TakeBlock(&b.out)
}

// next finds the next element, which then spans buf[i:p] and starts at
// elemLine, elemCol; false where the decoder must take over (at p).
func (s *arrayScan) next(maxRecord int64) bool {
	s.i = s.p
	if !s.skipSpace() {
		return false
	}
	switch s.prefix {
	case "":
		if s.buf[s.i] != '[' {
			return false
		}
		s.i++
		s.mark("[")
		return s.next(maxRecord)
	case "[0":
		if s.buf[s.i] != ',' {
			return false
		}
		s.i++
		if !s.skipSpace() {
			return false
		}
	}
	if s.buf[s.i] != '{' || maxRecord < 4*maxFastElement {
		return false
	}
	for {
		end, ok := jsonscan.ValidValue(s.buf, s.i, 0)
		if ok {
			e := s.buf[s.i:end]
			if bytes.IndexByte(e, 0xFF) >= 0 {
				return false
			}
			s.elemLine, s.elemCol = s.line, s.i-s.lineStart+1
			s.elements++
			s.elemNumber = elementNumber(s.elements, s.elemLine, s.pLine)
			if n := bytes.Count(e, []byte{'\n'}); n > 0 {
				s.line += n
				s.lineStart = s.i + bytes.LastIndexByte(e, '\n') + 1
			}
			s.elemStart, s.i = s.i, end
			s.mark("[0")
			return true
		}
		if s.err != nil || s.i-s.p > maxFastElement || len(s.buf)-s.i > maxFastElement || !s.fill() {
			return false
		}
	}
}

// elementNumber is the Trajectory.Element of element number n of an
// array, which starts on line and follows a "[" or an element that ends
// on prevLine: n when they share the line, which then names neither.
func elementNumber(n, line, prevLine int) int {
	if line == prevLine {
		return n
	}
	return 0
}

// mark records that the text before i is read: p, and where it is.
func (s *arrayScan) mark(prefix string) {
	s.p, s.prefix = s.i, prefix
	s.pLine, s.pCol = s.line, s.i-s.lineStart+1
}

// skipSpace passes JSON white space from i, and reports whether a byte
// follows.
func (s *arrayScan) skipSpace() bool {
	for {
		for s.i < len(s.buf) {
			switch s.buf[s.i] {
			case '\n':
				s.line++
				s.lineStart = s.i + 1
			case ' ', '\t', '\r':
			default:
				return true
			}
			s.i++
		}
		if s.i-s.p > maxFastElement || !s.fill() {
			return false
		}
	}
}

// fill reads more of the input into buf, first dropping what is before
// p; false at the input's end or error.
func (s *arrayScan) fill() bool {
	if s.err != nil {
		return false
	}
	if s.p > 0 {
		n := copy(s.buf, s.buf[s.p:])
		s.buf = s.buf[:n]
		s.i -= s.p
		s.lineStart -= s.p
		s.base += int64(s.p)
		s.p = 0
	}
	if len(s.buf) == cap(s.buf) {
		s.buf = append(s.buf, make([]byte, len(s.buf))...)[:len(s.buf)]
	}
	n, err := s.br.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	s.err = err
	return n > 0 || err == nil
}

// parseElements makes the trajectories of b's elements into b.out as
// JSONL's lines are made (parse: the scorer's keys picked when it picks
// them); an element it rejects is rejected with the error
// jsonReader.element gives it.
func (p *lineParser) parseElements(b *jsonBlock) {
	l, out := p.l, &b.out
	out.Trajectories, out.Errs = out.Trajectories[:0], out.Errs[:0]
	pick := l.Pick.Load()
	out.Picked = nil
	if pick != nil {
		out.Picked = l.Picks.Take(len(b.elems) * len(pick.Keys))
	}
	start := 0
	for k, e := range b.elems {
		raw := b.data[start:e.end]
		start = e.end
		var picked []scoring.PickedValue
		if pick != nil {
			n := len(pick.Keys)
			picked = out.Picked[k*n : (k+1)*n : (k+1)*n]
		}
		t, lerr := p.parse(raw, input.BlockLine{No: e.line, Off: l.Origin + e.off}, pick, picked)
		if lerr != nil {
			out.Errs = append(out.Errs, input.BlockError{At: len(out.Trajectories), Err: rejectElement(l, e, raw, lerr, &p.t).WithText(raw)})
			continue
		}
		t.Element = e.number
		out.Trajectories = append(out.Trajectories, t)
	}
}

// rejectElement returns the error jsonReader.element gives the element e,
// of text raw, which parse rejected with parsed; t is scratch space.
func rejectElement(l *input.Loader, e jsonElement, raw []byte, parsed *input.LineError, t *scoring.Trajectory) *input.LineError {
	obj, lerr := objectOrError(raw, true)
	if lerr != nil {
		return elementError(l, e, raw, max(lerr.Col-1, 0), lerr.Msg)
	}
	*t = l.Trajectory(e.line, e.off, map[string]any{})
	if err := obj.trajectory(t); err != nil {
		off, _ := offsetIn(raw, badValue(obj)) // 0, the element, when unknown
		return elementError(l, e, raw, off, err.Error())
	}
	// parse and the decoder's reading disagree: the element is still
	// rejected, with parse's reason, rather than read one way or the other.
	return elementError(l, e, raw, 0, parsed.Msg)
}

// elementError is the error msg about the byte off of the element e, of
// text raw.
func elementError(l *input.Loader, e jsonElement, raw []byte, off int, msg string) *input.LineError {
	line, col := e.line, e.col+off
	if nl := bytes.LastIndexByte(raw[:off], '\n'); nl >= 0 {
		line += strings.Count(string(raw[:off]), "\n")
		col = off - nl
	}
	return &input.LineError{Path: l.Name, Line: line, Col: col, Msg: msg}
}
