package cmd

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/rewardlens/rewardlens/internal/output"
	"github.com/rewardlens/rewardlens/loaders"
)

// writeOutput writes what write produces to path atomically (a temporary
// file in the same directory, renamed over path once complete, so that an
// interrupted run leaves any old file intact), or to stdout when path is
// "" or "-". It refuses to write over one of the inputs.
func writeOutput(path string, inputs []string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		w := bufio.NewWriterSize(stdout, 1<<16)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := refuseInput(path, inputs); err != nil {
		return err
	}
	return output.WriteFileAtomic(path, write)
}

// refuseInput fails when path is one of the inputs: rewardlens never
// modifies its inputs.
func refuseInput(path string, inputs []string) error {
	out, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if files, err := loaders.Expand(inputs); err == nil {
		inputs = files // the files of a directory are inputs too
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		if st, err := os.Stat(in); err == nil && os.SameFile(st, out) {
			return usagef("--out %s is an input: rewardlens never overwrites its inputs", path)
		}
	}
	return nil
}

// formatCheck returns a usage error unless format is one of valid.
func formatCheck(format string, valid ...string) error {
	for _, v := range valid {
		if format == v {
			return nil
		}
	}
	return usagef("unknown --format %q (valid: %s)", format, strings.Join(valid, ", "))
}
