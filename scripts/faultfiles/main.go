// Command faultfiles writes the Parquet inputs of scripts/faults.sh
// (issue 27): a row bomb, many rows of one repeated value in a file of
// kilobytes, and mutations of a real file, as a careless writer or an
// attacker would leave them.
//
//	faultfiles bomb ROWS OUT        ROWS rows of TRL completions' columns
//	faultfiles mutate SEED IN OUT   IN with a few bytes changed, by SEED
package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"

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
	case len(args) == 4 && args[0] == "mutate":
		seed, err := strconv.ParseUint(args[1], 10, 64)
		if err != nil {
			return err
		}
		return mutate(seed, args[2], args[3])
	}
	return fmt.Errorf("usage: faultfiles bomb ROWS OUT | faultfiles mutate SEED IN OUT")
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

// mutate writes in with 1 to 8 of its bytes set at random, chosen by seed.
func mutate(seed uint64, in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 27))
	for range 1 + rng.IntN(8) {
		data[rng.IntN(len(data))] = byte(rng.IntN(256))
	}
	return os.WriteFile(out, data, 0o644)
}
