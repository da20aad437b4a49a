// Command geninputs writes the same trajectories in each input format of
// scripts/bench-inputs.sh: JSONL, CSV, a JSON array and Parquet, the
// rows of scripts/seed_pareto.py gen (an ID, batch 0, a group of
// GROUP rows, a step count, a short response and M objectives o1..oM in
// [0, 1)), from a fixed seed.
//
//	geninputs [-n N] [-m M] [-group-size G] [-parquet-flat] [-parquet-row-group R] DIR
//
// writes DIR/in.jsonl, DIR/in.csv, DIR/in.json and DIR/in.parquet. In
// CSV the objectives are columns of their own (the other columns go to
// the metadata); in Parquet they are a metadata struct, or with
// -parquet-flat top-level columns as pandas' to_parquet writes a flat
// table. Parquet's row groups hold R rows (128k by default; pyarrow's
// writer puts up to 1Mi rows in one).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

func main() {
	n := flag.Int("n", 1_000_000, "rows")
	m := flag.Int("m", 2, "objectives")
	groupSize := flag.Int("group-size", 8, "rows per group")
	flag.BoolVar(&parquetFlat, "parquet-flat", false, "Parquet objectives as top-level columns, not a metadata struct")
	flag.IntVar(&parquetRowGroup, "parquet-row-group", 128<<10, "rows per Parquet row group")
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 || *m < 1 || *groupSize < 1 || parquetRowGroup < 1 {
		fmt.Fprintln(os.Stderr, "usage: geninputs [-n N] [-m M] [-group-size G] [-parquet-flat] [-parquet-row-group R] DIR")
		os.Exit(2)
	}
	if err := generate(flag.Arg(0), *n, *m, *groupSize); err != nil {
		fmt.Fprintln(os.Stderr, "geninputs:", err)
		os.Exit(1)
	}
}

// The Parquet file's shape (flags).
var (
	parquetFlat     bool
	parquetRowGroup int
)

// row is one trajectory, its objectives in o.
type row struct {
	id, group, response string
	steps               int
	o                   []float64
}

func generate(dir string, n, m, groupSize int) error {
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([]row, n)
	for i := range rows {
		o := make([]float64, m)
		for k := range o {
			o[k] = r.Float64()
		}
		rows[i] = row{
			id:       "t" + strconv.Itoa(i),
			group:    "g" + strconv.Itoa(i/groupSize),
			response: fmt.Sprintf("The answer is %d.", i%97),
			steps:    1 + r.IntN(15),
			o:        o,
		}
	}
	for _, w := range []struct {
		name  string
		write func(*bufio.Writer, []row) error
	}{{"in.jsonl", writeJSONL}, {"in.csv", writeCSV}, {"in.json", writeJSONArray}, {"in.parquet", writeParquet}} {
		if err := writeFile(filepath.Join(dir, w.name), rows, w.write); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, rows []row, write func(*bufio.Writer, []row) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w, rows); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// object appends row's JSON object, the fields in the order seed_pareto.py
// writes them.
func object(b []byte, t row) []byte {
	b = append(b, `{"id": "`...)
	b = append(b, t.id...)
	b = append(b, `", "batch": 0, "group": "`...)
	b = append(b, t.group...)
	b = append(b, `", "step_count": `...)
	b = strconv.AppendInt(b, int64(t.steps), 10)
	b = append(b, `, "response": "`...)
	b = append(b, t.response...)
	b = append(b, `", "metadata": {`...)
	for k, v := range t.o {
		if k > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `"o`...)
		b = strconv.AppendInt(b, int64(k+1), 10)
		b = append(b, `": `...)
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	return append(b, "}}"...)
}

func writeJSONL(w *bufio.Writer, rows []row) error {
	var b []byte
	for _, t := range rows {
		b = append(object(b[:0], t), '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func writeJSONArray(w *bufio.Writer, rows []row) error {
	var b []byte
	w.WriteString("[\n")
	for i, t := range rows {
		b = object(b[:0], t)
		if i < len(rows)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err := w.WriteString("]\n")
	return err
}

func writeCSV(w *bufio.Writer, rows []row) error {
	w.WriteString("id,batch,group,step_count,response")
	for k := range rows[0].o {
		fmt.Fprintf(w, ",o%d", k+1)
	}
	w.WriteString("\n")
	var b []byte
	for _, t := range rows {
		b = append(b[:0], t.id...)
		b = append(b, ",0,"...)
		b = append(b, t.group...)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(t.steps), 10)
		b = append(b, ',')
		b = append(b, t.response...)
		for _, v := range t.o {
			b = append(b, ',')
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// writeParquet writes rows with parquet-go's defaults but for row groups
// of parquetRowGroup rows: by default several groups, as a trainer's
// writer makes for a large table.
func writeParquet(w *bufio.Writer, rows []row) error {
	fields := parquet.Group{
		"id":         parquet.String(),
		"batch":      parquet.Int(64),
		"group":      parquet.String(),
		"step_count": parquet.Int(64),
		"response":   parquet.String(),
	}
	meta := fields
	if !parquetFlat {
		meta = parquet.Group{}
		fields["metadata"] = meta
	}
	for k := range rows[0].o {
		meta["o"+strconv.Itoa(k+1)] = parquet.Leaf(parquet.DoubleType)
	}
	schema := parquet.NewSchema("trajectory", fields)
	pw := parquet.NewGenericWriter[any](w, schema, parquet.MaxRowsPerRowGroup(int64(parquetRowGroup)), parquet.Compression(&parquet.Snappy))
	m := len(rows[0].o)
	buf := make([]parquet.Row, 0, 1024)
	for i, t := range rows {
		// Columns in the schema's order: its names sorted (batch, group,
		// id, metadata.o1.. or o1.., response, step_count); o1..o9 sort
		// between id and response either way.
		r := parquet.Row{
			parquet.Int64Value(0).Level(0, 0, 0),
			parquet.ByteArrayValue([]byte(t.group)).Level(0, 0, 1),
			parquet.ByteArrayValue([]byte(t.id)).Level(0, 0, 2),
		}
		for k, v := range t.o {
			r = append(r, parquet.DoubleValue(v).Level(0, 0, 3+k))
		}
		r = append(r,
			parquet.ByteArrayValue([]byte(t.response)).Level(0, 0, 3+m),
			parquet.Int64Value(int64(t.steps)).Level(0, 0, 4+m))
		buf = append(buf, r)
		if len(buf) == cap(buf) || i == len(rows)-1 {
			if _, err := pw.WriteRows(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return pw.Close()
}
