package layouts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// applyLoaded is Apply of paths and the warning of its RowsCheck on the
// rows of their load (every table, none left out as logged again).
func applyLoaded(t *testing.T, cfg setup.Config, paths []string) (sentence, warning string) {
	t.Helper()
	_, sentence, check, err := Apply(context.Background(), cfg, paths, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := loaders.Load(paths, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check.Add(data.Trajectories)
	return sentence, check.Warning()
}

// TestTRLWeightsAcrossFiles: the weights the "read as" line reads from a
// run's first completions table are checked against the rows of its
// other tables as they are loaded (scripts/trl_fixtures.py, TRL's own
// code): two steps of one run with reward_weights [2, 0.5] agree, no
// warning, nor with the second's prompts each in two slots in a row
// (runs of 8 rows, grouped 4 + 4 as the rewards are); a second table
// written with [4, 1], the same ratios,
// disagrees through epsilon alone, and the warning names it with its own
// weights; so does a third, from a run that weighs the rewards in other
// ratios.
func TestTRLWeightsAcrossFiles(t *testing.T) {
	const read = "fitted accuracy_reward 2, format_reward 0.5; --match-logged fits them"
	steps := trlFixture("reward_weights_steps")
	changed := filepath.Join(trlFixture("reward_weights_changed"), "completions_00002.parquet")
	ratios := filepath.Join(trlFixture("reward_weights"), "completions_00001.parquet")
	for _, c := range []struct {
		name  string
		paths []string
		want  []string // what the warning says
	}{
		{"one run", []string{steps}, nil},
		// The second table's prompts each in two slots in a row: its runs
		// of 8 rows are two groups each, as the rewards group them.
		{"prompts in two slots", []string{trlFixture("reward_weights_runs")}, nil},
		{"another factor", []string{trlFixture("reward_weights_changed")}, []string{
			"the weights read from " + filepath.Join(trlFixture("reward_weights_changed"), "completions_00001.parquet") + " (accuracy_reward 2, format_reward 0.5) are not those that the logged advantage of other files tells, " +
				changed + "'s being accuracy_reward 4, format_reward 1 (the reward weights changed within the run, or the files are of more than one run: no one set of weights is the run's)"}},
		{"other ratios", []string{steps, changed, ratios}, []string{
			changed + "'s being accuracy_reward 4, format_reward 1, " + ratios + "'s being accuracy_reward 1, format_reward 0.5 ("}},
	} {
		sentence, warning := applyLoaded(t, setup.Config{}, c.paths)
		if !strings.Contains(sentence, read) {
			t.Errorf("%s: %q lacks the weights read, %q", c.name, sentence, read)
		}
		if c.want == nil && (warning != "" || strings.Contains(sentence, "warning")) {
			t.Errorf("%s: %q, %q warns, the tables agreeing", c.name, sentence, warning)
		}
		for _, want := range c.want {
			if !strings.Contains(warning, want) {
				t.Errorf("%s: %q lacks %q", c.name, warning, want)
			}
		}
	}
	// --objective: the line reads no weights, nothing to check.
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "accuracy_reward", Expr: `metadata["accuracy_reward"]`}}}
	if _, _, check, err := Apply(context.Background(), cfg, []string{trlFixture("reward_weights_changed")}, loaders.Options{}, nil, nil); err != nil || check != nil {
		t.Errorf("with --objective: check %v, error %v; want none", check, err)
	}
}

// TestTRLWeightsAcrossFilesNamed: of the tables that disagree with the
// weights read, the line names the first trlMaxFilesNamed, then how
// many more; a table whose log no weighted sum of the rewards read
// reproduces (its advantage weighs a third column) is said to have none.
func TestTRLWeightsAcrossFilesNamed(t *testing.T) {
	spread := [4][3]float64{{1, 0, 0.25}, {0, 1, 0}, {1, 0.5, 1}, {0, 0, 0.5}}
	other := [4][3]float64{{0, 0.5, 0.75}, {1, 1, 0}, {0, 0.5, 1}, {1, 0, 0.5}}
	thirdWeighed := writeTRLTable(t, [][4][3]float64{spread, other}, [3]float64{2, 0.5, 1})
	changed, err := os.ReadFile(filepath.Join(trlFixture("reward_weights_changed"), "completions_00002.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	copies := t.TempDir()
	for i := range 4 {
		if err := os.WriteFile(filepath.Join(copies, fmt.Sprintf("completions_%05d.parquet", i+2)), changed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := filepath.Join(trlFixture("reward_weights_steps"), "completions_00001.parquet")
	_, warning := applyLoaded(t, setup.Config{}, []string{first, thirdWeighed, copies})
	want := "other files tells, " + thirdWeighed + "'s being none in TRL's settings (no weighted sum of the rewards reproduces its log), " +
		filepath.Join(copies, "completions_00002.parquet") + "'s being accuracy_reward 4, format_reward 1, " +
		filepath.Join(copies, "completions_00003.parquet") + "'s being accuracy_reward 4, format_reward 1, and 2 more files (the reward weights changed"
	if !strings.Contains(warning, want) {
		t.Errorf("%q lacks %q", warning, want)
	}
}
