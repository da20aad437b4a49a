package cmd

import (
	"reflect"
	"strings"
	"testing"
)

// TestTRLGroupsByPosition: TRL groups a generation batch by position,
// num_generations rows after another, so a prompt in several slots of the
// batch is several groups; tables TRL's own code wrote
// (scripts/trl_fixtures.py): a prompt in two slots apart (4 rows each), a
// dataset of one prompt (16 rows in a row, num_generations 8, which the
// table alone cannot tell from 16: the logged advantage tells it, as the
// read-as line says) and 4 prompts each in two slots (8 groups of 8).
// Every row has TRL's advantage, no warning is given, and the prompts are
// counted once each. Grouped by prompt text (as before), the merged groups
// gave every row of them another advantage.
func TestTRLGroupsByPosition(t *testing.T) {
	for _, c := range []struct {
		fixture string
		rows    int
		note    string
		prompts string
	}{
		{"duplicate_prompt", 16, "1 prompt in more than one group of testdata/trl/duplicate_prompt/completions/completions_00001.parquet, each normalised apart as TRL groups them (by position: 4 consecutive rows of one prompt, num_generations)", "3 prompts:"},
		{"one_prompt_16", 16, "num_generations = 8: every run of one prompt in testdata/trl/one_prompt_16/completions/completions_00001.parquet has a multiple of 16 rows, and the logged advantage is reproduced with groups of 8 consecutive rows, not of 16", "1 prompt:"},
		{"duplicate_blocks_8", 64, "4 prompts in more than one group of testdata/trl/duplicate_blocks_8/completions/completions_00001.parquet, each normalised apart as TRL groups them (by position: 8 consecutive rows of one prompt, num_generations)", "4 prompts:"},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			recs, errOut := computeList(t, "", trlFixture(c.fixture))
			if n, worst := trlReproduced(t, recs); n != c.rows || len(recs) != c.rows {
				t.Errorf("%d of %d rows reproduce TRL's advantage (max |diff| %.3g), want %d", n, len(recs), worst, c.rows)
			}
			if !strings.Contains(errOut, c.note) || strings.Contains(errOut, "warning") {
				t.Errorf("stderr lacks %q, or warns: %s", c.note, errOut)
			}
			out, errOut, code := run(t, "", "stats", trlFixture(c.fixture))
			if code != 0 || !strings.Contains(out, c.prompts) || strings.Contains(errOut, "warning") {
				t.Errorf("stats: status %d, want %q and no warning: %s\n%s", code, c.prompts, out, errOut)
			}
		})
	}
}

// TestTRLUsualGroupsUnchanged: on TRL's usual tables, each prompt in one
// slot of the batch, grouping by position gives the groups and rewards
// that grouping by prompt text (--group-by prompt) gives, evaluation rows
// and a group the deque cut among them.
func TestTRLUsualGroupsUnchanged(t *testing.T) {
	for _, fixture := range []string{"group", "scale_batch", "log_extra", "eval_same_step", "eval_overwrite", "reward_model_20", "rloo_whitened_7"} {
		byPosition, errOut := computeList(t, "", trlFixture(fixture))
		if !strings.Contains(errOut, "group = prompt (its consecutive rows, ") {
			t.Errorf("%s: the read-as line does not say the groups are consecutive rows: %s", fixture, errOut)
		}
		byText, _ := computeList(t, "", "--group-by", "prompt", trlFixture(fixture))
		if !reflect.DeepEqual(byPosition, byText) {
			t.Errorf("%s: grouped by position, the records differ from those grouped by prompt text", fixture)
		}
	}
}

// TestTRLFirstRunCutFromItsEnd: TRL's table is the last rows of deques of
// maxlen generation_batch_size, and evaluation logged at the step drops
// training rows from its front (scripts/trl_fixtures.py, TRL's own code:
// num_generations 8, a prompt in the batch's first two slots, 6
// evaluation rows). The table opens with that prompt's run of 10 rows,
// which TRL grouped 2 + 8: so are they grouped, and every row but the 2
// left of the cut group (normalised by TRL with the 6 rows lost) has
// TRL's advantage. Cut 8 + 2 from its start, the 10 rows differed.
func TestTRLFirstRunCutFromItsEnd(t *testing.T) {
	recs, errOut := computeList(t, "", trlFixture("cut_front_run_8"))
	if len(recs) != 48 {
		t.Fatalf("%d records, want 48: %s", len(recs), errOut)
	}
	if n, worst := trlReproduced(t, recs[2:]); n != 46 {
		t.Errorf("%d of the 46 rows after the cut group reproduce TRL's advantage (max |diff| %.3g): %s", n, worst, errOut)
	}
	// The layout reads the reward columns on the groups so cut: their sum
	// reproduces the log (cut 8 + 2, 8 rows differed, and the columns
	// were doubted).
	const note = "logged advantage = advantage, 1 prompt in more than one group of testdata/trl/cut_front_run_8/completions/completions_00001.parquet, each normalised apart as TRL groups them (by position: 8 consecutive rows of one prompt, num_generations); method grpo"
	if !strings.Contains(errOut, note) {
		t.Errorf("stderr lacks %q: %s", note, errOut)
	}
}
