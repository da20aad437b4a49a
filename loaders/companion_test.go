package loaders

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/natural"
)

// TestCompanions checks that a directory's expansion leaves out
// open-instruct's run metadata beside its shards (the line
// save_rollout_metadata writes), and only that: a *_metadata.jsonl of
// trajectories is read; an empty one (the run writing it) is left out.
func TestCompanions(t *testing.T) {
	dir := t.TempDir()
	meta := `{"run_name": "r", "git_commit": "unknown", "model_name": "m", "timestamp": "2026-11-26T10:43:59+00:00"}` + "\n"
	for name, text := range map[string]string{
		"r_metadata.jsonl":          meta,
		"r_rollouts_000000.jsonl":   `{"step": 1, "prompt_idx": 0, "reward": 1.0}` + "\n",
		"r_rollouts_000001.jsonl":   `{"step": 2, "prompt_idx": 0, "reward": 0.0}` + "\n",
		"eval_metadata.jsonl":       `{"id": "a", "metadata": {"x": 1}}` + "\n",
		"fresh_metadata.jsonl":      "",
		"extra_metadata.jsonl":      `{"run_name": "r", "git_commit": "c", "model_name": "m", "timestamp": "t", "seed": 1}` + "\n",
		"notjson_metadata.jsonl":    "run_name,git_commit\n",
		"Upper_METADATA.JSONL":      meta,
		"r_metadata.jsonl.d/x.json": "",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A run directory gzipped after the run (gzip *.jsonl): its metadata
	// is left out as well; a gzipped *_metadata.jsonl of trajectories is
	// read.
	for name, text := range map[string]string{
		"z_metadata.jsonl.gz":        meta,
		"z_rollouts_000000.jsonl.gz": `{"step": 1, "prompt_idx": 0, "reward": 1.0}` + "\n",
		"zeval_metadata.jsonl.gz":    `{"id": "a", "metadata": {"x": 1}}` + "\n",
	} {
		writeFile(t, dir, name, gzipped(text))
	}
	files, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"eval_metadata.jsonl", "extra_metadata.jsonl", "notjson_metadata.jsonl", "r_rollouts_000000.jsonl", "r_rollouts_000001.jsonl", "Upper_METADATA.JSONL",
		"z_rollouts_000000.jsonl.gz", "zeval_metadata.jsonl.gz"}
	slices.SortFunc(want, natural.Compare)
	if !slices.Equal(names, want) {
		t.Errorf("Expand: %q, want %q", names, want)
	}
	left := LeftOut([]string{dir, filepath.Join(dir, "r_metadata.jsonl"), "-"})
	var wantLeft []LeftOutFile
	for _, name := range []string{"fresh_metadata.jsonl", "r_metadata.jsonl", "z_metadata.jsonl.gz"} {
		wantLeft = append(wantLeft, LeftOutFile{Path: filepath.Join(dir, name), Why: companionKinds[0].why})
	}
	if !slices.Equal(left, wantLeft) {
		t.Errorf("LeftOut: %q, want %q", left, wantLeft)
	}
	// A directory holding the metadata alone has no input file.
	only := t.TempDir()
	if err := os.WriteFile(filepath.Join(only, "r_metadata.jsonl"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Expand([]string{only}); err == nil {
		t.Error("a directory of the metadata alone: no error")
	}
}

// TestCompanionsFilteredAndLogprobs checks that a directory's expansion
// leaves out, beside open-instruct's shards, the filtered rollouts
// (_save_filtered_rollouts) and the trainer's logprobs
// (_save_trainer_logprobs, a file per step, per rank when ranks write
// apart), gzipped or not, a logprobs line longer than any metadata line
// included, saying what each is; files of those names whose first
// record lacks the kind's fields are read.
func TestCompanionsFilteredAndLogprobs(t *testing.T) {
	dir := t.TempDir()
	filtered := `{"step": 2, "filter_reason": "zero_std_reward", "sample_idx": 0, "prompt_idx": 0, "prompt_id": "p9", "prompt_tokens": [1, 2], "response_tokens": [3], "reward": 0.0, "ground_truth": null, "logprobs": null}` + "\n"
	long := strings.Repeat("-0.5, ", 200000)
	logprobs := `{"step": 1, "sample_idx": 0, "sp_size": 1, "trainer_logprobs_shape": [200001], "trainer_logprobs": [` + long + `-0.5], "response_mask": [true], "prompt_boundaries": [{"row": 0}], "logprob_token_offset": 1}` + "\n"
	rollout := `{"step": 1, "sample_idx": 0, "prompt_idx": 0, "reward": 1.0, "advantage": 0.5}` + "\n"
	for name, text := range map[string]string{
		"r_rollouts_000000.jsonl":                       rollout,
		"r_filtered_rollouts_000000.jsonl":              filtered,
		"r_trainer_logprobs_step000001.jsonl":           logprobs,
		"r_trainer_logprobs_step000001_rank00001.jsonl": logprobs,
		"r_trainer_logprobs_step000002.jsonl":           "",
		"plain_filtered_rollouts_000000.jsonl":          `{"id": "a", "reward": 1.0, "step": 1}` + "\n",
		"plain_trainer_logprobs_step000001.jsonl":       rollout,
	} {
		writeFile(t, dir, name, []byte(text))
	}
	writeFile(t, dir, "r_filtered_rollouts_000001.jsonl.gz", gzipped(filtered))
	files, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"plain_filtered_rollouts_000000.jsonl", "plain_trainer_logprobs_step000001.jsonl", "r_rollouts_000000.jsonl"}
	for i := range want {
		want[i] = filepath.Join(dir, want[i])
	}
	if !slices.Equal(files, want) {
		t.Errorf("Expand: %q, want %q", files, want)
	}
	filteredWhy, logprobsWhy := companionKinds[1].why, companionKinds[2].why
	wantLeft := []LeftOutFile{
		{filepath.Join(dir, "r_filtered_rollouts_000000.jsonl"), filteredWhy},
		{filepath.Join(dir, "r_filtered_rollouts_000001.jsonl.gz"), filteredWhy},
		{filepath.Join(dir, "r_trainer_logprobs_step000001.jsonl"), logprobsWhy},
		{filepath.Join(dir, "r_trainer_logprobs_step000001_rank00001.jsonl"), logprobsWhy},
		{filepath.Join(dir, "r_trainer_logprobs_step000002.jsonl"), logprobsWhy},
	}
	if left := LeftOut([]string{dir}); !slices.Equal(left, wantLeft) {
		t.Errorf("LeftOut:\n%q\nwant\n%q", left, wantLeft)
	}
}

// TestLeftOutNotRead checks that a directory's files named as inputs with
// a compression that is not read, or rotated (step.jsonl.1), are left
// out with a note saying why, and that an upper-case extension is read.
func TestLeftOutNotRead(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"step_0.jsonl", "step_1.jsonl.bz2", "step_2.JSONL", "step_3.jsonl.1", "step_4.csv.ZST", "step_5.jsonl.gz.2", "notes.txt.bz2", "step_6.jsonl.tmp", "step_7.jsonl.bz2.d"} {
		writeFile(t, dir, name, []byte(`{"id":"x"}`+"\n"))
	}
	if err := os.Mkdir(filepath.Join(dir, "old.jsonl.1"), 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "step_0.jsonl"), filepath.Join(dir, "step_2.JSONL")}; !slices.Equal(files, want) {
		t.Errorf("Expand: %q, want %q", files, want)
	}
	const rotated = "a rotated log, not read"
	want := []LeftOutFile{
		{filepath.Join(dir, "step_1.jsonl.bz2"), "compressed with bzip2, which is not read: decompress it, or gzip it"},
		{filepath.Join(dir, "step_3.jsonl.1"), rotated},
		{filepath.Join(dir, "step_4.csv.ZST"), "compressed with zstd, which is not read: decompress it, or gzip it"},
		{filepath.Join(dir, "step_5.jsonl.gz.2"), rotated},
	}
	left := LeftOut([]string{dir})
	if !slices.Equal(left, want) {
		t.Errorf("LeftOut: %q, want %q", left, want)
	}
	wantNote := "left out " + want[0].Path + " (" + want[0].Why + "), " + want[1].Path + ", " + want[3].Path + " (" + rotated + "), " + want[2].Path + " (" + want[2].Why + ")"
	if note := LeftOutNote(left); note != wantNote {
		t.Errorf("LeftOutNote:\n%s\nwant\n%s", note, wantNote)
	}
	// A directory of such files alone has no input, and the error says
	// what was left out.
	only := t.TempDir()
	writeFile(t, only, "a.jsonl.xz", []byte("x"))
	if _, err := Expand([]string{only}); err == nil || !strings.Contains(err.Error(), "left out "+filepath.Join(only, "a.jsonl.xz")+" (compressed with xz") {
		t.Errorf("a directory of a .xz alone: error %v", err)
	}
}

// TestCompanionCutInFirstLine: a file named as a companion whose text
// ends inside its first object (open-instruct appends through a buffer;
// a trainer's logprobs line is megabytes long) is neither read nor
// decided: the expansion leaves it out, the note saying its first line
// is unfinished; once the line is whole it is decided by its fields. A
// cut gzip header is held the same way; a first line that is not JSON is
// read, the reading saying what is wrong.
func TestCompanionCutInFirstLine(t *testing.T) {
	dir := t.TempDir()
	filtered := `{"step": 2, "filter_reason": "zero_std_reward", "sample_idx": 0, "prompt_idx": 0, "reward": 0.0}` + "\n"
	rollouts := `{"step": 2, "sample_idx": 0, "prompt_idx": 0, "reward": 1.0, "advantage": 0.5}` + "\n"
	writeFile(t, dir, "r_rollouts_000000.jsonl", []byte(rollouts))
	writeFile(t, dir, "r_filtered_rollouts_000000.jsonl", []byte(filtered[:40]))
	writeFile(t, dir, "r_trainer_logprobs_step000002.jsonl", []byte(`{"step": 2, "sample_idx": 0, "trainer_logprobs": [-0.1, -0.`))
	writeFile(t, dir, "s_filtered_rollouts_000000.jsonl", []byte(rollouts[:30]))
	writeFile(t, dir, "z_filtered_rollouts_000000.jsonl.gz", gzipped(filtered)[:5])
	writeFile(t, dir, "x_filtered_rollouts_000000.jsonl", []byte("step,reward\n"))
	names := func() []string {
		files, err := Expand([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range files {
			names = append(names, filepath.Base(f))
		}
		return names
	}
	if got, want := names(), []string{"r_rollouts_000000.jsonl", "x_filtered_rollouts_000000.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("read %q, want %q", got, want)
	}
	held := map[string]bool{}
	for _, lo := range LeftOut([]string{dir}) {
		if lo.Why == companionHeldWhy {
			held[filepath.Base(lo.Path)] = true
		}
	}
	for _, name := range []string{"r_filtered_rollouts_000000.jsonl", "r_trainer_logprobs_step000002.jsonl", "s_filtered_rollouts_000000.jsonl", "z_filtered_rollouts_000000.jsonl.gz"} {
		if !held[name] {
			t.Errorf("%s, cut in its first line, not left out as %q: %v", name, companionHeldWhy, LeftOut([]string{dir}))
		}
	}
	// The lines written whole: the filtered rollouts are a companion, the
	// rollouts under a companion's name are read.
	writeFile(t, dir, "r_filtered_rollouts_000000.jsonl", []byte(filtered))
	writeFile(t, dir, "s_filtered_rollouts_000000.jsonl", []byte(rollouts))
	if got, want := names(), []string{"r_rollouts_000000.jsonl", "s_filtered_rollouts_000000.jsonl", "x_filtered_rollouts_000000.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("whole, read %q, want %q", got, want)
	}
	if note := LeftOutNote(LeftOut([]string{dir})); !strings.Contains(note, filepath.Join(dir, "r_filtered_rollouts_000000.jsonl")+" (the groups open-instruct filtered out") {
		t.Errorf("whole, the filtered rollouts not said a companion: %s", note)
	}
}
