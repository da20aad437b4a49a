package cmd

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLeftOutFilesNoted checks the note on a directory's files that look
// like inputs and are not read: an open-instruct run gzipped after the
// run (gzip *.jsonl) reads as open-instruct, its metadata left out as
// uncompressed, not as "mixed layouts"; a .bz2 and a rotated log are
// named with why.
func TestLeftOutFilesNoted(t *testing.T) {
	standard := filepath.Join(openInstructDir, "standard")
	dir := t.TempDir()
	entries, err := os.ReadDir(standard)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(standard, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(text)
		zw.Close()
		if err := os.WriteFile(filepath.Join(dir, e.Name()+".gz"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs, errOut := computeList(t, "", dir)
	meta := filepath.Join(dir, "grpo_gsm8k__1__1764150000_metadata.jsonl.gz")
	if len(recs) != 24 || !strings.Contains(errOut, "read as open-instruct rollout traces") || !strings.Contains(errOut, "left out "+meta+" (a run's metadata, not rollouts)") {
		t.Errorf("gzipped run: %d records, stderr %q", len(recs), errOut)
	}

	steps := t.TempDir()
	for name, text := range map[string]string{
		"step_0.jsonl":     `{"id":"a","metadata":{"acc":1}}` + "\n",
		"step_1.jsonl.bz2": "BZh91AY&SY",
		"step_2.JSONL":     `{"id":"b","metadata":{"acc":0}}` + "\n",
		"step_3.jsonl.1":   `{"id":"c","metadata":{"acc":1}}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(steps, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs, errOut = computeList(t, "", "--objective", "acc=acc", steps)
	want := "rewardlens: left out " + filepath.Join(steps, "step_1.jsonl.bz2") + " (compressed with bzip2, which is not read: decompress it, or gzip it), " +
		filepath.Join(steps, "step_3.jsonl.1") + " (a rotated log, not read)\n"
	if len(recs) != 2 || !strings.HasPrefix(errOut, want) {
		t.Errorf("steps: %d records, stderr %q, want it to start %q", len(recs), errOut, want)
	}
}
