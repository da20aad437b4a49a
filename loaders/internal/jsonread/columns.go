package jsonread

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
)

// IntegerRows bounds the rows an IntegerScan reads.
const IntegerRows = 64

// IntegerScan finds, over the first rows of a table, the columns whose
// values are all numbers written without a fraction or an exponent (a
// null aside, one at least), when those rows also write an integral
// number with a fraction (1.0): a writer that keeps Python's ints and
// floats apart, as json, wandb and pandas do, so that such a column is of
// ints. It finds none when the writer drops the fraction (Go's
// encoding/json writes 1.0 as 1).
type IntegerScan struct {
	integer, seen []bool
	keepsFloats   bool
}

// NewIntegerScan returns the scan of a table of n columns.
func NewIntegerScan(n int) *IntegerScan {
	s := &IntegerScan{integer: make([]bool, n), seen: make([]bool, n)}
	for i := range s.integer {
		s.integer[i] = true
	}
	return s
}

// Add reads v, the text of a value of column i: a JSON value, or a CSV
// cell (empty for a null).
func (s *IntegerScan) Add(i int, v []byte) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return
	}
	isNumber := v[0] == '-' || v[0] >= '0' && v[0] <= '9'
	whole := isNumber && !bytes.ContainsAny(v, ".eE")
	s.integer[i] = s.integer[i] && whole
	s.seen[i] = true
	if dot := bytes.IndexByte(v, '.'); isNumber && dot > 0 && !bytes.ContainsAny(v, "eE") && len(bytes.Trim(v[dot+1:], "0")) == 0 {
		s.keepsFloats = true
	}
}

// Integers returns the columns of ints among columns, the table's.
func (s *IntegerScan) Integers(columns []string) []string {
	if !s.keepsFloats {
		return nil
	}
	var out []string
	for i, col := range columns {
		if s.integer[i] && s.seen[i] {
			out = append(out, col)
		}
	}
	return out
}

// maxColumnsLine bounds a line JSONLColumns reads: a record longer is left
// unread (the load says what it makes of it).
const maxColumnsLine = 64 << 20

// JSONLColumns returns the keys of the first record of the JSONL text br
// holds, in the record's order, and those of ints among them (an
// IntegerScan of its first IntegerRows records): pandas' to_json(orient=
// "records", lines=True) writes a DataFrame's columns in its order, as a
// W&B table's "columns" keep it (TRL's rewards, then its log_extra
// columns). nil when the first record is not a JSON object, cannot be
// read (the load says why) or has a "metadata" object, whose members are
// fields of the record in no order among the others'.
func JSONLColumns(br *bufio.Reader) (columns, integers []string) {
	var keys recordKeys
	var long []byte
	for rows := 0; rows < IntegerRows; {
		line, _, err := readLine(br, &long, maxColumnsLine)
		if len(bytes.TrimSpace(line)) > 0 {
			obj, lineErr := DecodeObject(line)
			if lineErr != nil {
				break
			}
			rows++
			if !keys.add(obj) {
				return nil, nil
			}
		}
		if err != nil {
			break
		}
	}
	return keys.result()
}

// JSONColumns is JSONLColumns of a JSON array of records (pandas'
// to_json(orient="records")): the keys of its first element in order,
// those of ints among its first IntegerRows elements. nil when the text
// is not an array of objects or cannot be read by encoding/json (a NaN
// written as Python's json writes it: the load reads it, with no column
// order told).
func JSONColumns(br *bufio.Reader) (columns, integers []string) {
	dec := json.NewDecoder(br)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, nil
	}
	var keys recordKeys
	for rows := 0; rows < IntegerRows && dec.More(); rows++ {
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			break
		}
		obj, lineErr := DecodeObject(raw)
		if lineErr != nil {
			break
		}
		if !keys.add(obj) {
			return nil, nil
		}
	}
	return keys.result()
}

// recordKeys are the keys of the first record of JSONLColumns or
// JSONColumns, in order, and the IntegerScan of the records added.
type recordKeys struct {
	columns []string
	index   map[string]int
	scan    *IntegerScan
}

// add adds the record obj, its keys the columns when it is the first;
// false when that first record gives no order (objectKeys).
func (k *recordKeys) add(obj jsonText) bool {
	if k.scan == nil {
		if k.columns = objectKeys(obj); k.columns == nil {
			return false
		}
		k.index = make(map[string]int, len(k.columns))
		for i, col := range k.columns {
			k.index[col] = i
		}
		k.scan = NewIntegerScan(len(k.columns))
	}
	k.scan.addObject(obj, k.index)
	return true
}

// result returns the columns and those of ints, nil when no record was
// added.
func (k *recordKeys) result() (columns, integers []string) {
	if k.scan == nil {
		return nil, nil
	}
	return k.columns, k.scan.Integers(k.columns)
}

// addObject adds the values of obj, a record, to the scan, by the index of
// each key among the table's columns (a key not among them left out).
func (s *IntegerScan) addObject(obj jsonText, index map[string]int) {
	obj.eachMember(func(key, value []byte) {
		if i, ok := index[unquote(key)]; ok {
			s.Add(i, value)
		}
	})
}

// objectKeys returns the keys of obj, a record DecodeObject read, in
// order, each once; nil when obj has a "metadata" object.
func objectKeys(obj jsonText) []string {
	var keys []string
	ok := true
	obj.eachMember(func(key, value []byte) {
		name := unquote(key)
		if name == "metadata" && bytes.HasPrefix(bytes.TrimSpace(value), []byte("{")) {
			ok = false
		}
		if !slices.Contains(keys, name) {
			keys = append(keys, name)
		}
	})
	if !ok || keys == nil {
		return nil
	}
	return keys
}
