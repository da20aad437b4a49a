package loaders

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
)

// bufferSize is the read buffer size; longer JSONL lines grow their own.
const bufferSize = 64 << 10

var (
	gzipMagic = []byte{0x1f, 0x8b}
	utf8BOM   = []byte{0xef, 0xbb, 0xbf}
	// parquetMagic starts a Parquet file (and ends it).
	parquetMagic = []byte("PAR1")
)

// input is an opened input, decompressed and past its byte order mark.
type input struct {
	r *bufio.Reader
	// lead is the length of the byte order mark skipped, 0 if none.
	lead int
	// gzipped reports whether the input was decompressed.
	gzipped bool
}

// openInput decompresses r when it starts with the gzip magic bytes, whatever
// its name says (a text file never starts with them), and skips a UTF-8 byte
// order mark at the start of the text.
func openInput(r io.Reader) (in input, err error) {
	br := bufio.NewReaderSize(r, bufferSize)
	if magic, _ := br.Peek(len(gzipMagic)); bytes.Equal(magic, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return input{}, err
		}
		br = bufio.NewReaderSize(zr, bufferSize)
		in.gzipped = true
	}
	in.r = br
	if bom, _ := br.Peek(len(utf8BOM)); bytes.Equal(bom, utf8BOM) {
		br.Discard(len(utf8BOM))
		in.lead = len(utf8BOM)
	}
	return in, nil
}
