package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRecordFieldsAreNotInferredObjectives: a field that --group-by,
// --batch-by, --id-by or --prompt-by reads says where a record belongs,
// and one --logged-advantage reads is the trainer's output, so that with
// no objective configured it is not inferred as one (CONTRACT, Scorers),
// whether the expression reads it bare, as metadata.KEY or as
// metadata["KEY"].
func TestRecordFieldsAreNotInferredObjectives(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.jsonl")
	data := `{"uid":1,"prompt_id":7,"iteration":3,"question":11,"score":0.5,"len":10,"adv":0.7}
{"uid":2,"prompt_id":7,"iteration":3,"question":11,"score":1,"len":20,"adv":-0.7}
`
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	objectives := func(args ...string) []string {
		t.Helper()
		var names []string
		for _, r := range computeRecords(t, append(args, in)...) {
			for name := range r.Objectives {
				names = append(names, name)
			}
			break
		}
		slices.Sort(names)
		return names
	}
	if got, want := objectives(), "adv,iteration,len,prompt_id,question,score,uid"; strings.Join(got, ",") != want {
		t.Fatalf("without record fields: objectives %v, want %s", got, want)
	}
	got := objectives("--group-by", `"p" + string(metadata["prompt_id"])`, "--batch-by", "iteration", "--id-by", "string(metadata.uid)", "--prompt-by", "question", "--logged-advantage", "metadata.adv")
	if want := "len,score"; strings.Join(got, ",") != want {
		t.Errorf("with record fields: objectives %v, want %s", got, want)
	}

	// When no other numeric field is left, the error says why.
	only := filepath.Join(t.TempDir(), "only.jsonl")
	if err := os.WriteFile(only, []byte(`{"id":"a","group":"g","iteration":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "", "stats", "--batch-by", "iteration", only)
	if code != 2 || !strings.Contains(errOut, only+":1: no objective to score") || !strings.Contains(errOut, "batch_by") || !strings.HasSuffix(errOut, ": iteration\n") {
		t.Errorf("status %d, stderr %q: want 2 and an error naming batch_by and iteration", code, errOut)
	}
	if err := os.WriteFile(only, []byte(`{"id":"a","group":"g","adv":0.5}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = run(t, "", "stats", "--logged-advantage", "adv", only)
	if code != 2 || !strings.Contains(errOut, "logged_advantage") || !strings.HasSuffix(errOut, ": adv\n") {
		t.Errorf("status %d, stderr %q: want 2 and an error naming logged_advantage and adv", code, errOut)
	}
}
