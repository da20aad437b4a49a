package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/internal/output"
	"github.com/rewardlens/rewardlens/loaders"
)

// writeOutput writes what write produces to stdout when path is "" or
// "-", or else to path as output.WriteFile does: atomically (a temporary
// file in the same directory, renamed over path once complete, so that an
// interrupted run leaves any old file intact), through the descriptor it
// names (/dev/stdout, /dev/fd/N), or in place (a device, a FIFO). It
// refuses to write over one of the inputs. Once ctx ends (a signal), the
// writing stops and nothing is committed: the old file stays and the
// temporary one is removed, and the error is ctx's.
func writeOutput(ctx context.Context, path string, inputs []string, stdout io.Writer, write func(io.Writer) error) error {
	if err := ctx.Err(); err != nil {
		return err // a signal came during the load's last steps
	}
	stoppable := func(w io.Writer) error {
		if err := write(ctxWriter{ctx, w}); err != nil {
			return err
		}
		return ctx.Err()
	}
	if path == "" || path == "-" {
		w := bufio.NewWriterSize(stdout, 1<<16)
		if err := stoppable(w); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := refuseInput(path, inputs); err != nil {
		return err
	}
	return output.WriteFile(ctx, path, stoppable)
}

// ctxWriter writes to w until ctx ends, then fails with ctx's error.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
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

// checkOut checks, before anything is read, that --out path can be
// written and may be replaced: not an input (nor standard input when it is
// one), not a directory, not a read-only file or another user's (unless
// force), in a directory where a file can be created. "-" is stdout, and
// so is "" when --out is not given (given, it is refused).
func checkOut(path string, given bool, inputs []string, stdin io.Reader, force bool) error {
	if path == "" && given {
		return usagef("--out \"\": no path (leave --out out, or give -, for standard output)")
	}
	if path == "" || path == "-" {
		return nil
	}
	if err := refuseInput(path, inputs); err != nil {
		return err
	}
	if err := output.CheckDescriptor(path); err != nil {
		return usagef("--out %v", err)
	}
	// Stat follows /dev/stdout's link to /proc/self/fd/1 as open does:
	// output.Target reads that link's text, "pipe:[N]" for a pipe.
	old, err := os.Stat(path)
	if err == nil && old.Mode().IsRegular() {
		if f, ok := stdin.(*os.File); ok && slices.Contains(inputs, "-") {
			if in, err := f.Stat(); err == nil && os.SameFile(in, old) {
				return usagef("--out %s is standard input, an input: rewardlens never overwrites its inputs", path)
			}
		}
		if output.IsDescriptor(path) {
			return nil // written through the descriptor, not replaced
		}
		if why := output.Refusal(old); why != "" && !force {
			return usagef("--out %s %s: rewardlens does not replace it (--force to replace it, keeping its owner and mode)", path, why)
		}
	}
	if err == nil && old.IsDir() {
		return usagef("--out %s is a directory: give a file's path", path)
	}
	if err == nil && !old.Mode().IsRegular() {
		return nil // a device or a pipe, written in place
	}
	if err := output.CheckWritable(path); err != nil {
		return usagef("--out: %v", err)
	}
	return nil
}

// outFormat returns a usage error unless *format is one of valid and
// --out's name is one rewardlens writes (unwritableOut). When
// --format is not given, *format becomes the format --out's extension
// names (outExtensionFormat) if it is one of valid; a format that is not
// the one the extension names (given, or the default) is warned of on
// stderr, as a reader would take the file for what its name says.
func outFormat(cmd *cobra.Command, format *string, out string, stderr io.Writer, valid ...string) error {
	given := cmd.Flags().Changed("format")
	if !given {
		*format = valid[0] // the default, unless --out's extension names another
	}
	if !slices.Contains(valid, *format) {
		return usagef("unknown --format %q (valid: %s)", *format, strings.Join(valid, ", "))
	}
	if err := unwritableOut(out, valid); err != nil {
		return err
	}
	named := outExtensionFormat(out)
	switch {
	case named == "" || named == *format:
	case !given && slices.Contains(valid, named):
		*format = named
	case given:
		fmt.Fprintf(stderr, "rewardlens: warning: --out %s is written as %s (--format %s), not the %s its extension names\n", out, *format, *format, named)
	default:
		fmt.Fprintf(stderr, "rewardlens: warning: --out %s is written as %s: %s writes no %s (--format: %s)\n", out, *format, cmd.Name(), named, strings.Join(valid, ", "))
	}
	return nil
}

// outCompressions are the compressions an --out name's extension may
// name, by extension.
var outCompressions = map[string]string{".gz": "gzip", ".zst": "zstd", ".bz2": "bzip2", ".xz": "xz"}

// unwritableOut returns a usage error when path's extension names a
// compression (outCompressions) or Parquet: rewardlens writes neither,
// and a reader would take the text it writes for what the name says.
func unwritableOut(path string, valid []string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if compression, ok := outCompressions[ext]; ok {
		return usagef("--out %s: rewardlens writes no %s; give %s and compress it", path, compression, path[:len(path)-len(ext)])
	}
	if ext == ".parquet" {
		return usagef("--out %s: rewardlens writes no Parquet (--format: %s)", path, strings.Join(valid, ", "))
	}
	return nil
}

// outExtensionFormat is the output format path's extension names: csv for
// .csv, json for .json, jsonl for .jsonl and .ndjson (in any case), and ""
// for any other or none.
func outExtensionFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return "csv"
	case ".json":
		return "json"
	case ".jsonl", ".ndjson":
		return "jsonl"
	}
	return ""
}
