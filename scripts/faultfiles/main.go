// Command faultfiles writes the Parquet inputs of scripts/faults.sh
// (issue 27): a row bomb, many rows of one repeated value in a file of
// kilobytes, and the corrupt files of the Parquet fuzz target's corpus.
//
//	faultfiles bomb ROWS OUT        ROWS rows of TRL completions' columns
//	faultfiles corpus DIR FILE...   the inputs of Go fuzz corpus files, as
//	                                DIR/NAME.parquet
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// completion has the columns of a TRL completions file
// (trl/trainer/grpo_trainer.py, log()).
type completion struct {
	Step       int64   `parquet:"step,dict"`
	Prompt     string  `parquet:"prompt,dict"`
	Completion string  `parquet:"completion,dict"`
	Accuracy   float64 `parquet:"accuracy,dict"`
	Advantage  float64 `parquet:"advantage,dict"`
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "faultfiles:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 3 && args[0] == "bomb":
		rows, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		return bomb(rows, args[2])
	case len(args) >= 2 && args[0] == "corpus":
		return corpus(args[1], args[2:])
	}
	return fmt.Errorf("usage: faultfiles bomb ROWS OUT | faultfiles corpus DIR FILE [FILE...]")
}

// corpus writes the []byte input of each Go fuzz corpus file (the format
// of go test's testdata/fuzz: "go test fuzz v1", then []byte("...")) to
// dir, named after it.
func corpus(dir string, files []string) error {
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		header, value, ok := strings.Cut(strings.TrimSpace(string(text)), "\n")
		quoted, isBytes := strings.CutPrefix(value, "[]byte(")
		if !ok || header != "go test fuzz v1" || !isBytes || !strings.HasSuffix(quoted, ")") {
			return fmt.Errorf("%s: not a corpus file of one []byte", file)
		}
		data, err := strconv.Unquote(strings.TrimSuffix(quoted, ")"))
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(file)+".parquet"), []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// bomb writes rows identical rows in one row group, written a million at
// a time: run-length encoding keeps the file small.
func bomb(rows int, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	w := parquet.NewGenericWriter[completion](f, parquet.MaxRowsPerRowGroup(int64(rows)), parquet.PageBufferSize(1<<30), parquet.Compression(&parquet.Zstd))
	batch := make([]completion, min(rows, 1<<20))
	for i := range batch {
		batch[i] = completion{Step: 1, Prompt: "What is 2+2?", Completion: "4", Accuracy: 1, Advantage: 0}
	}
	for left := rows; left > 0; left -= len(batch) {
		if _, err := w.Write(batch[:min(left, len(batch))]); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}
