package loaders

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
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

// Companions returns the files that the directories among paths hold and
// their expansion leaves out as companions of the rollouts (see
// isCompanion), in natural name order, for a note that says so.
func Companions(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == "-" || !isDir(p) {
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			continue // the expansion reports it
		}
		var names []string
		for _, e := range entries {
			if path := filepath.Join(p, e.Name()); !e.IsDir() && isCompanion(path, e.Name()) {
				names = append(names, e.Name())
			}
		}
		slices.SortFunc(names, natural.Compare)
		for _, name := range names {
			out = append(out, filepath.Join(p, name))
		}
	}
	return out
}
