package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"github.com/parquet-go/parquet-go"
)

// trlFixtures is scripts/trl_fixtures.py's output: TRL's completions
// tables in several settings, each column's values as log() hands them to
// pandas, with the advantage TRL's own code computed.
type trlFixtures struct {
	Fixtures []struct {
		Name    string
		Step    int
		Columns []trlColumn
	}
}

// trlColumn is one column of a table: its name, its pandas dtype as
// to_parquet writes it (int64, string, double) and its values, null where
// pandas has None or NaN.
type trlColumn struct {
	Name   string
	Type   string
	Values []json.RawMessage
}

// writeTRLFixtures writes each fixture of the JSON file src as
// dir/NAME/completions/completions_{step:05d}.parquet.
func writeTRLFixtures(src, dir string) error {
	text, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var all trlFixtures
	if err := json.Unmarshal(text, &all); err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	for _, f := range all.Fixtures {
		data, err := trlTable(f.Columns)
		if err != nil {
			return fmt.Errorf("%s: fixture %s: %w", src, f.Name, err)
		}
		path := filepath.Join(dir, f.Name, "completions", fmt.Sprintf("completions_%05d.parquet", f.Step))
		if err := writeFile(path, data); err != nil {
			return err
		}
	}
	return nil
}

// trlGoTypes are the Go types of the pandas dtypes, pointers as pandas
// writes every column nullable.
var trlGoTypes = map[string]reflect.Type{
	"int64":  reflect.TypeFor[*int64](),
	"string": reflect.TypeFor[*string](),
	"double": reflect.TypeFor[*float64](),
}

// trlTable returns the Parquet file of the columns, in their order: a
// struct type made for them keeps the order, as a DataFrame's to_parquet
// does.
func trlTable(columns []trlColumn) ([]byte, error) {
	fields := make([]reflect.StructField, len(columns))
	for i, c := range columns {
		t, ok := trlGoTypes[c.Type]
		if !ok {
			return nil, fmt.Errorf("column %s: type %q", c.Name, c.Type)
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: t, Tag: reflect.StructTag(fmt.Sprintf(`parquet:"%s,optional"`, c.Name))}
	}
	rowType := reflect.StructOf(fields)
	n := len(columns[0].Values)
	rows := make([]any, n)
	for r := range n {
		row := reflect.New(rowType).Elem()
		for i, c := range columns {
			if len(c.Values) != n {
				return nil, fmt.Errorf("column %s: %d values, want %d", c.Name, len(c.Values), n)
			}
			v := reflect.New(fields[i].Type.Elem())
			if string(c.Values[r]) == "null" {
				continue
			}
			if err := json.Unmarshal(c.Values[r], v.Interface()); err != nil {
				return nil, fmt.Errorf("column %s, row %d: %w", c.Name, r, err)
			}
			row.Field(i).Set(v)
		}
		rows[r] = row.Interface()
	}
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, parquet.SchemaOf(reflect.New(rowType).Elem().Interface()))
	for _, row := range rows {
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
