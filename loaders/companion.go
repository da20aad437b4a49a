package loaders

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/rewardlens/rewardlens/internal/natural"
)

// A run's directory may hold, beside its rollouts, files that are not
// trajectory files: open-instruct writes into the save path of its
// {run_name}_rollouts_{shard:06d}.jsonl shards (open_instruct/rl_utils.py,
// _save_rollouts) its run metadata (save_rollout_metadata), and, in newer
// versions, the groups it filtered out (_save_filtered_rollouts) and the
// trainer's logprobs (_save_trainer_logprobs). A directory's expansion
// leaves such a companion out, and LeftOut names it with why, so that
// reading the directory neither fails on it nor counts it as rollouts.

// A companionKind is one kind of companion: its file name (the .gz of a
// run directory gzipped after the run included) and the fields its first
// record has.
type companionKind struct {
	// name matches the file's name, ".gz" trimmed.
	name *regexp.Regexp
	// keys are the first record's fields, sorted: all of them when exact,
	// else among its fields.
	keys  []string
	exact bool
	// why says what the file is, in the note that names it.
	why string
}

// companionKinds are the companions of open-instruct's rollouts.
var companionKinds = []companionKind{
	// RolloutMetadata, one line with the run's name, git commit, model
	// and time (save_rollout_metadata, allenai/open-instruct at
	// e6c3044aa6201c8bfa4573c1b03142af599e730d).
	{regexp.MustCompile(`_metadata\.jsonl$`), []string{"git_commit", "model_name", "run_name", "timestamp"}, true,
		"a run's metadata, not rollouts"},
	// FilteredRolloutRecord, a line per sample of the prompts
	// --save_filtered_rollouts keeps apart, filter_reason saying why: their
	// rewards, no advantage (_save_filtered_rollouts). The one reason
	// written is "zero_std_reward", which accumulate_inference_batches
	// passes when filter_zero_std_samples drops a prompt whose samples
	// all scored the same.
	{regexp.MustCompile(`_filtered_rollouts_[0-9]{6}\.jsonl$`), []string{"filter_reason", "reward", "sample_idx", "step"}, false,
		"the groups open-instruct filtered out of training, filter_reason saying why (zero_std_reward: every sample scored the same), with their rewards and no advantage: " +
			"look at them alone with stats --group-by prompt_id --batch-by step --objective reward=reward FILE"},
	// A line per sample of the trainer's logprobs of a step, one file per
	// step and rank (_save_trainer_logprobs: _rank{rank:05d}, none when
	// there is no rank or a single one).
	{regexp.MustCompile(`_trainer_logprobs_step[0-9]{6}(_rank[0-9]{5})?\.jsonl$`), []string{"sample_idx", "step", "trainer_logprobs"}, false,
		"the trainer's logprobs, not rollouts"},
}

// companionHeldWhy is why a file named as a companion is left out while
// its first line, which tells whether it is one, is unfinished: the run
// appends to it through a buffer, and a trainer's logprobs make a line of
// megabytes, so a reading often catches it mid-line. A follower decides
// it once the line is whole; a reading that does not follow never reads it.
const companionHeldWhy = "named as an open-instruct companion, its first line unfinished: not read until it is whole"

// companionWhy returns why the file at path, of the name given, is a
// companion of the rollouts: its name is a companionKind's and it is
// either empty (the run is writing it) or its first line, gzipped or not
// as the loaders read any file, is a JSON object with the kind's fields;
// companionHeldWhy when it has such a name and its text ends inside its
// first object. "" for any other file, which is read as usual.
func companionWhy(path, name string) string {
	base := strings.TrimSuffix(name, ".gz")
	var kinds []companionKind
	for _, k := range companionKinds {
		if k.name.MatchString(base) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return "" // the reading reports it
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 4096)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err == io.ErrUnexpectedEOF {
			return companionHeldWhy // its gzip header not yet whole
		}
		if err != nil {
			return "" // the reading reports it
		}
		defer zr.Close()
		r = zr
	}
	keys, empty, cut := firstKeys(r)
	if cut {
		return companionHeldWhy
	}
	if empty {
		if st, err := f.Stat(); err == nil && st.Size() == 0 {
			return kinds[0].why
		}
		return ""
	}
	for _, k := range kinds {
		if k.exact && slices.Equal(keys, k.keys) || !k.exact && hasKeys(keys, k.keys) {
			return k.why
		}
	}
	return ""
}

// firstKeys returns the sorted top-level fields of the JSON object r
// starts with, reading it token by token (a trainer's logprobs make a
// line of megabytes), or empty when r holds nothing, or cut when r ends
// (a gzip stream cut short included) inside that object; nil when r
// starts with anything else.
func firstKeys(r io.Reader) (keys []string, empty, cut bool) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, true, false
	}
	if err != nil || tok != json.Delim('{') {
		return nil, false, false
	}
	endsInside := func(err error) bool { return err == io.EOF || err == io.ErrUnexpectedEOF }
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return nil, false, endsInside(err)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		default:
			// At depth 1 the decoder gives a key, then its value: a
			// scalar value is read here, an object or array above.
			if key, ok := tok.(string); ok && depth == 1 {
				keys = append(keys, key)
				if value, err := dec.Token(); err != nil {
					return nil, false, endsInside(err)
				} else if value == json.Delim('{') || value == json.Delim('[') {
					depth++
				}
			}
		}
	}
	slices.Sort(keys)
	return keys, false, false
}

// hasKeys reports whether the sorted keys hold every one of want.
func hasKeys(keys, want []string) bool {
	for _, w := range want {
		if _, found := slices.BinarySearch(keys, w); !found {
			return false
		}
	}
	return true
}

// LeftOutFile is a file of a directory that looks like an input and is
// not read, and why (a note says so: WithLeftOut in layouts).
type LeftOutFile struct {
	Path, Why string
}

// LeftOut returns the files that the directories among paths hold, look
// like inputs and their expansion leaves out: companions of the rollouts
// (companionWhy) and names of an input with a suffix that is not read
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
		if why == "" && isInputName(e.Name()) {
			why = companionWhy(path, e.Name())
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
