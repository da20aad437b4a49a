package loaders

import (
	"bytes"
	"errors"
	"io"
	"slices"
)

// heldText is the text of a followed gzipped JSONL or CSV file as its
// reader sees it: what follows its last row end (a JSONL line end, a CSV
// one outside quotes) is held back until the gzip stream goes on past
// the next one. A stream cut short (io.ErrUnexpectedEOF: its run is still
// writing it, a member flushed and not closed, or its gzip header not
// whole yet) ends at its last row end, as an uncompressed followed file's
// text ends at its last line end; the rest waits for the next reading,
// which reads the file from the start again. A stream that ends well is
// read whole. Any other error of the stream (a bad checksum, a corrupt
// member) passes through, for the reader to say where it came.
type heldText struct {
	r    io.Reader // the decompressed text
	ends rowEnds
	// max is the longest record: a held part longer is given out, for
	// the reader to reject, rather than held whole (a gzip bomb).
	max int64
	// buf[start:] is what was decompressed and not given out; base is
	// the text offset of buf[0], free that up to which it may be.
	buf        []byte
	start      int
	base, free int64
	err        error // io.EOF, or the stream's error, once buf is given out
	cut        bool  // the stream was cut short
}

// rowEnds finds the row ends of a text fed to it in order: end is just
// past the last, and lines counts the line ends before it; fed is the
// number of bytes fed so far.
type rowEnds interface {
	feed(b []byte)
	rowsEnd() (end int64, lines int)
	fed() int64
}

// lineEnds are a JSONL text's row ends: its line ends ("\n").
type lineEnds struct {
	at, end int64
	lines   int
}

func (e *lineEnds) feed(b []byte) {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		e.end = e.at + int64(i) + 1
		e.lines += bytes.Count(b, []byte{'\n'})
	}
	e.at += int64(len(b))
}

func (e *lineEnds) rowsEnd() (int64, int) { return e.end, e.lines }

func (e *lineEnds) fed() int64 { return e.at }

// newHeldText returns the heldText of r, the decompressed text of format
// (JSONL or CSV) whose longest record is maxRecord bytes.
func newHeldText(r io.Reader, format Format, maxRecord int64) *heldText {
	var ends rowEnds = &lineEnds{}
	if format == CSV {
		ends = newCSVRowEnds()
	}
	return &heldText{r: r, ends: ends, max: maxRecord}
}

func (h *heldText) Read(p []byte) (int, error) {
	for {
		if ready := h.free - h.base - int64(h.start); ready > 0 {
			n := copy(p, h.buf[h.start:h.start+int(min(ready, int64(len(p))))])
			h.start += n
			return n, nil
		}
		if h.err != nil {
			return 0, h.err
		}
		h.fill()
	}
}

// fill decompresses the text's next bytes into buf.
func (h *heldText) fill() {
	if h.start > 0 {
		n := copy(h.buf, h.buf[h.start:])
		h.buf, h.base, h.start = h.buf[:n], h.base+int64(h.start), 0
	}
	if len(h.buf) == cap(h.buf) {
		h.buf = slices.Grow(h.buf, max(64<<10, len(h.buf)))
	}
	n, err := h.r.Read(h.buf[len(h.buf):cap(h.buf)])
	h.ends.feed(h.buf[len(h.buf) : len(h.buf)+n])
	h.buf = h.buf[:len(h.buf)+n]
	total := h.ends.fed()
	rowEnd, _ := h.ends.rowsEnd()
	h.free = max(h.free, rowEnd)
	if total-h.free > h.max {
		h.free = total
	}
	switch {
	case err == io.EOF:
		h.free, h.err = total, io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		h.cut, h.err = true, io.EOF
	case err != nil:
		h.err = err
	}
}

// unended returns, of a stream cut short, the number of the line held
// back after its last row end and how many bytes of it there are (0 for
// none, or a stream not cut).
func (h *heldText) unended() (line int, bytes int64) {
	if !h.cut {
		return 0, 0
	}
	rowEnd, lines := h.ends.rowsEnd()
	return lines + 1, h.ends.fed() - rowEnd
}

// gzipReading is what read tells a follower of the gzipped file it read
// (Options.gzipReading): its text held (heldText), when JSONL or CSV, and
// whether its gzip header was cut short (no text yet).
type gzipReading struct {
	text      *heldText
	headerCut bool
}

// unended is heldText.unended, (0, 0) without a text held.
func (g *gzipReading) unended() (line int, bytes int64) {
	if g.text == nil {
		return 0, 0
	}
	return g.text.unended()
}
