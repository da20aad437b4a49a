package parquetread

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/rewardlens/rewardlens/loaders/internal/csvread"
	"github.com/rewardlens/rewardlens/loaders/internal/input"
)

// parquetPlan says what each leaf column of a Parquet file holds, found
// once from the schema (the fields' columns by name, as in CSV:
// docs/CONTRACT.md, Trajectories).
type parquetPlan struct {
	// columns are indexed by leaf column index.
	columns []parquetColumn
	// metaDef is the definition level at which the metadata group is
	// present: its members' values below it mean a null metadata.
	metaDef int
}

// columnRole is what a leaf column holds.
type columnRole int

const (
	roleIgnored  columnRole = iota // nested or repeated columns of no field
	roleField                      // a trajectory field, csvread.CellFields[field]
	roleFlat                       // a top-level column: metadata[name]
	roleMember                     // a member of a metadata struct: metadata[name]
	roleMapKey                     // the keys of a metadata map
	roleMapValue                   // the values of a metadata map
)

// parquetColumn is one leaf column of the plan.
type parquetColumn struct {
	role  columnRole
	field int    // roleField: the index in csvread.CellFields
	name  string // roleFlat, roleMember: the metadata key
	// scalar reads a value that is not null; number, for roleFlat and
	// roleMember columns of numbers, reads it as metadataValue converts
	// scalar's value (nil for other types).
	scalar func(parquet.Value) any
	number func(parquet.Value) float64
	// text reports that the column's values are read as text (BYTE_ARRAY,
	// FIXED_LEN_BYTE_ARRAY), held to UTF-8 (utf8Error); path names it in
	// that error.
	text bool
	path string
}

// utf8Error returns the error of the first value of vs, values of the
// column c, that is read as text and is not valid UTF-8, "" when none is:
// as in the text formats, such text is not read as U+FFFD, which would
// make distinct strings (two groups written in Latin-1) one. A value of
// another kind in a text column panics (byteArray), as reading it would.
func (c *parquetColumn) utf8Error(vs []parquet.Value) string {
	if !c.text {
		return ""
	}
	for _, v := range vs {
		if v.IsNull() {
			continue
		}
		if b := byteArray(v); !utf8.Valid(b) {
			return c.invalidText(string(b))
		}
	}
	return ""
}

// invalidText is the error of the column's value s, text that is not
// UTF-8: the column, and the first bad byte's place in s (1-based).
func (c *parquetColumn) invalidText(s string) string {
	i := input.FirstInvalidUTF8([]byte(s))
	return fmt.Sprintf("column %s, byte %d: %s", c.path, i+1, input.InvalidUTF8(s[i]))
}

// textColumn returns whether col's values are text, held to UTF-8, and
// its path in the schema, dotted, for messages. Text is what the schema
// annotates as such (STRING, JSON, ENUM, or the legacy UTF8, JSON, ENUM
// converted types): a binary column (a BYTE_ARRAY without annotation, a
// UUID, a FLOAT16, a decimal) holds bytes, read as they are.
func textColumn(col parquet.LeafColumn, path ...string) (bool, string) {
	typ := col.Node.Type()
	text := false
	if lt := typ.LogicalType(); lt != nil {
		switch lt.Value.(type) {
		case *format.StringType, *format.JsonType, *format.EnumType:
			text = true
		}
	}
	if ct := typ.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.UTF8, deprecated.Json, deprecated.Enum:
			text = true
		}
	}
	return text, strings.Join(path, ".")
}

// newParquetPlan reads the plan from the schema. A trajectory field that is
// not a single scalar, or a metadata column that is neither a struct of
// scalars, a map of strings to scalars nor JSON text, is an error. Other
// columns go to the metadata, like CSV's, when they are scalars of a
// supported type, and are ignored otherwise (lists, structs, INT96
// timestamps), as JSON ignores unknown fields.
func newParquetPlan(schema *parquet.Schema) (*parquetPlan, error) {
	p := &parquetPlan{columns: make([]parquetColumn, len(schema.Columns()))}
	for _, f := range schema.Fields() {
		var err error
		switch {
		case f.Name() == "metadata":
			err = p.metadata(schema, f)
		case csvread.CellFieldIndex(f.Name()) >= 0:
			err = p.field(schema, f)
		default:
			p.flat(schema, f)
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name(), err)
		}
	}
	return p, nil
}

// leaf returns the leaf column at path and how to read it, or an error when
// it is not a single scalar of a supported type.
func leaf(schema *parquet.Schema, path ...string) (col parquet.LeafColumn, scalar func(parquet.Value) any, err error) {
	col, found := schema.Lookup(path...)
	if !found || col.MaxRepetitionLevel > 0 {
		return col, nil, fmt.Errorf("must be a single value, not a list or a group")
	}
	scalar, err = scalarReader(col.Node.Type())
	return col, scalar, err
}

// field plans the column of a trajectory field (but metadata).
func (p *parquetPlan) field(schema *parquet.Schema, f parquet.Field) error {
	col, scalar, err := leaf(schema, f.Name())
	if err != nil {
		return err
	}
	c := parquetColumn{role: roleField, field: csvread.CellFieldIndex(f.Name()), scalar: scalar}
	c.text, c.path = textColumn(col, f.Name())
	p.columns[col.ColumnIndex] = c
	return nil
}

// flat plans a top-level column of no field: a metadata value.
func (p *parquetPlan) flat(schema *parquet.Schema, f parquet.Field) {
	if col, scalar, err := leaf(schema, f.Name()); err == nil {
		c := parquetColumn{role: roleFlat, name: f.Name(), scalar: scalar, number: numberReader(col.Node.Type())}
		c.text, c.path = textColumn(col, f.Name())
		p.columns[col.ColumnIndex] = c
	}
}

// metadata plans the metadata column: JSON text, a map or a struct.
func (p *parquetPlan) metadata(schema *parquet.Schema, f parquet.Field) error {
	if f.Repeated() {
		return fmt.Errorf("must be a struct, a map or JSON text, not a list")
	}
	if f.Leaf() {
		if f.Type().Kind() != parquet.ByteArray {
			return fmt.Errorf("must be a struct, a map or JSON text, found %s", f.Type())
		}
		return p.field(schema, f)
	}
	if f.Optional() {
		p.metaDef = 1
	}
	if kv := mapEntries(f); kv != nil {
		return p.metadataMap(schema, f, kv)
	}
	for _, m := range f.Fields() {
		col, scalar, err := leaf(schema, f.Name(), m.Name())
		if err != nil {
			return fmt.Errorf("member %s: %w", m.Name(), err)
		}
		c := parquetColumn{role: roleMember, name: m.Name(), scalar: scalar, number: numberReader(col.Node.Type())}
		c.text, c.path = textColumn(col, f.Name(), m.Name())
		p.columns[col.ColumnIndex] = c
	}
	return nil
}

// mapEntries returns the repeated key-value group of a map, nil when f is
// not one: a group (logical type MAP, or the legacy MAP_KEY_VALUE) of one
// repeated group of a key and a value.
func mapEntries(f parquet.Field) parquet.Field {
	fields := f.Fields()
	if len(fields) != 1 || !fields[0].Repeated() || fields[0].Leaf() || len(fields[0].Fields()) != 2 {
		return nil
	}
	return fields[0]
}

// metadataMap plans a metadata map: string keys, scalar values.
func (p *parquetPlan) metadataMap(schema *parquet.Schema, f, kv parquet.Field) error {
	key, value := kv.Fields()[0], kv.Fields()[1]
	keyCol, ok := schema.Lookup(f.Name(), kv.Name(), key.Name())
	if !ok || keyCol.Node.Type().Kind() != parquet.ByteArray {
		return fmt.Errorf("a map's keys must be strings")
	}
	valueCol, ok := schema.Lookup(f.Name(), kv.Name(), value.Name())
	if !ok || valueCol.MaxRepetitionLevel != keyCol.MaxRepetitionLevel {
		return fmt.Errorf("a map's values must be numbers, strings, bools or null, not lists or groups")
	}
	scalar, err := scalarReader(valueCol.Node.Type())
	if err != nil {
		return err
	}
	keys := parquetColumn{role: roleMapKey, scalar: parquetString}
	keys.text, keys.path = textColumn(keyCol, f.Name(), kv.Name(), key.Name())
	values := parquetColumn{role: roleMapValue, scalar: scalar}
	values.text, values.path = textColumn(valueCol, f.Name(), kv.Name(), value.Name())
	p.columns[keyCol.ColumnIndex] = keys
	p.columns[valueCol.ColumnIndex] = values
	return nil
}

// scalarReader returns how to read a value of typ as bool, int64, uint64,
// float64 or string; INT96 (a legacy timestamp) is not supported.
func scalarReader(typ parquet.Type) (func(parquet.Value) any, error) {
	var logical any
	if lt := typ.LogicalType(); lt != nil {
		logical = lt.Value
	}
	switch typ.Kind() {
	case parquet.Boolean:
		return func(v parquet.Value) any { return v.Boolean() }, nil
	case parquet.Int32:
		return int32Reader(logical), nil
	case parquet.Int64:
		return int64Reader(logical), nil
	case parquet.Float:
		return func(v parquet.Value) any { return float64(v.Float()) }, nil
	case parquet.Double:
		return func(v parquet.Value) any { return v.Double() }, nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return parquetString, nil
	}
	return nil, fmt.Errorf("type %s is not supported", strings.ToUpper(typ.String()))
}

// numberReader returns how to read a value of typ, a number, as float64:
// the value metadataValue makes of scalarReader's; nil when typ is not a
// number. (No value is boxed: picked metadata reads a million of them.)
func numberReader(typ parquet.Type) func(parquet.Value) float64 {
	var logical any
	if lt := typ.LogicalType(); lt != nil {
		logical = lt.Value
	}
	decimal, _ := logical.(*format.DecimalType)
	integer, _ := logical.(*format.IntType)
	unsigned := integer != nil && !integer.IsSigned
	switch kind := typ.Kind(); {
	case (kind == parquet.Int32 || kind == parquet.Int64) && decimal != nil:
		scale := math.Pow10(int(decimal.Scale))
		if kind == parquet.Int32 {
			return func(v parquet.Value) float64 { return float64(v.Int32()) / scale }
		}
		return func(v parquet.Value) float64 { return float64(v.Int64()) / scale }
	case kind == parquet.Int32 && unsigned:
		return func(v parquet.Value) float64 { return float64(uint32(v.Int32())) }
	case kind == parquet.Int32:
		return func(v parquet.Value) float64 { return float64(v.Int32()) }
	case kind == parquet.Int64 && unsigned:
		return func(v parquet.Value) float64 { return float64(v.Uint64()) }
	case kind == parquet.Int64:
		return func(v parquet.Value) float64 { return float64(v.Int64()) }
	case kind == parquet.Float:
		return func(v parquet.Value) float64 { return float64(v.Float()) }
	case kind == parquet.Double:
		return func(v parquet.Value) float64 { return v.Double() }
	case kind == parquet.Boolean:
		return func(v parquet.Value) float64 {
			if v.Boolean() {
				return 1
			}
			return 0
		}
	}
	return nil
}

// pickable reports whether the plan's rows can be read with their metadata
// picked (parquetReader.pickedRow): its metadata is flat columns and a
// struct's members, no name given by both; a map or JSON text may hold
// any key, and a name given twice is the row's error, which the metadata
// map finds.
func (p *parquetPlan) pickable() bool {
	names := map[string]bool{}
	for _, c := range p.columns {
		switch {
		case c.role == roleMapKey || c.role == roleMapValue:
			return false
		case c.role == roleField && csvread.CellFields[c.field].Name == "metadata":
			return false
		case c.role == roleFlat || c.role == roleMember:
			if names[c.name] {
				return false
			}
			names[c.name] = true
		}
	}
	return true
}

// parquetString reads a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value as text.
func parquetString(v parquet.Value) any { return string(byteArray(v)) }

// byteArray returns the bytes of v, which must be of a byte array kind: a
// corrupt page can make parquet-go give a value of another kind in a byte
// array column, whose ByteArray builds a slice from no pointer (a fatal
// error under the race detector's pointer checks, not a panic). That is
// a panic here, which the reading turns into the file's error (collect).
func byteArray(v parquet.Value) []byte {
	if k := v.Kind(); k != parquet.ByteArray && k != parquet.FixedLenByteArray {
		panic(fmt.Sprintf("a %s value in a column of byte arrays", k))
	}
	return v.ByteArray()
}

// int32Reader reads INT32 values: signed, unsigned or decimal.
func int32Reader(logical any) func(parquet.Value) any {
	switch t := logical.(type) {
	case *format.DecimalType:
		scale := math.Pow10(int(t.Scale))
		return func(v parquet.Value) any { return float64(v.Int32()) / scale }
	case *format.IntType:
		if !t.IsSigned {
			return func(v parquet.Value) any { return int64(uint32(v.Int32())) }
		}
	}
	return func(v parquet.Value) any { return int64(v.Int32()) }
}

// int64Reader reads INT64 values: signed, unsigned or decimal.
func int64Reader(logical any) func(parquet.Value) any {
	switch t := logical.(type) {
	case *format.DecimalType:
		scale := math.Pow10(int(t.Scale))
		return func(v parquet.Value) any { return float64(v.Int64()) / scale }
	case *format.IntType:
		if !t.IsSigned {
			return func(v parquet.Value) any { return v.Uint64() }
		}
	}
	return func(v parquet.Value) any { return v.Int64() }
}
