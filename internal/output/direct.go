package output

import (
	"errors"
	"io"
	"syscall"
	"unsafe"
)

// directAlign is the alignment of the offsets, lengths and memory of
// direct writes: a page, a multiple of every common logical block size.
const directAlign = 4096

// directBuffer is how much text a directWriter gathers before writing it.
const directBuffer = 1 << 20

// directWriter writes a file around the page cache (O_DIRECT). The output
// is written once and read, if ever, by another program later: the page
// cache buys nothing, and copying 24 MB into it (fresh pages, each faulted
// in) costs as much processor time as formatting half of them.
//
// It gathers the text in a buffer aligned to directAlign and writes it
// through direct in whole blocks; Flush writes what is left, the last part
// block through plain, a descriptor of the same file without O_DIRECT. If
// the filesystem turns a direct write down (EINVAL: it took O_DIRECT at
// open, not at write), that write and the rest go through plain.
type directWriter struct {
	direct, plain io.WriterAt
	buf           []byte // aligned, len(buf) == directBuffer
	n             int    // the bytes of buf in use
	off           int64  // where buf goes in the file
	err           error  // the first write error, returned from then on
}

func newDirectWriter(direct, plain io.WriterAt) *directWriter {
	raw := make([]byte, directBuffer+directAlign)
	skip := -int(uintptr(unsafe.Pointer(&raw[0]))) & (directAlign - 1)
	return &directWriter{direct: direct, plain: plain, buf: raw[skip : skip+directBuffer]}
}

func (w *directWriter) Write(p []byte) (int, error) {
	written := 0
	for w.err == nil && len(p) > 0 {
		k := copy(w.buf[w.n:], p)
		w.n += k
		written += k
		p = p[k:]
		if w.n == len(w.buf) {
			w.writeOut(w.n)
		}
	}
	return written, w.err
}

// Flush writes what the buffer holds; it ends the writing: nothing may be
// written after it.
func (w *directWriter) Flush() error {
	if w.err == nil {
		w.writeOut(w.n &^ (directAlign - 1))
	}
	if w.err == nil && w.n > 0 {
		w.direct = nil // a part block: the rest of the file is not aligned
		w.writeOut(w.n)
	}
	return w.err
}

// writeOut writes the first n bytes of the buffer, n a multiple of
// directAlign unless through plain, and keeps the rest for later.
func (w *directWriter) writeOut(n int) {
	if n == 0 {
		return
	}
	var err error
	if w.direct != nil {
		_, err = w.direct.WriteAt(w.buf[:n], w.off)
		if errors.Is(err, syscall.EINVAL) {
			w.direct = nil
		}
	}
	if w.direct == nil {
		_, err = w.plain.WriteAt(w.buf[:n], w.off)
	}
	if err != nil {
		w.err = err
		return
	}
	w.off += int64(n)
	w.n = copy(w.buf, w.buf[n:w.n])
}
