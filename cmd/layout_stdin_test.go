package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/loaders"
)

// stdinFixtures are trainers' dumps, as their own code wrote them, each
// piped whole as `cat DIR/*.jsonl |` would (one file a step for verl,
// one a shard for open-instruct): what their layouts read of the first
// records decides the rewards (verl's V1 uid grouping, its score written
// as a tensor's text and the overlong penalty left out; open-instruct's
// normalisation, pass threshold and step_count).
var stdinFixtures = []struct {
	from  string
	files []string
}{
	{"verl", []string{"verl/v1_uid/dump/1.jsonl", "verl/v1_uid/dump/2.jsonl"}},
	{"verl", []string{"verl/dapo_overlong/dump/1.jsonl", "verl/dapo_overlong/dump/2.jsonl"}},
	{"verl", []string{"verl/dapo_overlong_rounded/dump/1.jsonl"}},
	{"open-instruct", []string{"openinstruct/standard/grpo_gsm8k__1__1764150000_rollouts_000000.jsonl", "openinstruct/standard/grpo_gsm8k__1__1764150000_rollouts_000001.jsonl"}},
	{"open-instruct", []string{"openinstruct/centered/grpo_gsm8k__1__1764150000_rollouts_000000.jsonl", "openinstruct/centered/grpo_gsm8k__1__1764150000_rollouts_000001.jsonl"}},
}

// fixtureText returns the files of a stdinFixture, under testdata, one
// after the other.
func fixtureText(t *testing.T, files []string) string {
	t.Helper()
	var text strings.Builder
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		text.Write(data)
	}
	return text.String()
}

// computeFileAndStdin runs compute --from from on text written to a file
// and on text piped to standard input, and fails unless both succeed with
// byte-identical records and the same messages, those of the file
// rewritten by fileSaid.
func computeFileAndStdin(t *testing.T, from, text string, fileSaid *strings.Replacer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fileOut, fileErr, fileCode := run(t, "", "compute", "--from", from, path)
	stdinOut, stdinErr, stdinCode := run(t, text, "compute", "--from", from, "-")
	if fileCode != 0 || stdinCode != 0 {
		t.Fatalf("status %d by path, %d on standard input: %s%s", fileCode, stdinCode, fileErr, stdinErr)
	}
	if fileOut != stdinOut {
		t.Errorf("the records differ\nby path:\n%s\non standard input:\n%s", fileOut, stdinOut)
	}
	if want := fileSaid.Replace(fileErr); stdinErr != want {
		t.Errorf("messages on standard input\n%s\nwant (by path)\n%s", stdinErr, want)
	}
}

// TestTrainerStdinReadsAsTheFile: a verl dump or open-instruct traces on
// standard input with --from are read as the same bytes given by a
// file's path: the defaults taken from the same first records, the same
// records written byte for byte, the same messages.
func TestTrainerStdinReadsAsTheFile(t *testing.T) {
	for _, fx := range stdinFixtures {
		t.Run(fx.files[0], func(t *testing.T) {
			computeFileAndStdin(t, fx.from, fixtureText(t, fx.files), strings.NewReplacer())
		})
	}
}

// TestTrainerStdinCutByItsPeek: standard input whose last record is cut
// by the bound of what is peeked of it takes the defaults of --from verl
// and --from open-instruct from the records before it, as the file of
// the same bytes does (the load reads the cut record whole); one whose
// first record is cut there, or that is followed, is refused as --from
// trl's is, rather than read with the defaults of no record.
func TestTrainerStdinCutByItsPeek(t *testing.T) {
	long := strings.Repeat("x", loaders.MaxStdinPeek)
	// A record of a group of its own, which changes no group the
	// defaults read.
	longRecords := map[string]string{
		"verl":          `{"input": "%s", "output": "o", "gts": "1", "score": 0.0, "step": 2, "uid": "7c1b0e4e-0000-4000-8000-000000000000_0_0"}`,
		"open-instruct": `{"step": 2, "sample_idx": 12, "prompt_idx": 3, "prompt_tokens": [1], "response_tokens": [2], "reward": 0.0, "advantage": 0.0, "finish_reason": "stop", "dataset": "d", "ground_truth": "%s", "request_info": null, "logprobs": [-0.5]}`,
	}
	for _, fx := range []int{0, 3} {
		from, files := stdinFixtures[fx].from, stdinFixtures[fx].files
		t.Run(from, func(t *testing.T) {
			longRecord := fmt.Sprintf(longRecords[from], long) + "\n"
			// The file's first records hold the long one; standard
			// input's end before it.
			before := strings.Count(fixtureText(t, files), "\n")
			computeFileAndStdin(t, from, fixtureText(t, files)+longRecord,
				strings.NewReplacer(fmt.Sprintf("the first %d records", before+1), fmt.Sprintf("the first %d records", before)))

			out, errOut, code := run(t, longRecord+fixtureText(t, files), "compute", "--from", from, "-")
			want := fmt.Sprintf("standard input: no record within its first 16 MiB to take the defaults of --from %s from", from)
			if code != 2 || out != "" || !strings.Contains(errOut, want) {
				t.Errorf("first record cut: status %d, stdout %d bytes, stderr %q", code, len(out), errOut)
			}
			_, errOut, code = run(t, fixtureText(t, files), "stats", "--follow", "--from", from, "-")
			if want := `rewardlens: standard input ("-") cannot be followed`; code != 2 || !strings.HasPrefix(errOut, want) {
				t.Errorf("followed: status %d, stderr %q", code, errOut)
			}
		})
	}
}

// TestVerlStdinChecked: a verl dump on standard input that cannot be
// grouped by prompt (neither input nor uid) is refused as its file is,
// naming standard input.
func TestVerlStdinChecked(t *testing.T) {
	stdin := `{"output": "o", "gts": "1", "score": 1.0, "step": 1}` + "\n"
	out, errOut, code := run(t, stdin, "compute", "--from", "verl", "-")
	want := `standard input (its first 1 record): a verl rollout dump without "input" or "uid"`
	if code != 2 || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("status %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestStdinBesideTrainerFiles: standard input beside a trainer's files is
// one more file of the run: a verl dump piped beside a verl dump is read
// as the two files are; beside open-instruct traces it is the error two
// such files give, and beside --from verl's files, one not verl's is
// refused as such a file is.
func TestStdinBesideTrainerFiles(t *testing.T) {
	first := filepath.Join("testdata", "verl", "dapo_overlong", "dump", "1.jsonl")
	second := filepath.Join("testdata", "verl", "dapo_overlong", "dump", "2.jsonl")
	traces := filepath.Join("testdata", "openinstruct", "standard", "grpo_gsm8k__1__1764150000_rollouts_000000.jsonl")
	filesOut, filesErr, filesCode := run(t, "", "compute", first, second)
	out, errOut, code := run(t, readText(t, second), "compute", first, "-")
	if code != 0 || filesCode != 0 || out != filesOut || errOut != filesErr {
		t.Errorf("beside a verl dump: status %d, stderr %q; the two files: status %d, stderr %q; same records: %v", code, errOut, filesCode, filesErr, out == filesOut)
	}

	cases := []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"beside traces", readText(t, first), []string{"compute", "-", traces},
			"rewardlens: mixed layouts: " + traces + " is open-instruct rollout traces, standard input is a verl rollout dump: give the files of one run (or --from plain)\n"},
		{"not --from's", readText(t, traces), []string{"compute", "--from", "verl", first, "-"},
			"rewardlens: standard input: not a verl rollout dump (--from verl): its first record has fields advantage, dataset, finish_reason, ground_truth, logprobs, prompt_idx, prompt_tokens, request_info, response_tokens, reward, sample_idx, step, a verl rollout dump has input, output, score, step\n"},
	}
	for _, c := range cases {
		out, errOut, code := run(t, c.stdin, c.args...)
		if code != 2 || out != "" || errOut != c.want {
			t.Errorf("%s: status %d, stdout %d bytes, stderr %q, want %q", c.name, code, len(out), errOut, c.want)
		}
	}
}
