package jsonread

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// ReadJSON reads a JSON array of objects, one element at a time. An element
// that is not an object or has a bad field is rejected; a syntax error is
// fatal, since the decoder cannot resume after it.
func ReadJSON(l *input.Loader, br *bufio.Reader) error {
	if err := l.CheckText(br); err != nil {
		return err
	}
	// Blank lines before the array are passed here, eight bytes at a
	// time: the decoder would buffer them whole, and count them against
	// the first element's bound.
	blank, skipped := skipBlankLines(br)
	l.Origin += skipped
	lead := l.Lead
	if blank > 0 {
		lead = 0 // the text starts past line 1
	}
	if l.RowLimit == 0 {
		return readJSONElements(l, br, 1+blank, lead)
	}
	return readJSONText(l, br, 1+blank, lead, "", 0)
}

// readJSONText reads the JSON text of r with encoding/json's decoder. The
// text starts at line line, lead bytes into it. When prefix is not "",
// r is the rest of an array whose start the fast path read: "[" when no
// element was read, "[0" when r starts after one, the text that puts
// the decoder where it was; elements is how many elements it read.
func readJSONText(l *input.Loader, r io.Reader, line, lead int, prefix string, elements int) error {
	bound := &input.RecordBound{R: r, Max: l.MaxRecord}
	var text io.Reader = bound
	if prefix != "" {
		text = io.MultiReader(strings.NewReader(prefix), bound)
	}
	rw := jsonscan.NewRewriter(bufio.NewReaderSize(text, input.BufferSize), lead)
	rw.StartLine(line)
	j := jsonReader{l: l, rw: rw, dec: json.NewDecoder(rw), bound: bound, place: &arrayPlace{elements: elements}}
	if prefix == "" {
		if empty, err := j.start(); empty || err != nil {
			return err
		}
	} else if err := j.resume(prefix); err != nil {
		return err
	}
	for j.dec.More() {
		if err := j.element(); err != nil {
			return err
		}
	}
	return j.end()
}

// jsonReader reads the elements of a JSON array.
type jsonReader struct {
	l     *input.Loader
	rw    *jsonscan.Rewriter
	dec   *json.Decoder
	bound *input.RecordBound
	place *arrayPlace
}

// arrayPlace is how many elements of the array were read, and the line
// where the last one (or the "[") ends.
type arrayPlace struct {
	elements, endLine int
}

// ended records that the "[", or the text standing for what the fast
// path read, ends where the decoder is.
func (j jsonReader) ended() {
	j.place.endLine, _ = j.rw.Locate(j.dec.InputOffset())
}

// element reads the next element. One longer than Options.MaxRecordBytes
// ends the reading, even when skipping: the decoder cannot resume.
func (j jsonReader) element() error {
	var raw json.RawMessage
	j.bound.Mark()
	j.place.elements++
	from := j.dec.InputOffset() + j.separation()
	if err := j.dec.Decode(&raw); err != nil {
		if errors.Is(err, input.ErrRecordTooLong) {
			line, _ := j.rw.Locate(from)
			return &input.LineError{Path: j.l.Name, Line: line, Msg: (&input.RecordTooLong{Max: j.l.MaxRecord}).Error()}
		}
		return j.fail(err)
	}
	// The decoder stops right after the value, and raw holds the value
	// without the white space around it.
	start := j.dec.InputOffset() - int64(len(raw))
	line, _ := j.rw.Locate(start)
	element := elementNumber(j.place.elements, line, j.place.endLine)
	j.place.endLine = line + bytes.Count(raw, []byte{'\n'})
	if off, ok := j.rw.Stray(start, start+int64(len(raw))); ok {
		return j.l.Reject(j.errorAt(off, input.InvalidUTF8(0xFF)).WithText(raw))
	}
	obj, lerr := objectOrError(raw, true)
	if lerr != nil {
		return j.l.Reject(j.errorAt(start+int64(max(lerr.Col-1, 0)), lerr.Msg).WithText(raw))
	}
	t := &j.l.Scratch // not a local: its address would make it escape
	*t = j.l.NewTrajectory(line, j.rw.InputOffset(start))
	t.Element = element
	if err := obj.trajectory(t); err != nil {
		off, _ := offsetIn(raw, badValue(obj)) // 0, the element, when unknown
		return j.l.Reject(j.errorAt(start+int64(off), err.Error()).WithText(raw))
	}
	return j.l.Add(*t)
}

// start reads the "[" opening the array, and reports whether the input is
// empty instead (nothing but white space).
func (j jsonReader) start() (empty bool, err error) {
	// At the top level, More skips white space and tells whether a value
	// follows, which then starts the decoder's buffer.
	if j.dec.More() && j.next() != '[' {
		var first json.RawMessage
		if err := j.dec.Decode(&first); err != nil {
			return false, j.fail(err)
		}
		start := j.dec.InputOffset() - int64(len(first))
		msg := "expected a JSON array of trajectories, found " + describe(first, true)
		if IsWandbTable(first) {
			msg = "expected a JSON array of trajectories, found a W&B table: " + j.l.TableAdvice
		}
		return false, j.errorAt(start, msg)
	}
	switch _, err := j.dec.Token(); err {
	case nil:
		j.ended()
		return false, nil
	case io.EOF:
		return true, nil
	default:
		return false, j.fail(err)
	}
}

// resume reads the prefix of readJSONText.
func (j jsonReader) resume(prefix string) error {
	if _, err := j.dec.Token(); err != nil {
		return j.fail(err)
	}
	if prefix == "[0" {
		var first json.RawMessage
		if err := j.dec.Decode(&first); err != nil {
			return j.fail(err)
		}
	}
	j.ended()
	return nil
}

// separation returns how many bytes of white space and comma the decoder
// has buffered before the next element: where the element starts.
func (j jsonReader) separation() int64 {
	var n int64
	buffered := j.dec.Buffered()
	var b [1]byte
	for {
		if k, _ := buffered.Read(b[:]); k == 0 || !bytes.ContainsRune([]byte(" \t\r\n,"), rune(b[0])) {
			return n
		}
		n++
	}
}

// next returns the next byte the decoder will read, 0 if none is buffered.
func (j jsonReader) next() byte {
	var b [1]byte
	j.dec.Buffered().Read(b[:])
	return b[0]
}

// end reads the "]" closing the array and checks that nothing follows.
func (j jsonReader) end() error {
	if _, err := j.dec.Token(); err != nil {
		return j.fail(err)
	}
	if j.dec.More() {
		return j.errorAt(j.dec.InputOffset(), "invalid JSON: data after the top-level array")
	}
	if _, err := j.dec.Token(); err != io.EOF {
		return j.fail(err) // "]" or "}" where nothing may stand, or a read error
	}
	return nil
}

// fail turns an error of the decoder into the error to return.
func (j jsonReader) fail(err error) error {
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		off, bad := j.syntaxErrorOffset()
		return j.errorAt(off, "invalid JSON: "+jsonscan.ReadableSyntax(syntax.Error(), bad))
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return &CutShortError{j.errorAt(j.rw.Written(), "invalid JSON: unexpected end of input")}
	}
	line, _ := j.rw.Locate(j.rw.Written())
	return &input.ReadError{Path: j.l.Name, Line: line, Err: err}
}

// syntaxErrorOffset returns the offset of the byte the decoder's last
// syntax error is about. json.Decoder's SyntaxError.Offset counts only the
// bytes its value scanner has seen, across values, so it is no offset in
// the input; but the decoder stays where the failing value starts, and
// scanning that value again, from its buffer, with a new decoder gives the
// offset from there. When the value scans well, the error is about the
// byte where the decoder stands (a missing comma or colon). It also
// returns the buffered text from that byte on.
func (j jsonReader) syntaxErrorOffset() (int64, []byte) {
	start := j.dec.InputOffset()
	rest, _ := io.ReadAll(j.dec.Buffered()) // reading bytes cannot fail
	var raw json.RawMessage
	var syntax *json.SyntaxError
	if errors.As(json.NewDecoder(bytes.NewReader(rest)).Decode(&raw), &syntax) {
		return start + syntax.Offset - 1, jsonscan.TextFrom(rest, syntax.Offset-1)
	}
	return start, rest
}

// CutShortError is the error of a JSON array or W&B table whose text
// ends inside its top-level value, with no syntax error before that end
// (a gzip stream cut short ends it too): what a run still writing the
// file leaves. A follower reading the file again takes it for that
// rather than for an error.
type CutShortError struct{ *input.LineError }

func (e *CutShortError) Unwrap() error { return e.LineError }

// errorAt returns the error msg at the output offset off.
func (j jsonReader) errorAt(off int64, msg string) *input.LineError {
	line, col := j.rw.Locate(off)
	return &input.LineError{Path: j.l.Name, Line: line, Col: col, Msg: msg}
}

// RereadElement reads the JSON array element br starts with.
func RereadElement(l *input.Loader, _ *os.File, br *bufio.Reader) (scoring.Trajectory, error) {
	var raw json.RawMessage
	if err := json.NewDecoder(jsonscan.NewRewriter(br, 0)).Decode(&raw); err != nil {
		return scoring.Trajectory{}, fmt.Errorf("no JSON value there: %v", err)
	}
	obj, lerr := objectOrError(raw, true)
	if lerr != nil {
		return scoring.Trajectory{}, errors.New(lerr.Msg)
	}
	t := l.NewTrajectory(1, 0)
	if err := obj.trajectory(&t); err != nil {
		return scoring.Trajectory{}, err
	}
	return t, nil
}
