package loaders

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/natural"
)

// A run's directory may hold, beside its rollouts, a file that is not a
// trajectory file: open-instruct's --save_traces writes
// {run_name}_metadata.jsonl, one line with the run's name, git commit,
// model and time, next to its {run_name}_rollouts_{shard:06d}.jsonl
// shards (open_instruct/rl_utils.py, save_rollout_metadata and
// RolloutMetadata, allenai/open-instruct at
// e6c3044aa6201c8bfa4573c1b03142af599e730d). A directory's expansion
// leaves such a companion out, and Companions names it, so that reading
// the directory neither fails on it nor counts it as a rollout.

// companionSuffix ends the name of open-instruct's run metadata file.
const companionSuffix = "_metadata.jsonl"

// companionKeys are RolloutMetadata's fields, sorted.
var companionKeys = []string{"git_commit", "model_name", "run_name", "timestamp"}

// maxCompanionLine bounds what isCompanion reads of a file: the metadata
// line is short, and a longer first line is a trajectory file's.
const maxCompanionLine = 64 << 10

// isCompanion reports whether the file at path, of the name given, is
// open-instruct's run metadata: named *_metadata.jsonl, or that with .gz
// (a run directory gzipped after the run), and either empty (the run is writing it) or with a first line
// that is a JSON object of exactly RolloutMetadata's fields, gzipped or
// not, as the loaders read any file. Any other file is read as usual.
func isCompanion(path, name string) bool {
	if !strings.HasSuffix(strings.TrimSuffix(name, ".gz"), companionSuffix) {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false // the reading reports it
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 4096)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return false // the reading reports it
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 4096)
	}
	line, err := br.ReadSlice('\n')
	if len(line) == 0 && err != nil {
		st, serr := f.Stat()
		return serr == nil && st.Size() == 0
	}
	if len(line) > maxCompanionLine {
		return false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil {
		return false
	}
	return slices.Equal(slices.Sorted(maps.Keys(fields)), companionKeys)
}

// LeftOutFile is a file of a directory that looks like an input and is
// not read, and why (a note says so: WithLeftOut in layouts).
type LeftOutFile struct {
	Path, Why string
}

// companionWhy is why a companion of the rollouts (isCompanion) is left out.
const companionWhy = "a run's metadata, not rollouts"

// LeftOut returns the files that the directories among paths hold, look
// like inputs and their expansion leaves out: companions of the rollouts
// (isCompanion) and names of an input with a suffix that is not read
// (notReadWhy), in natural name order within each directory.
func LeftOut(paths []string) []LeftOutFile {
	var out []LeftOutFile
	for _, p := range paths {
		if p == "-" || !isDir(p) {
			continue
		}
		out = append(out, leftOutOf(p)...)
	}
	return out
}

// leftOutOf is LeftOut of the directory dir.
func leftOutOf(dir string) []LeftOutFile {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // the expansion reports it
	}
	var out []LeftOutFile
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		why := notReadWhy(e.Name())
		if why == "" && isInputName(e.Name()) && isCompanion(path, e.Name()) {
			why = companionWhy
		}
		if why != "" && !isDir(path) {
			out = append(out, LeftOutFile{Path: path, Why: why})
		}
	}
	slices.SortFunc(out, func(a, b LeftOutFile) int { return natural.Compare(a.Path, b.Path) })
	return out
}

// LeftOutNote returns the note that names files left out: "left out A, B
// (why), C (why)", the files of one reason together, in the order of
// each reason's first file; "" for none.
func LeftOutNote(files []LeftOutFile) string {
	var whys []string
	byWhy := map[string][]string{}
	for _, f := range files {
		if _, seen := byWhy[f.Why]; !seen {
			whys = append(whys, f.Why)
		}
		byWhy[f.Why] = append(byWhy[f.Why], f.Path)
	}
	parts := make([]string, len(whys))
	for i, why := range whys {
		parts[i] = fmt.Sprintf("%s (%s)", strings.Join(byWhy[why], ", "), why)
	}
	if len(parts) == 0 {
		return ""
	}
	return "left out " + strings.Join(parts, ", ")
}
