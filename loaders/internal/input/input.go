package input

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
)

// BufferSize is the read buffer size; longer JSONL lines grow their own.
const BufferSize = 64 << 10

var (
	GzipMagic = []byte{0x1f, 0x8b}
	UTF8BOM   = []byte{0xef, 0xbb, 0xbf}
	// ParquetMagic starts a Parquet file (and ends it).
	ParquetMagic = []byte("PAR1")
)

// Opened is an opened input, decompressed and past its byte order mark.
type Opened struct {
	R *bufio.Reader
	// Lead is the length of the byte order mark skipped, 0 if none.
	Lead int
	// Gzipped reports whether the input was decompressed.
	Gzipped bool
}

// Open decompresses r when it starts with the gzip magic bytes, whatever
// its name says (a text file never starts with them), and skips a UTF-8 byte
// order mark at the start of the text.
func Open(r io.Reader) (in Opened, err error) {
	br := bufio.NewReaderSize(r, BufferSize)
	if magic, _ := br.Peek(len(GzipMagic)); bytes.Equal(magic, GzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return Opened{}, err
		}
		br = bufio.NewReaderSize(zr, BufferSize)
		in.Gzipped = true
	}
	in.R = br
	if bom, _ := br.Peek(len(UTF8BOM)); bytes.Equal(bom, UTF8BOM) {
		br.Discard(len(UTF8BOM))
		in.Lead = len(UTF8BOM)
	}
	return in, nil
}
