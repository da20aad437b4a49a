package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/internal/testfile"
)

// TestUngroupedRecordsAreWarnedOf: plain records without a group are one
// comparison group per batch, which compute, stats and stats --follow say
// on stderr with the method's reward under it and how to group them (a
// prompt column the first record has named); records with a group, a
// --group-by and --scope batch (the whole batch by choice) are not
// warned of.
func TestUngroupedRecordsAreWarnedOf(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	plain := write("plain.jsonl", `{"id":"a","batch":0,"metadata":{"score":1}}
{"id":"b","batch":0,"metadata":{"score":0}}
{"id":"c","batch":0,"metadata":{"score":0.5}}
`)
	withPrompt := write("prompts.csv", "id,batch,prompt,score\na,0,p1,1\nb,0,p1,0\nc,0,p2,1\nd,0,p2,0\n")
	grouped := write("grouped.jsonl", `{"id":"a","batch":0,"group":"p1","metadata":{"score":1}}
{"id":"b","batch":0,"group":"p1","metadata":{"score":0}}
`)
	const ungrouped = "rewardlens: warning: no trajectory has a group (a group field, or --group-by): each batch is one comparison group, so "
	for _, tc := range []struct {
		name string
		args []string
		want string // "" for no warning
	}{
		{"compute, pareto", []string{"compute", plain},
			ungrouped + "pareto's rewards are per batch, z-scored, not per prompt; give each record a group field (its prompt's id or text), or --group-by EXPR naming the field that holds its prompt\n"},
		{"stats, grpo: a batch normalisation", []string{"stats", "--method", "grpo", plain},
			ungrouped + "grpo's rewards are per batch, centred, scaled by the batch std, not per prompt; "},
		{"a prompt column to group by", []string{"stats", "--method", "rloo", withPrompt},
			ungrouped + "rloo's rewards are per batch, leave-one-out baseline, not per prompt; give each record a group field, or --group-by prompt (the first record has prompt)\n"},
		{"grouped by --group-by", []string{"stats", "--method", "rloo", "--group-by", "prompt", withPrompt}, ""},
		{"records with a group", []string{"compute", "--method", "grpo", grouped}, ""},
		{"scope batch", []string{"compute", "--method", "grpo", "--scope", "batch", plain}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := run(t, "", tc.args...)
			if code != 0 {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			said := strings.Count(errOut, "no trajectory has a group")
			switch {
			case tc.want == "" && said > 0:
				t.Errorf("warned of records without a group:\n%s", errOut)
			case tc.want != "" && (said != 1 || !strings.Contains(errOut, tc.want)):
				t.Errorf("stderr %q, want once %q", errOut, tc.want)
			}
		})
	}

	t.Run("stats --follow, once", func(t *testing.T) {
		followed := write("followed.jsonl", `{"id":"a","batch":0,"metadata":{"score":1}}
{"id":"b","batch":0,"metadata":{"score":0}}
{"id":"c","batch":1,"metadata":{"score":1}}
{"id":"d","batch":2,"metadata":{"score":1}}
`)
		shortQuiet(t)
		f := startFollowing(t, "stats", "--follow", followed)
		f.await(t, "step 1 ")
		testfile.Append(t, followed, `{"id":"e","batch":3,"metadata":{"score":1}}`+"\n")
		f.await(t, "step 2 ")
		if code := f.stop(); code != 0 {
			t.Errorf("status %d (stderr %q)", code, f.errOut.String())
		}
		if n := strings.Count(f.errOut.String(), ungrouped+"pareto's rewards are per batch"); n != 1 {
			t.Errorf("said %d times, want once:\n%s", n, f.errOut.String())
		}
	})
}
