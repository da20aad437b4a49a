package jsonscan

import (
	"bufio"
	"bytes"
	"math"
)

// Python's json.dumps writes the bare tokens NaN, Infinity and -Infinity for
// non-finite floats, and encoding/json rejects them. So the text is
// rewritten before decoding: a rewriter replaces each such token standing
// where a value may stand, outside strings, with a marker, and the field
// decoders read a marker back as its non-finite value.
//
// A marker is a JSON string holding the byte 0xFF, which never occurs in
// UTF-8, and one more byte naming the token. To make a marker unambiguous,
// the rewriter also turns every 0xFF inside an input string into the escape
// \ufffd, which is what encoding/json decodes a lone 0xFF to anyway: in
// rewritten text, a string holding 0xFF can only be a marker.
var NonFinite = [...]struct {
	// Token is the token as Python writes it, Marker the string that
	// stands for it in rewritten text, and Value its value.
	Token, Marker string
	Value         float64
}{
	{"NaN", "\"\xffN\"", math.NaN()},
	{"Infinity", "\"\xffI\"", math.Inf(1)},
	{"-Infinity", "\"\xff-\"", math.Inf(-1)},
}

// markerByte is the byte that only markers contain in rewritten text.
const markerByte = 0xFF

// escapedMarkerByte replaces markerByte inside input strings.
const escapedMarkerByte = `\ufffd`

// ValidRewritten is Valid of b, the output of a Rewriter, whose 0xFF
// bytes are its markers' (the input's own it escapes): a marker is no
// UTF-8, which Valid requires of strings.
func ValidRewritten(b []byte) bool {
	if bytes.IndexByte(b, markerByte) < 0 {
		return Valid(b)
	}
	return Valid(bytes.ReplaceAll(b, []byte{markerByte}, []byte{'N'}))
}

// MarkerIndex returns the index in NonFinite of the marker raw is, or -1.
func MarkerIndex(raw []byte) int {
	for i, nf := range NonFinite {
		if string(raw) == nf.Marker {
			return i
		}
	}
	return -1
}

// RestoreTokens returns raw, a JSON value of rewritten text, with its
// markers turned back into the tokens they replaced.
func RestoreTokens(raw []byte) []byte {
	if bytes.IndexByte(raw, markerByte) < 0 {
		return raw
	}
	for _, nf := range NonFinite {
		raw = bytes.ReplaceAll(raw, []byte(nf.Marker), []byte(nf.Token))
	}
	return raw
}

// Rewriter is an io.Reader of JSON text with the non-finite tokens replaced
// by markers. It keeps what Locate needs to map offsets in its output back
// to lines and columns of its input.
type Rewriter struct {
	src     *bufio.Reader
	err     error  // the error src returned, given after pending
	pending []byte // output not read yet
	written int64  // bytes of output produced
	// rewrote reports whether anything was replaced.
	rewrote bool
	lex     lexer
	loc     locator
	// spaceSince reports that only white space was written since the
	// last newline mark, which the next newline then joins.
	spaceSince bool
	// strays holds the output offsets, in order, of the escapes that
	// replaced a 0xFF of an input string: text that is not UTF-8 (Stray).
	strays []int64
}

// NewRewriter returns a Rewriter of src; lead is the number of bytes of line
// 1 before src starts (a byte order mark), for columns.
func NewRewriter(src *bufio.Reader, lead int) *Rewriter {
	return &Rewriter{src: src, loc: locator{line: 1, shift: -int64(lead)}}
}

// StartLine says that src starts at line n of the input (1 unless set):
// the caller passed the lines before it.
func (r *Rewriter) StartLine(n int) { r.loc.line = n }

// Read implements io.Reader.
func (r *Rewriter) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.pending) > 0 {
			c := copy(p[n:], r.pending)
			r.pending = r.pending[c:]
			n += c
			r.written += int64(c)
			continue
		}
		if r.err != nil {
			break
		}
		if c := r.copyStringRun(p[n:]); c > 0 {
			n += c
			continue
		}
		var b byte
		b, r.err = r.src.ReadByte()
		if r.err != nil {
			break
		}
		if out := r.replace(b); out != "" {
			r.pending = append(r.pending[:0], out...)
			r.spaceSince = false
			continue
		}
		switch b {
		case '\n':
			r.newline()
		case ' ', '\t', '\r':
		default:
			r.spaceSince = false
		}
		p[n] = b
		n++
		r.written++
	}
	if n > 0 {
		return n, nil
	}
	return 0, r.err
}

// copyStringRun copies to p what src has buffered of the content of the
// current string up to the next byte that matters (a quote, a backslash,
// 0xFF or a newline), and returns its length: the bytes of long strings
// need not go through the lexer one by one.
func (r *Rewriter) copyStringRun(p []byte) int {
	if !r.lex.inString || r.lex.escaped {
		return 0
	}
	buf, _ := r.src.Peek(min(r.src.Buffered(), len(p)))
	n := 0
	for n < len(buf) && buf[n] != '"' && buf[n] != '\\' && buf[n] != markerByte && buf[n] != '\n' {
		n++
	}
	copy(p, buf[:n])
	r.src.Discard(n)
	r.written += int64(n)
	return n
}

// replace feeds b, just read, to the lexer and returns what replaces it, or
// "" to keep it. A token is replaced only where a value may stand, so that,
// for instance, an unquoted key NaN stays the syntax error it is.
func (r *Rewriter) replace(b byte) string {
	switch r.lex.next(b) {
	case inputStringByte:
		if b == markerByte {
			r.strays = append(r.strays, r.written)
			r.replaced(escapedMarkerByte, 1)
			return escapedMarkerByte
		}
	case valueByte:
		for _, nf := range NonFinite {
			if nf.Token[0] == b && r.follows(nf.Token[1:]) {
				r.replaced(nf.Marker, len(nf.Token))
				return nf.Marker
			}
		}
	}
	return ""
}

// follows reports whether the input continues with rest, and if so consumes
// it.
func (r *Rewriter) follows(rest string) bool {
	got, _ := r.src.Peek(len(rest))
	if string(got) != rest {
		return false
	}
	r.src.Discard(len(rest))
	return true
}

// replaced records that the next output, out, replaces n input bytes.
func (r *Rewriter) replaced(out string, n int) {
	r.rewrote = true
	r.loc.marks = append(r.loc.marks, mark{end: r.written + int64(len(out)), delta: int64(len(out) - n)})
}

// Locate returns the line and 1-based column in the input of the output
// byte at offset off. Offsets must be asked in increasing order.
func (r *Rewriter) Locate(off int64) (line, col int) {
	return r.loc.locate(off)
}

// Stray returns the output offset of the first escape in [from, to) that
// replaced a 0xFF of an input string, and whether there is one: the
// input is not UTF-8 there, which the escape hides from a check of the
// output. Offsets must be asked in increasing order; those before from
// are forgotten.
func (r *Rewriter) Stray(from, to int64) (int64, bool) {
	for len(r.strays) > 0 && r.strays[0] < from {
		r.strays = r.strays[1:]
	}
	if len(r.strays) > 0 && r.strays[0] < to {
		return r.strays[0], true
	}
	return 0, false
}

// Rewrote reports whether the Rewriter replaced a token so far.
func (r *Rewriter) Rewrote() bool { return r.rewrote }

// Written returns how many bytes the Rewriter produced so far.
func (r *Rewriter) Written() int64 { return r.written }

// InputOffset returns the offset in the input of the output byte at
// offset off, asked in increasing order as for Locate.
func (r *Rewriter) InputOffset(off int64) int64 {
	r.loc.locate(off)
	return off - r.loc.grown
}

// byteClass is what the lexer makes of a byte outside escapes.
type byteClass int

const (
	otherByte       byteClass = iota
	inputStringByte           // a byte of a string's content, not escaped
	valueByte                 // may start a value (outside strings, not in a key position)
)

// lexer follows the structure of JSON text byte by byte, just enough to know
// whether a byte is inside a string and whether a value may start at it. On
// invalid text it may be wrong, which does no harm: the decoder rejects the
// text anyway.
type lexer struct {
	inString, escaped bool
	// objects has one entry per open container, innermost last: true for an
	// object, false for an array.
	objects []bool
	// keyNext is set where an object key, not a value, comes next.
	keyNext bool
}

// next classifies b and moves past it.
func (l *lexer) next(b byte) byteClass {
	if l.inString {
		switch {
		case l.escaped:
			l.escaped = false
		case b == '\\':
			l.escaped = true
		case b == '"':
			l.inString = false
		default:
			return inputStringByte
		}
		return otherByte
	}
	switch b {
	case '"':
		l.inString = true
	case '{', '[':
		l.objects = append(l.objects, b == '{')
		l.keyNext = b == '{'
	case '}', ']':
		if len(l.objects) > 0 {
			l.objects = l.objects[:len(l.objects)-1]
		}
		l.keyNext = false
	case ':':
		l.keyNext = false
	case ',':
		l.keyNext = len(l.objects) > 0 && l.objects[len(l.objects)-1]
	default:
		if !l.keyNext {
			return valueByte
		}
	}
	return otherByte
}

// newline marks the newline at the end of the output. Newlines with only
// white space between them make one mark, of as many lines: a decoder
// buffers a run of white space whole before the value after it, and a
// mark per newline held 24 bytes per byte of a run of blank lines. No
// offset inside such a run is ever located (values and errors are not
// white space).
func (r *Rewriter) newline() {
	if k := len(r.loc.marks) - 1; k >= 0 && r.spaceSince && r.loc.marks[k].newline {
		r.loc.marks[k].end = r.written + 1
		r.loc.marks[k].lines++
		return
	}
	r.loc.marks = append(r.loc.marks, mark{end: r.written + 1, newline: true, lines: 1})
	r.spaceSince = true
}

// locator maps offsets in rewritten text back to lines and columns of the
// input, from the newlines and replacements the rewriter recorded.
type locator struct {
	// marks are the newlines and replacements not yet passed by locate, in
	// order; they only span the text a decoder has buffered.
	marks []mark
	// line is the line at lineStart, an offset in the output.
	line      int
	lineStart int64
	// shift is how many bytes the output of the passed replacements on the
	// line has more than the input; grown is the same over all lines.
	shift, grown int64
}

// mark is a newline or a replacement in the output.
type mark struct {
	end     int64 // offset just past it (the last newline of a run)
	delta   int64 // for a replacement: output length minus input length
	newline bool
	lines   int // for newlines: how many, with only white space between
}

// locate returns the line and 1-based column of the output offset off, not
// less than the last one asked.
func (l *locator) locate(off int64) (line, col int) {
	for len(l.marks) > 0 && l.marks[0].end <= off {
		m := l.marks[0]
		l.marks = l.marks[1:]
		if m.newline {
			l.line += m.lines
			l.lineStart = m.end
			l.shift = 0
		} else {
			l.shift += m.delta
			l.grown += m.delta
		}
	}
	return l.line, int(max(off-l.lineStart-l.shift, 0)) + 1
}
