package loaders

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/natural"
)

// isInputName reports whether a file called name is one a directory
// expands to: one with the extension of a format (*.jsonl, *.ndjson,
// *.json, *.csv, *.parquet), or of a text format followed by .gz, in any
// case.
func isInputName(name string) bool {
	lower := strings.ToLower(name)
	if base, ok := strings.CutSuffix(lower, ".gz"); ok {
		return formatByName(base, true) != ""
	}
	return formatByName(lower, false) != ""
}

// notReadCompressions names, by extension, the compressions a run's files
// may be found in that the loaders do not undo (gzip they do).
var notReadCompressions = map[string]string{
	".bz2": "bzip2", ".xz": "xz", ".lzma": "lzma", ".zst": "zstd", ".zstd": "zstd",
	".lz4": "lz4", ".br": "brotli", ".sz": "snappy", ".z": "compress", ".zip": "zip", ".7z": "7-Zip",
}

// notReadWhy returns why a directory's file of the name given, an input's
// name with one more extension, is not read although it looks like an
// input: compressed in a format not read, a rotated log (step.jsonl.1,
// as logrotate names the older files) or a backup (.bak); "" for any
// other name (an editor's or an atomic write's temporary file among them:
// .tmp, .swp, ~, which the write renames into an input's name).
func notReadWhy(name string) string {
	lower := strings.ToLower(name)
	ext := filepath.Ext(lower)
	if !isInputName(strings.TrimSuffix(lower, ext)) {
		return ""
	}
	if c, ok := notReadCompressions[ext]; ok {
		return "compressed with " + c + ", which is not read: decompress it, or gzip it"
	}
	if len(ext) > 1 && strings.Trim(ext[1:], "0123456789") == "" {
		return "a rotated log, not read"
	}
	if ext == ".bak" {
		return "a backup, not read"
	}
	return ""
}

// Expand returns paths with each directory replaced by the input files it
// holds (isInputName, companions left out: companionWhy; not recursive) in
// natural name order (natural.Compare: step_9 before step_10). Other paths, "-" and paths that do not exist
// included, are kept as they are: opening them reports what is wrong. A
// directory without an input file is an error naming it. Load expands its
// paths, so that the i-th file of the result is file index i, the default
// batch of its trajectories.
func Expand(paths []string) ([]string, error) {
	return expand(paths, dirInputs)
}

// expand is Expand with inputs listing a directory's input files: dirInputs
// (none is an error), or listInputs (none is none).
func expand(paths []string, inputs func(dir string) ([]string, error)) ([]string, error) {
	files, err := expandInputs(paths, inputs)
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.path
	}
	return out, err
}

// isDir reports whether path is a directory (following symbolic links).
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// dirInputs returns the input files of the directory dir (listInputs);
// none is an error naming dir.
func dirInputs(dir string) ([]string, error) {
	files, err := listInputs(dir)
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("%s: no input files in the directory (*.jsonl, *.ndjson, *.json, *.csv, *.parquet, or .gz of the text ones)", dir)
		if note := LeftOutNote(leftOutOf(dir)); note != "" {
			err = fmt.Errorf("%w; %s", err, note)
		}
	}
	return files, err
}

// listInputs returns the input files of the directory dir, in natural name
// order, maybe none. TRL's GRPOTrainer writes its tables in
// OUTPUT_DIR/completions/, and OUTPUT_DIR is what a user has in mind: when
// dir/completions holds TRL's tables (completions_*.parquet) and dir has
// no input file but .json ones (the saved model's config.json,
// tokenizer.json: no trajectories), dir stands for dir/completions' files.
func listInputs(dir string) ([]string, error) {
	files, err := listDir(dir)
	if err != nil {
		return nil, err
	}
	if tables := trlTables(dir); len(tables) > 0 && !slices.ContainsFunc(files, func(f string) bool { return !strings.EqualFold(filepath.Ext(f), ".json") }) {
		return tables, nil
	}
	return files, nil
}

// trlTables returns the input files of dir/completions when they are all
// TRL's tables, completions_*.parquet (log()), else none.
func trlTables(dir string) []string {
	sub := filepath.Join(dir, trlCompletionsDir)
	if !isDir(sub) {
		return nil
	}
	inner, err := listDir(sub)
	if err != nil || slices.ContainsFunc(inner, func(f string) bool {
		ok, _ := filepath.Match("completions_*.parquet", filepath.Base(f))
		return !ok
	}) {
		return nil
	}
	return inner
}

// trlCompletionsDir is the subdirectory of OUTPUT_DIR where TRL's
// GRPOTrainer writes completions_{step:05d}.parquet (log()).
const trlCompletionsDir = "completions"

// listDir returns the input files directly in the directory dir, in
// natural name order, maybe none.
func listDir(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err // *fs.PathError: "open DIR: reason"
	}
	var names []string
	for _, e := range entries {
		// A directory, even one called x.jsonl, is not read: the expansion
		// is not recursive. A companion of the rollouts is not one.
		path := filepath.Join(dir, e.Name())
		if isInputName(e.Name()) && !isDir(path) && companionWhy(path, e.Name()) == "" {
			names = append(names, e.Name())
		}
	}
	slices.SortFunc(names, natural.Compare)
	files := make([]string, len(names))
	for i, name := range names {
		files[i] = filepath.Join(dir, name)
	}
	return files, nil
}
