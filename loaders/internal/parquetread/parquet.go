// Package parquetread reads Parquet files: a trajectory per row, the
// trajectory fields' columns by name, set as CSV's cells are, and the
// metadata from a metadata column or the other columns.
package parquetread

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders/internal/csvread"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
	"github.com/rewardlens/rewardlens/loaders/internal/jsonread"
)

// MaxStream is the most a Parquet input of unknown size (a stream)
// may hold: it is read whole into memory. (A variable for the tests.)
var MaxStream int64 = 1 << 30

// Read reads a Parquet file, one trajectory per row: the columns of
// the fields of docs/CONTRACT.md, Trajectories, by name; metadata either
// from a column called metadata
// (a struct of scalars, a map of strings to scalars, or JSON text) or, as
// in CSV, from every other top-level scalar column (see newParquetPlan).
// A null is an absent field, or a null metadata value. A row's "line" in
// messages and Trajectory.Line is its 1-based number in the file.
//
// A regular file is read in place (loaders' readParquetFile). Any other input
// is read whole into memory first: Parquet's footer, at its end, says
// where the columns are, and a stream (standard input) cannot seek.
//
// A stream (no size known: standard input, a pipe, a gzip file) is read up
// to MaxStream bytes, and must start as Parquet does ("PAR1"), so
// that random bytes or an endless stream end at once, not in memory.
func Read(l *input.Loader, r io.Reader) error {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(input.ParquetMagic))
	if len(head) == 0 && err == io.EOF {
		return nil // as for an empty text file: no trajectories
	}
	if !bytes.Equal(head, input.ParquetMagic) {
		return fmt.Errorf("%s: not a Parquet file: it does not start with %q", l.Name, input.ParquetMagic)
	}
	var src io.Reader = br
	if l.SizeHint <= 0 {
		src = io.LimitReader(br, MaxStream+1)
	}
	data, err := ReadPieces(src, l.SizeHint)
	if err != nil {
		return fmt.Errorf("%s: read: %w", l.Name, err)
	}
	if l.SizeHint <= 0 && data.Size > MaxStream {
		return fmt.Errorf("%s: a Parquet stream longer than %d MiB: Parquet is read whole (its footer is at the end); save it to a file and read that", l.Name, MaxStream>>20)
	}
	return ReadAt(l, data, data.Size)
}

// ReadAt reads the Parquet file of size bytes that r holds: its
// footer, then its row groups' rows, up to the loader's RowLimit. Bytes that
// are not what they claim (a corrupt file) can make parquet-go panic: its
// panics are the file's error, "PATH: corrupt Parquet file ...", never the
// process's end; the trajectories' own handling is outside that guard.
func ReadAt(l *input.Loader, r io.ReaderAt, size int64) error {
	_, err := readAt(l, r, size)
	return err
}

// PeekAt reads the Parquet file of size bytes that r holds as ReadAt
// does, and returns its top-level columns in the file's order and those
// of them that are FLOAT or DOUBLE, sorted: what a trainer's layout is
// recognised by, from the footer the rows were read by.
func PeekAt(l *input.Loader, r io.ReaderAt, size int64) (columns, floats []string, err error) {
	f, err := readAt(l, r, size)
	if err != nil {
		return nil, nil, err
	}
	for _, field := range f.Schema().Fields() {
		columns = append(columns, field.Name())
		if !field.Leaf() {
			continue
		}
		if k := field.Type().Kind(); k == parquet.Float || k == parquet.Double {
			floats = append(floats, field.Name())
		}
	}
	slices.Sort(floats)
	return columns, floats, nil
}

// readAt is ReadAt, returning the file it opened.
func readAt(l *input.Loader, r io.ReaderAt, size int64) (*parquet.File, error) {
	var (
		f    *parquet.File
		plan *parquetPlan
	)
	err := guard(l.Name, func() (err error) {
		f, err = openChecked(r, size)
		if err != nil {
			return fmt.Errorf("%s: %w", l.Name, err)
		}
		if plan, err = newParquetPlan(f.Schema()); err != nil {
			return fmt.Errorf("%s: %w", l.Name, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if l.RowLimit == 0 {
		return f, readParquetRows(l, f, plan)
	}
	pr := &parquetReader{l: l, plan: plan}
	for i, rg := range f.RowGroups() {
		if l.Full() {
			return f, nil
		}
		if err := pr.rowGroup(rg); err != nil {
			return f, err
		}
		if l.Advance != nil {
			n := rowGroupBytes(f, i)
			l.Advanced += n
			l.Advance(n)
		}
	}
	return f, nil
}

// openChecked opens the Parquet file of size bytes that r holds, once
// its footer's length and its column chunks' places are checked against
// the size: parquet-go makes a buffer of the length the footer claims (4
// GiB for a corrupt length) before it reads, and reads a column chunk
// where its metadata says.
// The errors are "not a Parquet file: ..." but for a page past the page
// bounds (checkPages).
func openChecked(r io.ReaderAt, size int64) (*parquet.File, error) {
	f, err := openFooter(r, size)
	if err != nil {
		return nil, err
	}
	for i, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			start, n := c.MetaData.DataPageOffset, c.MetaData.TotalCompressedSize
			if c.MetaData.DictionaryPageOffset > 0 {
				start = min(start, c.MetaData.DictionaryPageOffset)
			}
			where := fmt.Sprintf("row group %d, column %s", i+1, strings.Join(c.MetaData.PathInSchema, "."))
			if start < 0 || n < 0 || start > size || n > size-start {
				return nil, fmt.Errorf("not a Parquet file: %s: %d bytes at %d, past the file's end (%d)", where, n, start, size)
			}
			if err := checkPages(r, start, start+n); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
		}
	}
	return f, nil
}

// openFooter opens the Parquet file of size bytes that r holds, reading
// its footer once its length is checked against the size (Open).
func openFooter(r io.ReaderAt, size int64) (*parquet.File, error) {
	var tail [8]byte
	if size < int64(len(input.ParquetMagic)+len(tail)) {
		return nil, fmt.Errorf("not a Parquet file: %d bytes, too short", size)
	}
	if _, err := r.ReadAt(tail[:], size-int64(len(tail))); err != nil {
		return nil, err
	}
	footer := int64(binary.LittleEndian.Uint32(tail[:4]))
	if !bytes.Equal(tail[4:], input.ParquetMagic) {
		return nil, fmt.Errorf("not a Parquet file: it does not end with %q", input.ParquetMagic)
	}
	if footer > size-int64(len(input.ParquetMagic)+len(tail)) {
		return nil, fmt.Errorf("not a Parquet file: its footer claims %d bytes, more than the file holds (%d)", footer, size)
	}
	f, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("not a Parquet file: %w", err)
	}
	return f, nil
}

// DataEnd returns where the row groups' column chunks of the Parquet file
// r, of size bytes, end: what follows (page indexes, the footer) is
// written again when a row group is added. It reads the footer alone,
// not the pages; its errors are Open's.
func DataEnd(r io.ReaderAt, size int64) (int64, error) {
	f, err := openFooter(r, size)
	if err != nil {
		return 0, err
	}
	end := int64(len(input.ParquetMagic))
	for _, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			start := c.MetaData.DataPageOffset
			if c.MetaData.DictionaryPageOffset > 0 {
				start = min(start, c.MetaData.DictionaryPageOffset)
			}
			end = max(end, start+c.MetaData.TotalCompressedSize)
		}
	}
	return min(end, size), nil // within the file, whatever a footer claims
}

// Bounds of a Parquet page, which parquet-go decodes whole as soon as one
// of its values is read: run-length encoding holds millions of values in a
// few bytes (a row bomb of 50M rows in 1.5 KB took 1.4 GB to read its
// first row), and a corrupt header may claim any size.
// (Variables for the tests.)
var (
	MaxPageValues int64 = 1 << 24
	maxPageBytes  int32 = 1 << 30
)

// checkPages reads the headers of the pages of the column chunk at
// [start, end) of r, and checks each against the page bounds and the
// chunk's end. A header is read from the first KiB after it, or 64 KiB
// when its statistics are longer.
func checkPages(r io.ReaderAt, start, end int64) error {
	var protocol thrift.CompactProtocol
	for off := start; off < end; {
		var (
			h        format.PageHeader
			consumed int64
			err      error
		)
		for _, look := range []int64{1 << 10, 64 << 10} {
			buf := make([]byte, min(look, end-off))
			if _, err = r.ReadAt(buf, off); err != nil && err != io.EOF {
				return err
			}
			br := bytes.NewReader(buf)
			h = format.PageHeader{}
			if err = thrift.NewDecoder(protocol.NewReader(br)).Decode(&h); err == nil {
				consumed = int64(len(buf) - br.Len())
				break
			}
		}
		if err != nil {
			return fmt.Errorf("not a Parquet file: page at %d: %w", off, err)
		}
		var values int64
		switch {
		case h.DataPageHeader.Valid:
			values = int64(h.DataPageHeader.V.NumValues)
		case h.DataPageHeaderV2.Valid:
			values = int64(h.DataPageHeaderV2.V.NumValues)
		case h.DictionaryPageHeader.Valid:
			values = int64(h.DictionaryPageHeader.V.NumValues)
		}
		switch {
		case values < 0 || h.CompressedPageSize < 0 || h.UncompressedPageSize < 0:
			return fmt.Errorf("not a Parquet file: page at %d: negative sizes", off)
		case values > MaxPageValues:
			return fmt.Errorf("a page of %d values, more than rewardlens decodes at once (%d): a row bomb?", values, MaxPageValues)
		case h.UncompressedPageSize > maxPageBytes:
			return fmt.Errorf("a page of %d bytes, more than rewardlens decodes at once (%d MiB)", h.UncompressedPageSize, maxPageBytes>>20)
		}
		off += consumed + int64(h.CompressedPageSize)
		if off > end {
			return fmt.Errorf("not a Parquet file: page at %d ends past its column chunk", off)
		}
	}
	return nil
}

// errCorruptParquet is the error of a file that parquet-go panics on.
var errCorruptParquet = errors.New("corrupt Parquet file")

// guard runs read, which calls parquet-go on the file called name,
// and returns its error, or the file's error when parquet-go panics.
func guard(name string, read func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: %w (parquet-go failed on it: %v)", name, errCorruptParquet, p)
		}
	}()
	return read()
}

// pieces is an input read whole, in pieces that are never copied into one
// buffer: io.ReadAll's doubling held up to 2.5 times a stream at the end
// (2.6 GB for a stream past the 1 GiB bound); these hold it once.
type pieces struct {
	parts [][]byte
	ends  []int64 // the offset after each part
	Size  int64
}

// FirstPiece and maxPiece are the sizes of the first piece of a stream,
// doubled up to the second: a small file costs little, a large one few
// pieces.
const (
	FirstPiece = 64 << 10
	maxPiece   = 16 << 20
)

// ReadPieces reads r to its end; sizeHint, the size when known, sizes the
// first piece to hold it all.
func ReadPieces(r io.Reader, sizeHint int64) (*pieces, error) {
	p := &pieces{}
	size := int64(FirstPiece)
	if sizeHint > 0 {
		size = sizeHint + 1 // +1: the end is seen in the first piece
	}
	for {
		buf := make([]byte, size)
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			p.Size += int64(n)
			p.parts = append(p.parts, buf[:n])
			p.ends = append(p.ends, p.Size)
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return p, nil
		case err != nil:
			return nil, err
		}
		size = min(2*size, maxPiece)
	}
}

// ReadAt is io.ReaderAt's.
func (p *pieces) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	n := 0
	for n < len(b) && off < p.Size {
		i := sort.Search(len(p.ends), func(i int) bool { return p.ends[i] > off })
		part := p.parts[i]
		k := copy(b[n:], part[len(part)-int(p.ends[i]-off):])
		n += k
		off += int64(k)
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// parquetReader reads the rows of one file, keeping its scratch space.
type parquetReader struct {
	l    *input.Loader
	plan *parquetPlan
	// rowNo is the number of rows read.
	rowNo int
	// The row being read: its field values (nil when null or absent), its
	// metadata members, and its metadata map's keys and values.
	fields     [len(csvread.CellFields)]any
	badText    string // the row's first text that is not UTF-8 (utf8Error)
	members    []parquetMember
	keys, vals []parquet.Value
	rows       []parquet.Row
	// block, when not nil, is where the rows go instead of the loader
	// (readParquetRows), sent to blocks until stop is closed; groupBytes
	// and groupRows are the row group's.
	block                 *input.Block
	blocks                chan<- *input.Block
	stop                  <-chan struct{}
	groupBytes, groupRows int64
	// scratch is where the row's trajectory is built, and spare the
	// reader's share of the loader's metadata maps (see input.MapStore).
	scratch scoring.Trajectory
	spare   []map[string]any
	// pickable is plan.pickable(); blockPick is the Pick the block's
	// metadata is picked by (nil: read into maps), and pickAt the index
	// in pickAtFor.Keys of each column's metadata key, or -1.
	pickable             bool
	blockPick, pickAtFor *scoring.Pick
	pickAt               []int
}

// parquetMember is a member of a metadata struct or map.
type parquetMember struct {
	key   string
	value any
}

// parquetBatch is how many rows are read at a time.
const parquetBatch = 256

// rowGroup reads the rows of rg, up to the loader's RowLimit in all.
func (pr *parquetReader) rowGroup(rg parquet.RowGroup) error {
	var rows parquet.Rows
	if err := guard(pr.l.Name, func() error { rows = rg.Rows(); return nil }); err != nil {
		return err
	}
	defer guard(pr.l.Name, rows.Close)
	if pr.rows == nil {
		pr.rows = make([]parquet.Row, parquetBatch)
	}
	for !pr.l.Full() {
		if err := pr.cancelled(); err != nil {
			return err
		}
		batch := pr.rows
		if pr.l.RowLimit > 0 {
			batch = batch[:min(len(batch), pr.l.RowLimit-pr.l.Count)]
		}
		var n int
		err := guard(pr.l.Name, func() (err error) {
			n, err = rows.ReadRows(batch)
			return err
		})
		if err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, errCorruptParquet) {
				return err
			}
			return fmt.Errorf("%s:%d: read: %w", pr.l.Name, pr.rowNo+n+1, err)
		}
		for _, row := range batch[:n] {
			pr.rowNo++
			if err := pr.row(row); err != nil {
				return err
			}
		}
		if err != nil {
			return nil // io.EOF
		}
	}
	return nil
}

// row reads the trajectory of row; a bad row is rejected.
func (pr *parquetReader) row(row parquet.Row) error {
	l := pr.l
	t := &pr.scratch // not a local: its address would make it escape
	if pr.block != nil && pr.blockPick != nil {
		return pr.pickedRow(row, t)
	}
	if pr.block != nil {
		*t = l.Trajectory(pr.rowNo, 0, l.Maps.Next(&pr.spare))
	} else {
		*t = l.NewTrajectory(pr.rowNo, 0)
	}
	if err := pr.collect(row, t.Metadata); err != nil {
		return err
	}
	if pr.badText != "" {
		if pr.block != nil {
			return pr.keep(nil, l.ErrorAt(pr.rowNo, 0, pr.badText))
		}
		return l.Reject(l.ErrorAt(pr.rowNo, 0, pr.badText))
	}
	if err := pr.apply(t); err != nil {
		if pr.block != nil {
			return pr.keep(nil, l.ErrorAt(pr.rowNo, 0, err.Error()))
		}
		return l.Reject(l.ErrorAt(pr.rowNo, 0, err.Error()))
	}
	if pr.block != nil {
		return pr.keep(t, nil)
	}
	return l.Add(*t)
}

// pickedRow reads the trajectory of row as row does, its metadata values
// of the block's Pick into the block's picked array, not a map, and its
// response only when the Pick asks for it.
func (pr *parquetReader) pickedRow(row parquet.Row, t *scoring.Trajectory) (err error) {
	l, b, pick := pr.l, pr.block, pr.blockPick
	k := len(pick.Keys)
	n := len(b.Trajectories)
	picked := b.Picked[n*k : (n+1)*k : (n+1)*k]
	clear(picked) // a rejected row's values are left for the next
	*t = l.Trajectory(pr.rowNo, 0, nil)
	t.Pick, t.Picked = pick, picked
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: %w (parquet-go failed on it: %v)", l.Name, errCorruptParquet, p)
		}
	}()
	clear(pr.fields[:])
	pr.badText = ""
	row.Range(func(col int, vs []parquet.Value) bool {
		c := &pr.plan.columns[col]
		if c.text && pr.badText == "" {
			pr.badText = c.utf8Error(vs) // every text column, read or not, as collect's
		}
		switch c.role {
		case roleField:
			if csvread.CellFields[c.field].Name != "response" || pick.Response {
				pr.fields[c.field] = c.read(vs[0])
			}
		case roleFlat, roleMember:
			at := pr.pickAt[col]
			if at < 0 || vs[0].IsNull() || (c.role == roleMember && vs[0].DefinitionLevel() < pr.plan.metaDef) {
				break
			}
			if c.number != nil {
				picked[at] = scoring.PickedValue{Number: c.number(vs[0]), Kind: scoring.PickedNumber}
				break
			}
			// A corrupt value's panic is the file's error.
			t.SetPickedOther(at, c.scalar(vs[0]))
		}
		return true
	})
	if pr.badText != "" {
		return pr.keep(nil, l.ErrorAt(pr.rowNo, 0, pr.badText))
	}
	for f, x := range pr.fields {
		if err := setParquetField(t, f, x); err != nil {
			return pr.keep(nil, l.ErrorAt(pr.rowNo, 0, fmt.Sprintf("%s: %v", csvread.CellFields[f].Name, err)))
		}
	}
	return pr.keep(t, nil)
}

// startBlock starts the block to fill, its metadata picked when the
// loader picks it by now and the plan allows (pickable).
func (pr *parquetReader) startBlock() {
	pr.block = &input.Block{Trajectories: make([]scoring.Trajectory, 0, BlockRows)}
	pr.blockPick = nil
	pick := pr.l.Pick.Load()
	if pick == nil || !pr.pickable {
		return
	}
	if pick != pr.pickAtFor {
		pr.pickAtFor, pr.pickAt = pick, make([]int, len(pr.plan.columns))
		for col, c := range pr.plan.columns {
			pr.pickAt[col] = -1
			if c.role == roleFlat || c.role == roleMember {
				pr.pickAt[col] = slices.Index(pick.Keys, c.name)
			}
		}
	}
	pr.blockPick = pick
	pr.block.Picked = pr.l.Picks.Take(BlockRows * len(pick.Keys))
}

// collect reads the values of row: the flat metadata columns into meta,
// the rest into pr for apply, and the first text of the row that is not
// UTF-8 into pr.badText. A value parquet-go cannot read (it panics
// on some corrupt pages) is the file's error, as in guard.
func (pr *parquetReader) collect(row parquet.Row, meta map[string]any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: %w (parquet-go failed on it: %v)", pr.l.Name, errCorruptParquet, p)
		}
	}()
	clear(pr.fields[:])
	pr.badText = ""
	pr.members, pr.keys, pr.vals = pr.members[:0], nil, nil
	row.Range(func(col int, vs []parquet.Value) bool {
		c := &pr.plan.columns[col]
		switch c.role {
		case roleField:
			pr.fields[c.field] = pr.checked(c, c.read(vs[0]))
		case roleFlat:
			meta[c.name] = metadataValue(pr.checked(c, c.read(vs[0])))
		case roleMember:
			if vs[0].DefinitionLevel() >= pr.plan.metaDef { // else the struct is null
				pr.members = append(pr.members, parquetMember{c.name, metadataValue(pr.checked(c, c.read(vs[0])))})
			}
		case roleMapKey:
			pr.keys = vs
		case roleMapValue:
			pr.vals = vs
		}
		if c.text && pr.badText == "" && (c.role == roleMapKey || c.role == roleMapValue) {
			pr.badText = c.utf8Error(vs) // the empty entries' nulls too
		}
		return true
	})
	// A map has one key and one value per entry, or a null key (and
	// value) when empty or null.
	for i, k := range pr.keys {
		if !k.IsNull() && i < len(pr.vals) {
			pr.members = append(pr.members, parquetMember{string(byteArray(k)), metadataValue(pr.plan.columns[pr.vals[i].Column()].read(pr.vals[i]))})
		}
	}
	return nil
}

// checked returns x, a value of the column c, noting in pr.badText the
// error of a text value that is not UTF-8 when it is the row's first:
// the check of the text read (utf8Error's, without reading it twice).
func (pr *parquetReader) checked(c *parquetColumn, x any) any {
	if s, ok := x.(string); ok && c.text && pr.badText == "" && !utf8.ValidString(s) {
		pr.badText = c.invalidText(s)
	}
	return x
}

// read returns the value v of the column, nil when null.
func (c *parquetColumn) read(v parquet.Value) any {
	if v.IsNull() {
		return nil
	}
	return c.scalar(v)
}

// apply sets the fields of t from what collect read, then the metadata
// members; a member that a flat column gives too is an error, as in CSV.
// The error names the field, or the metadata member.
func (pr *parquetReader) apply(t *scoring.Trajectory) error {
	for f, x := range pr.fields {
		if err := setParquetField(t, f, x); err != nil {
			if _, ok := err.(*jsonread.MemberError); ok {
				return err
			}
			return fmt.Errorf("%s: %w", csvread.CellFields[f].Name, err)
		}
	}
	for _, m := range pr.members {
		if _, dup := t.Metadata[m.key]; dup {
			return &jsonread.MemberError{Key: m.key, Err: errors.New("given both as a column and in the metadata column")}
		}
		t.Metadata[m.key] = m.value
	}
	return nil
}

// setParquetField sets csvread.CellFields[f] of t from x, as CSV sets it from the
// text of a cell; a response that is not a string is kept as the JSON
// number or bool it is.
func setParquetField(t *scoring.Trajectory, f int, x any) error {
	if _, isString := x.(string); csvread.CellFields[f].Name == "response" && x != nil && !isString {
		t.Response = json.RawMessage(scalarText(x))
		return nil
	}
	return csvread.CellFields[f].Set(t, scalarText(x))
}

// scalarText returns a scalar as the text of a CSV cell; nil is empty.
func scalarText(x any) string {
	switch v := x.(type) {
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	}
	return ""
}

// metadataValue returns a scalar as a metadata value: integers become
// float64, as every metadata number is.
func metadataValue(x any) any {
	switch v := x.(type) {
	case int64:
		return float64(v)
	case uint64:
		return float64(v)
	}
	return x
}
