package loaders

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// Unfinished is the newest file of a directory that Load read in part or
// not at all, because its run is probably still writing it: its last line
// has no line end and is not a whole record yet, or it is empty, or it is
// a Parquet file without its footer yet, or a JSON array or W&B table
// whose text ends before its value does. A run writes its files in
// natural order, so only the last one can be half-written; any other file
// that is broken stays an error.
type Unfinished struct {
	Path string
	// Whole reports that the file was left out whole; else only its last
	// line was.
	Whole bool
	// Followed reports that a follower left it out, to read it when it
	// changes: any file it follows, not only the newest.
	Followed bool
	// Reason says what is unfinished: "empty", "no Parquet footer yet",
	// "its JSON ends before its value does", "no line end, and not
	// complete JSON".
	Reason string
}

// String reads "PATH: last line left out: no line end, and not complete
// JSON (the newest file of its directory: its run is probably still
// writing it)", or when Followed "PATH: left out: no Parquet footer yet
// (its run is probably still writing it: read when it changes)".
func (u Unfinished) String() string {
	what := "last line left out"
	if u.Whole {
		what = "left out"
	}
	why := "the newest file of its directory: its run is probably still writing it"
	if u.Followed {
		why = "its run is probably still writing it: read when it changes"
	}
	return fmt.Sprintf("%s: %s: %s (%s)", u.Path, what, u.Reason, why)
}

// Unterminated is a CSV file whose last row has no line end and was read
// whole, as complete (Load): a complete last value cannot be told from a
// cut one ("...,1000" cut to "...,1"), which a file still being written
// may end with.
type Unterminated struct {
	Path string
	Line int // where the last row starts
}

// String reads "PATH:LINE: the last row has no line end: read as
// complete; a file still being written may have its last value cut".
func (u Unterminated) String() string {
	return fmt.Sprintf("%s:%d: the last row has no line end: read as complete; a file still being written may have its last value cut", u.Path, u.Line)
}

// openRegular opens path when it is a regular file, and returns it and
// its size; nil for anything else. Only a regular file is opened: a FIFO
// (read to its end by the load, say) would block the open until another
// writer came.
func openRegular(path string) (*os.File, int64) {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil, 0
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, 0
	}
	return f, st.Size()
}

// endsMidLine reports whether the first size bytes of f end without a
// line end, and are not none.
func endsMidLine(f *os.File, size int64) bool {
	last := make([]byte, 1)
	if size == 0 {
		return false
	}
	_, err := f.ReadAt(last, size-1)
	return err == nil && last[0] != '\n'
}

// EndsMidLine reports whether one of paths is a regular file that ends
// without a line end: its last line is being written (or never was
// ended).
func EndsMidLine(paths []string) bool {
	for _, p := range paths {
		f, size := openRegular(p)
		if f == nil {
			continue
		}
		mid := endsMidLine(f, size)
		f.Close()
		if mid {
			return true
		}
	}
	return false
}

// unterminatedCSV returns the Unterminated of the regular file called
// path, of which Load read the first limit bytes (all when limit < 0),
// when it is read as CSV (opts.Format, else its name or content), is not
// gzipped and its last row after the header has no line end; else nil.
func unterminatedCSV(path string, opts Options, limit int64) *Unterminated {
	f, size := openRegular(path)
	if f == nil {
		return nil
	}
	defer f.Close()
	if limit >= 0 {
		size = min(size, limit)
	}
	if !endsMidLine(f, size) {
		return nil
	}
	if format, gzipped := fileFormat(f, path, opts.Format); gzipped || format != CSV {
		return nil
	}
	end, lines, err := csvRowsEnd(f, size)
	if err != nil || end == 0 {
		return nil // the header alone, or what the reader failed on
	}
	return &Unterminated{Path: path, Line: lines + 1}
}

// unfinishedReasons are the Reasons.
const (
	reasonEmpty    = "empty"
	reasonNoFooter = "no Parquet footer yet"
	reasonJSONLine = "no line end, and not complete JSON"
	reasonCSVRow   = "no line end, and not a complete CSV row"
	reasonOnlyLine = "its only line has no line end, and is not complete JSON"
	reasonJSONCut  = "its JSON ends before its value does"
)

// cutAfterReading returns, for the newest file path of a directory,
// read by Load with liveSpan's jsonByReading, the Unfinished of a JSON
// array or W&B table found cut short (jsonCutShort) once its reading
// failed (nil when it did not: a text read whole and well is not cut),
// which leaves it out as liveSpan would have. The check runs on the
// failure alone: a reading stopped by a bad record before the cut end
// fails as a cut one does.
func cutAfterReading(path string, format Format, readErr error) *Unfinished {
	if readErr == nil || (format != JSON && format != WandBTable) {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !jsonCutShort(func() io.Reader { return io.NewSectionReader(f, 0, st.Size()) }, st.Size()) {
		return nil
	}
	return jsonCutUnfinished(path)
}

// jsonCutUnfinished is the Unfinished of the JSON array or W&B table
// path whose text ends before its value does: left out whole.
func jsonCutUnfinished(path string) *Unfinished {
	return &Unfinished{Path: path, Whole: true, Reason: reasonJSONCut}
}

// parquetMinSize is the size of the smallest Parquet file: the magic, then
// after the footer its length (4 bytes) and the magic again.
const parquetMinSize = 12

// inputFile is one file that Load reads: a path given, or a file of a
// directory given.
type inputFile struct {
	path string
	// newest reports that it is the last input file of a directory given,
	// in natural order: the one its run may still be writing.
	newest bool
}

// expandInputs is expand, telling which file is the newest of its
// directory.
func expandInputs(paths []string, inputs func(dir string) ([]string, error)) ([]inputFile, error) {
	var out []inputFile
	for _, p := range paths {
		if p == "-" || !isDir(p) {
			out = append(out, inputFile{path: p})
			continue
		}
		files, err := inputs(p)
		if err != nil {
			return nil, err
		}
		for i, f := range files {
			out = append(out, inputFile{path: f, newest: i == len(files)-1})
		}
	}
	return out, nil
}

// liveSpan looks once at path, the newest file of a directory, and
// returns how many of its bytes Load reads: its size as it is now (what a
// writer adds meanwhile waits for the next reading), or up to the end of
// its last complete line when its last line is unfinished (u says so), or
// none when u.Whole. A gzip file is read whole (limit -1) but for its
// text, of which it returns how many bytes (after a byte order mark) Load
// reads in textLimit, -1 for all. A file that is not a regular one is read
// as it is: both limits are then -1. format is the file's format as the
// reading would find it (opts.Format, else its name or content), which
// Load hands the reading (Options.found); "" when liveSpan did not look.
//
// A last line without a line end is unfinished only if it is not a
// record yet: not valid JSON (Python's NaN and Infinity allowed) in JSONL,
// or, in CSV, a row the CSV reader fails on or whose fields are not as
// many as the header's. A complete last line without a line end is read.
// A JSON array or W&B table is unfinished when its text ends inside its
// value with no syntax error before (jsonCutShort); a gzip stream cut
// short ends its text where it was cut. When jsonByReading, it is not
// looked at (read whole): the caller's reading tells (cutAfterReading).
func liveSpan(path string, opts Options, jsonByReading bool) (limit, textLimit int64, format Format, u *Unfinished, err error) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return -1, -1, "", nil, nil // opening it reports what is wrong
	}
	size := st.Size()
	if size == 0 {
		return 0, -1, "", &Unfinished{Path: path, Whole: true, Reason: reasonEmpty}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return -1, -1, "", nil, nil
	}
	defer f.Close()
	br := bufio.NewReader(io.NewSectionReader(f, 0, size))
	format, err = ParseFormat(string(opts.Format))
	if err != nil {
		return -1, -1, "", nil, nil // the reading reports it
	}
	if magic, _ := br.Peek(len(input.GzipMagic)); bytes.Equal(magic, input.GzipMagic) {
		textLimit, format, u := gzipSpan(f, path, size, format, opts.maxRecord(), jsonByReading)
		return -1, textLimit, format, u, nil
	}
	// Not gzipped, the text opens without error; only the format's
	// detection and a JSON text's span read it.
	raw := &countingReader{r: io.NewSectionReader(f, 0, size)}
	var in input.Opened
	if format == "" || format == JSON || format == WandBTable {
		in, _ = openText(raw)
	}
	if format == "" {
		// Found on the text, a byte order mark undone, as the reading
		// finds it.
		format = detectFormat(path, in.R)
	}
	switch format {
	case Parquet:
		limit, u, err = parquetSpan(f, br, path, size)
	case JSONL, CSV:
		limit, u, err = lineSpan(f, br, path, size, format, opts.maxRecord())
	case JSON, WandBTable:
		limit = size
		if !jsonByReading {
			limit, u = jsonSpan(f, path, size, raw, in.R)
		}
	default:
		limit = size
	}
	return limit, -1, format, u, err
}

// parquetSpan is liveSpan for a Parquet file: one that starts as Parquet
// does but does not end with the magic after its footer yet is left out.
// Any other is read, to fail if it is broken.
func parquetSpan(f *os.File, br *bufio.Reader, path string, size int64) (int64, *Unfinished, error) {
	head, _ := br.Peek(len(input.ParquetMagic))
	if !bytes.HasPrefix(input.ParquetMagic, head) {
		return size, nil, nil // not Parquet: the reader says so
	}
	tail := make([]byte, len(input.ParquetMagic))
	if size >= parquetMinSize {
		if _, err := f.ReadAt(tail, size-int64(len(tail))); err != nil {
			return 0, nil, err
		}
		if bytes.Equal(tail, input.ParquetMagic) {
			return size, nil, nil
		}
	}
	return 0, &Unfinished{Path: path, Whole: true, Reason: reasonNoFooter}, nil
}

// jsonSpan is liveSpan for a JSON array or W&B table, gzipped or not,
// whose text was opened (text, its format found on it) from raw, the
// file's first size bytes: left out whole when cut short
// (openedJSONCutShort, which reads on from there), else read whole, to
// fail if it is broken.
func jsonSpan(f *os.File, path string, size int64, raw *countingReader, text io.Reader) (int64, *Unfinished) {
	if openedJSONCutShort(text, raw, func() io.Reader { return io.NewSectionReader(f, 0, size) }, size) {
		return 0, jsonCutUnfinished(path)
	}
	return size, nil
}

// jsonCutShort reports whether the JSON text that open gives (gzip and a
// byte order mark undone) ends inside its top-level value with no syntax
// error before that end: the reader's "unexpected end of input", which a
// run still writing the file leaves; a gzip stream cut short is such an
// end too. A first pass counts brackets outside strings, which a complete
// text has all closed at its end; only a text left open is decoded again,
// token by token, to tell a cut end from a syntax error. The file must
// hold the size bytes its stat found through both passes: one that shrank
// under them changed while read, which is the reading's to tell (a
// follower reads it again), not a cut end.
func jsonCutShort(open func() io.Reader, size int64) bool {
	first := &countingReader{r: open()}
	in, err := openText(first)
	return err == nil && openedJSONCutShort(in.R, first, open, size)
}

// openedJSONCutShort is jsonCutShort of a text opened already, text,
// read from raw, which counts the bytes of the file read: a caller that
// opened it to find its format reads on rather than again. Only a text
// left open is opened again (open) for the second pass.
func openedJSONCutShort(text io.Reader, raw *countingReader, open func() io.Reader, size int64) bool {
	if !jsonOpenAtEnd(text) || raw.n != size {
		return false
	}
	second := &countingReader{r: open()}
	in, err := openText(second)
	if err != nil {
		return false // the reading reports it
	}
	dec := json.NewDecoder(jsonscan.NewRewriter(in.R, 0))
	depth, closed := 0, false
	for {
		tok, err := dec.Token()
		if err != nil {
			cut := errors.Is(err, io.ErrUnexpectedEOF) || (errors.Is(err, io.EOF) && depth > 0)
			return cut && second.n == size
		}
		if closed {
			return false // a value after the top-level one: the reader's error
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
		// Complete, the value is followed by the end of the text; or of
		// what a gzip stream cut short holds, which is cut short too.
		closed = depth == 0
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// jsonOpenAtEnd reports whether the JSON text (gzip and a byte order
// mark undone) ends inside a string or with more brackets opened than
// closed outside strings, or in a gzip stream cut short.
func jsonOpenAtEnd(text io.Reader) bool {
	var s bracketScan
	buf := make([]byte, 64<<10)
	for {
		n, err := text.Read(buf)
		s.scan(buf[:n])
		switch {
		case err == io.EOF:
			return s.inString || s.depth > 0
		case err != nil:
			return errors.Is(err, io.ErrUnexpectedEOF)
		}
	}
}

// bracketScan counts the brackets of a JSON text outside its strings, the
// text given in parts.
type bracketScan struct {
	depth int // opened less closed
	// inString reports that the text so far ends inside a string, escaped
	// that it ends with the backslash of an escape.
	inString, escaped bool
}

// scan goes on through b, byte by byte: what a string holds is passed
// over in a tight loop, to its quote or backslash.
func (s *bracketScan) scan(b []byte) {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case s.escaped:
			s.escaped = false
		case s.inString:
			for i < len(b) && b[i] != '"' && b[i] != '\\' {
				i++
			}
			if i < len(b) {
				s.escaped = b[i] == '\\'
				s.inString = s.escaped
			}
		case c == '"':
			s.inString = true
		case c == '[' || c == '{':
			s.depth++
		case c == ']' || c == '}':
			s.depth--
		}
	}
}

// lineSpan is liveSpan for a JSONL or CSV file.
func lineSpan(f *os.File, br *bufio.Reader, path string, size int64, format Format, maxRecord int64) (int64, *Unfinished, error) {
	start, err := lastLineStart(f, size, maxRecord)
	if err != nil || start < 0 {
		return size, nil, err // a line end last, or a line too long to look at: the reader judges it
	}
	last := make([]byte, size-start)
	if _, err := f.ReadAt(last, start); err != nil {
		return 0, nil, err
	}
	if start == 0 {
		last = bytes.TrimPrefix(last, input.UTF8BOM)
	}
	header := func() []byte {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return nil
		}
		return bytes.TrimPrefix(line, input.UTF8BOM)
	}
	limit, u := lastLineSpan(path, format, start, size, last, header)
	return limit, u, nil
}

// lastLineSpan judges the last line of a JSONL or CSV text of size bytes,
// last, which has no line end and starts at start: it returns how many
// bytes of the text are read, and the Unfinished of a last line left out.
// header gives a CSV text's first line, nil when it has none.
func lastLineSpan(path string, format Format, start, size int64, last []byte, header func() []byte) (int64, *Unfinished) {
	if len(bytes.TrimSpace(last)) == 0 {
		return size, nil
	}
	if format == JSONL {
		if completeJSON(last) {
			return size, nil
		}
		if start == 0 {
			return 0, &Unfinished{Path: path, Whole: true, Reason: reasonOnlyLine}
		}
		return start, &Unfinished{Path: path, Reason: reasonJSONLine}
	}
	if start == 0 {
		return size, nil // the header alone: no row to leave out
	}
	h := header()
	if h == nil || completeCSVRow(h, last) {
		return size, nil
	}
	return start, &Unfinished{Path: path, Reason: reasonCSVRow}
}

// gzipSpan is liveSpan for a gzipped file, judged on its text as an
// uncompressed one is; it returns how many bytes of its text (after a
// byte order mark) are read, -1 for all, and the format of the text
// (format when given, "" when the gzip header is cut short or bad). A gzip
// stream cut short (its run still writing it) has its text end where it
// was cut: that much is read, without an unfinished last line, and the
// rest waits for the next reading.
func gzipSpan(f *os.File, path string, size int64, format Format, maxRecord int64, jsonByReading bool) (int64, Format, *Unfinished) {
	raw := &countingReader{r: io.NewSectionReader(f, 0, size)}
	in, err := openText(raw)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		// Its gzip header not whole yet: no text yet, as a follower
		// finds it (gzipReading).
		return -1, "", &Unfinished{Path: path, Whole: true, Reason: reasonEmpty}
	}
	if err != nil {
		return -1, "", nil // a bad gzip header: the reading reports it
	}
	if format == "" {
		format = detectFormat(path, in.R)
	}
	switch format {
	case JSON, WandBTable:
		if jsonByReading {
			return -1, format, nil
		}
		_, u := jsonSpan(f, path, size, raw, in.R)
		return -1, format, u
	case JSONL, CSV:
	default:
		return -1, format, nil
	}
	text, err := scanText(in.R, maxRecord)
	if err != nil {
		return -1, format, nil // the reading reports it
	}
	switch {
	case text.size == 0 && text.cut:
		return -1, format, &Unfinished{Path: path, Whole: true, Reason: reasonEmpty}
	case text.lastTooLong:
		return -1, format, nil // the reader rejects it
	case len(text.last) == 0: // a line end last, or no text
		if text.cut {
			return text.size, format, nil
		}
		return -1, format, nil
	}
	limit, u := lastLineSpan(path, format, text.lastStart, text.size, text.last, func() []byte { return text.header })
	if u == nil && !text.cut {
		return -1, format, nil
	}
	return limit, format, u
}

// gzipText is what scanText found of a gzip file's text.
type gzipText struct {
	size int64
	// cut reports that the gzip stream ends before its end.
	cut bool
	// last is the last line when it has no line end (nil when the text
	// ends with one), starting at lastStart; lastTooLong reports that it
	// is longer than the longest record, and not kept.
	last        []byte
	lastStart   int64
	lastTooLong bool
	// header is the first line, with its line end, when it has one.
	header []byte
}

// scanText reads the text of r to its end, or to where its gzip stream
// was cut short, and returns its size, its last line and its first.
func scanText(r io.Reader, maxRecord int64) (gzipText, error) {
	var t gzipText
	var first []byte
	headerDone := false
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		chunk := buf[:n]
		if !headerDone {
			i := bytes.IndexByte(chunk, '\n')
			switch {
			case i >= 0:
				t.header, headerDone = append(first, chunk[:i+1]...), true
			case int64(len(first)+n) > maxRecord:
				headerDone = true
			default:
				first = append(first, chunk...)
			}
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			t.lastStart, t.lastTooLong = t.size+int64(i)+1, false
			t.last = append(t.last[:0], chunk[i+1:]...)
		} else if !t.lastTooLong {
			t.last = append(t.last, chunk...)
			if int64(len(t.last)) > maxRecord {
				t.last, t.lastTooLong = nil, true
			}
		}
		t.size += int64(n)
		switch {
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
			t.cut = err != io.EOF
			return t, nil
		case err != nil:
			return t, err
		}
	}
}

// lastLineStart returns the offset where the last line of the file of size
// bytes starts, just past its last line end: -1 when the file ends with a
// line end (its last line is complete), or when that line is longer than
// maxRecord (the reader rejects it whole).
func lastLineStart(f *os.File, size, maxRecord int64) (int64, error) {
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	for end := size; end > 0; {
		from := max(end-chunk, 0)
		b := buf[:end-from]
		if _, err := f.ReadAt(b, from); err != nil {
			return -1, err
		}
		if end == size && b[len(b)-1] == '\n' {
			return -1, nil
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return from + int64(i) + 1, nil
		}
		if size-from > maxRecord {
			return -1, nil
		}
		end = from
	}
	return 0, nil
}

// completeJSON reports whether line is one JSON value, Python's NaN,
// Infinity and -Infinity standing where numbers may. Its grammar only, by
// encoding/json: a complete line that is not UTF-8 is read, and rejected.
func completeJSON(line []byte) bool {
	text, err := io.ReadAll(jsonscan.NewRewriter(bufio.NewReader(bytes.NewReader(line)), 0))
	return err == nil && json.Valid(text)
}

// completeCSVRow reports whether row, read after header, is a CSV record
// with as many fields as the header.
func completeCSVRow(header, row []byte) bool {
	cr := csv.NewReader(io.MultiReader(bytes.NewReader(header), bytes.NewReader(row)))
	if _, err := cr.Read(); err != nil {
		return false
	}
	_, err := cr.Read() // the fields not as many as the header's are an error
	return err == nil
}

// peekedFiles are the files Peek looks at: those of paths, directories
// expanded (one without input files tells nothing), but the newest file of
// a directory when Load leaves it out whole.
func peekedFiles(paths []string, opts Options) ([]string, error) {
	files, err := expandInputs(paths, listInputs)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		if f.newest {
			if _, _, _, u, err := liveSpan(f.path, opts, false); err != nil {
				return nil, err
			} else if u != nil && u.Whole {
				continue
			}
		}
		out = append(out, f.path)
	}
	return out, nil
}

// unfinishedWhole returns, when the file of size bytes called path is
// read as Parquet (format, else its name or content) and does not end with
// its footer yet, or, when checkJSON, as a JSON array or W&B table cut
// short (jsonCutShort), its Unfinished for a follower; else nil.
func unfinishedWhole(f *os.File, path string, size int64, format Format, checkJSON bool) *Unfinished {
	br := bufio.NewReader(io.NewSectionReader(f, 0, size))
	if format == "" {
		format = detectFormat(path, br)
	}
	var u *Unfinished
	switch format {
	case Parquet:
		if _, pu, err := parquetSpan(f, br, path, size); err == nil {
			u = pu
		}
	case JSON, WandBTable:
		if checkJSON && jsonCutShort(func() io.Reader { return io.NewSectionReader(f, 0, size) }, size) {
			u = jsonCutUnfinished(path)
		}
	}
	if u != nil {
		u.Followed = true
	}
	return u
}

// NoteLastSteps sets, in lastStep, the step (Batch) of the last of ts
// read from each file (Source): the step a file's unfinished last line,
// left out, would have ended (LinesLeftOut).
func NoteLastSteps(lastStep map[string]int64, ts []scoring.Trajectory) {
	for i := range ts {
		if i == len(ts)-1 || ts[i+1].Source != ts[i].Source {
			lastStep[ts[i].Source] = ts[i].Batch
		}
	}
}

// LinesLeftOut returns, per step, the unfinished last lines of the files
// of paths that a reading left out after a row of that step (lastStep:
// each file's last row read, NoteLastSteps), named "PATH's unfinished
// last line" (engine.RewardComputer.LinesLeftOut); nil for none.
func LinesLeftOut(paths []string, lastStep map[string]int64) map[int64]string {
	return byLastStep(paths, lastStep, func(path string) string { return path + "'s unfinished last line" })
}

// byLastStep returns why(path) for each file of paths at the step of its
// last row read (lastStep), a later file's over an earlier one's of the
// same step; nil when no file of paths has a row read.
func byLastStep(paths []string, lastStep map[string]int64, why func(path string) string) map[int64]string {
	var out map[int64]string
	for _, path := range paths {
		step, ok := lastStep[path]
		if !ok {
			continue
		}
		if out == nil {
			out = map[int64]string{}
		}
		out[step] = why(path)
	}
	return out
}

// LastLinesLeftOut returns the paths of files whose last line alone was
// left out (not Whole).
func LastLinesLeftOut(files []Unfinished) []string {
	var paths []string
	for _, u := range files {
		if !u.Whole {
			paths = append(paths, u.Path)
		}
	}
	return paths
}

// StillWritten returns, per step, why that step's numbers may not stand:
// a file of paths (the unfinished ones whose last line alone the reading
// left out, LastLinesLeftOut) ended after a row of that step (lastStep,
// NoteLastSteps), so the run is probably still writing that step: "PATH
// ends in an unfinished line, left out: its run is probably still writing
// it". nil for none.
func StillWritten(paths []string, lastStep map[string]int64) map[int64]string {
	return byLastStep(paths, lastStep, func(path string) string {
		return path + " ends in an unfinished line, left out: its run is probably still writing it"
	})
}
