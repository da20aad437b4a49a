package loaders

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/loaders/internal/csvread"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
	"github.com/rewardlens/rewardlens/loaders/internal/parquetread"
)

// Format is an input file format.
type Format string

// The formats: a JSON array of objects, one JSON object per line (JSONL,
// also called NDJSON), CSV with a header row, Parquet, and a W&B table
// (jsonread's wandb.go).
const (
	JSON       Format = "json"
	JSONL      Format = "jsonl"
	CSV        Format = "csv"
	Parquet    Format = "parquet"
	WandBTable Format = "wandb-table"
)

// formatSpec is all the loaders know of an input format. A new format is
// a reader and one entry in formats: ParseFormat, the detection by file
// name, directory expansion, following and Reread all read the table.
type formatSpec struct {
	format Format
	// aliases are other names ParseFormat accepts for it.
	aliases []string
	// extensions are the file name extensions (lower case) that select
	// it; a text format's files may also be gzipped (a further ".gz").
	extensions []string
	// binary formats are never gzipped on top.
	binary bool
	// read reads the trajectories of an opened input.
	read func(l *input.Loader, br *bufio.Reader) error
	// tails reports that a follower reads the records appended to a file
	// of this format as it grows; files of the other formats are read
	// again whole when they change.
	tails bool
	// reread, when not nil, reads one record again at br, the offset of a
	// trajectory's record in the file f (Reread); nil for a format whose
	// records cannot be read again alone.
	reread func(l *input.Loader, f *os.File, br *bufio.Reader) (scoring.Trajectory, error)
}

// formats are the input formats, in the order messages list them.
var formats = []formatSpec{
	{
		format: JSON, extensions: []string{".json"},
		read:   jsonread.ReadJSON,
		reread: jsonread.RereadElement,
	},
	{
		format: JSONL, aliases: []string{"ndjson"}, extensions: []string{".jsonl", ".ndjson"},
		read:   jsonread.ReadJSONL,
		tails:  true,
		reread: jsonread.RereadLine,
	},
	{
		format: CSV, extensions: []string{".csv"},
		read:   csvread.Read,
		reread: csvread.RereadRow,
	},
	{
		format: Parquet, extensions: []string{".parquet"}, binary: true,
		read: func(l *input.Loader, br *bufio.Reader) error { return parquetread.Read(l, br) },
	},
	{
		format: WandBTable, extensions: []string{".table.json"},
		read:   jsonread.ReadWandbTable,
		reread: jsonread.RereadTableRow,
	},
}

// spec returns the table entry of f, nil for "" or an unknown format.
func (f Format) spec() *formatSpec {
	for i := range formats {
		if formats[i].format == f {
			return &formats[i]
		}
	}
	return nil
}

// FormatNames returns the names ParseFormat accepts, aliases included, in
// the order of the formats: for flags' help and completions.
func FormatNames() []string {
	var names []string
	for _, s := range formats {
		names = append(names, string(s.format))
		names = append(names, s.aliases...)
	}
	return names
}

// ParseFormat parses a format name, in any case: "" (detect it from the
// file name or the content) or one of FormatNames ("ndjson" is "jsonl").
// An unknown name is an error listing the valid ones.
func ParseFormat(s string) (Format, error) {
	s = strings.ToLower(s)
	if s == "" {
		return "", nil
	}
	for _, spec := range formats {
		if s == string(spec.format) || slices.Contains(spec.aliases, s) {
			return spec.format, nil
		}
	}
	return "", fmt.Errorf("unknown format %q (valid: %s)", s, strings.Join(FormatNames(), ", "))
}

// formatByName returns the format whose extension ends name (lower case,
// a final ".gz" stripped when gzipped, which binary formats never are),
// the longest extension winning (".table.json" over ".json"), or "".
func formatByName(name string, gzipped bool) Format {
	found, longest := Format(""), 0
	for _, spec := range formats {
		for _, ext := range spec.extensions {
			if strings.HasSuffix(name, ext) && len(ext) > longest && !(gzipped && spec.binary) {
				found, longest = spec.format, len(ext)
			}
		}
	}
	return found
}

// tableAdvice is what to do with the input called name, read as JSON,
// that holds a W&B table, given being the format --input-format gave (""
// for none): name it as a table, or give its format; with --input-format,
// drop it instead when the name would not choose a format (the content
// does) or chooses wandb-table.
func tableAdvice(name string, given Format) string {
	if given == "" {
		return "name it *.table.json or give --input-format wandb-table"
	}
	if f := formatByName(strings.TrimSuffix(strings.ToLower(name), ".gz"), false); f == "" || f == WandBTable {
		return fmt.Sprintf("drop --input-format %s or give --input-format wandb-table", given)
	}
	return fmt.Sprintf("give --input-format wandb-table, not %s", given)
}

// detectFormat chooses the format of the input called name: by the
// extension (ignoring a final .gz), else by Parquet's magic bytes, else by
// the first byte that is not white space.
func detectFormat(name string, br *bufio.Reader) Format {
	if f := formatByName(strings.TrimSuffix(strings.ToLower(name), ".gz"), false); f != "" {
		return f
	}
	if magic, _ := br.Peek(len(input.ParquetMagic)); bytes.Equal(magic, input.ParquetMagic) {
		return Parquet
	}
	return sniffFormat(br)
}

// sniffFormat looks at the first byte that is not JSON white space without
// consuming it: '[' is JSON, '{' a W&B table when it opens one
// (jsonread.IsWandbTable), else JSONL, anything else CSV. An input that
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
				if head, _ := br.Peek(jsonread.MaxTableSniff); jsonread.IsWandbTable(head) {
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
