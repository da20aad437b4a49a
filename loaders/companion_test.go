package loaders

import (
	"os"
	"path/filepath"
	"slices"
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
	left := Companions([]string{dir, filepath.Join(dir, "r_metadata.jsonl"), "-"})
	if wantLeft := []string{filepath.Join(dir, "fresh_metadata.jsonl"), filepath.Join(dir, "r_metadata.jsonl"), filepath.Join(dir, "z_metadata.jsonl.gz")}; !slices.Equal(left, wantLeft) {
		t.Errorf("Companions: %q, want %q", left, wantLeft)
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
