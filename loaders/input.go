package loaders

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"strings"

	"github.com/rewardlens/rewardlens/loaders/internal/jsonscan"
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

// detectFormat chooses the format of the input called name: by the
// extension (ignoring a final .gz), else by Parquet's magic bytes, else by
// the first byte that is not white space.
func detectFormat(name string, br *bufio.Reader) Format {
	if f := formatByName(strings.TrimSuffix(strings.ToLower(name), ".gz"), false); f != "" {
		return f
	}
	if magic, _ := br.Peek(len(parquetMagic)); bytes.Equal(magic, parquetMagic) {
		return Parquet
	}
	return sniffFormat(br)
}

// maxTableSniff is how much of an input sniffFormat looks at to tell a W&B
// table: the read buffer.
const maxTableSniff = bufferSize

// sniffFormat looks at the first byte that is not JSON white space without
// consuming it: '[' is JSON, '{' a W&B table when it opens one
// (isWandbTable), else JSONL, anything else CSV. An input that
// is all white space (or starts with more of it than the buffer holds) is
// read as JSONL, which skips blank lines.
func sniffFormat(br *bufio.Reader) Format {
	for n := 64; ; n *= 2 {
		buf, err := br.Peek(n)
		if i := jsonscan.SkipSpace(buf); i < len(buf) {
			switch buf[i] {
			case '[':
				return JSON
			case '{':
				if head, _ := br.Peek(maxTableSniff); isWandbTable(head) {
					return WandBTable
				}
				return JSONL
			}
			return CSV
		}
		if err != nil {
			return JSONL
		}
	}
}
