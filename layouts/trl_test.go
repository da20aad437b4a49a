package layouts

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// trlFixture is the completions directory of a fixture of
// cmd/testdata/trl, which the command line's tests share: a TRL
// completions table written as log() writes it, with the advantage TRL's
// own code computed (scripts/trl_fixtures.py).
func trlFixture(name string) string {
	return filepath.Join("..", "cmd", "testdata", "trl", name, "completions")
}

// peekedRewardColumns is trlRewardColumns of the file at path, peeked
// with loaders' default options; a file that cannot be peeked ends the test.
func peekedRewardColumns(t *testing.T, path string) (rewards []string, note string, err error) {
	t.Helper()
	files, err := loaders.Peek([]string{path}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rewards, note, _, err = trlRewardColumns(files[0])
	return rewards, note, err
}

// TestTRLRewardColumnsByOrder checks the columns of a TRL table without a
// logged advantage: the floats right after completion are rewards, those
// after a column of another type log_extra's.
func TestTRLRewardColumnsByOrder(t *testing.T) {
	first := loaders.FileFields{
		Path:    "completions_00001.parquet",
		Columns: []string{"step", "prompt", "completion", "acc", "fmt", "parsed", "sim"},
		Floats:  []string{"acc", "fmt", "sim"},
	}
	rewards, note, _, err := trlRewardColumns(first)
	if err != nil || !slices.Equal(rewards, []string{"acc", "fmt"}) || note != "log_extra columns sim left out (they follow a column that is not a float)" {
		t.Errorf("rewards %v, note %q, error %v", rewards, note, err)
	}
	// Another format has no column order, nor have keys a writer sorted
	// (a reward before completion): every float but step and advantage.
	first.Floats = []string{"acc", "advantage", "sim", "step"}
	for _, columns := range [][]string{nil, {"acc", "advantage", "completion", "parsed", "prompt", "sim", "step"}} {
		first.Columns = columns
		if rewards, note, _, err := trlRewardColumns(first); err != nil || !slices.Equal(rewards, []string{"acc", "sim"}) || note != "" {
			t.Errorf("columns %q: rewards %v, note %q, error %v", columns, rewards, note, err)
		}
	}
}

// TestTRLRewardColumnsOfText: TRL's table written by pandas as CSV
// (df.to_csv, its index first), JSONL or a JSON array keeps the DataFrame's column
// order, as a W&B table does: the float log_extra column right after the
// rewards (length) is left out, found with the logged advantage, and the
// one after a column of another type (similarity) too.
func TestTRLRewardColumnsOfText(t *testing.T) {
	dir := filepath.Join("..", "cmd", "testdata", "trl", "log_extra_text")
	want := "rewards = the first 2 float columns, whose sum reproduces the logged advantage; log_extra columns length, similarity left out"
	for _, name := range []string{"completions.csv", "completions.jsonl", "completions.json"} {
		rewards, note, err := peekedRewardColumns(t, filepath.Join(dir, name))
		if err != nil || !slices.Equal(rewards, []string{"accuracy_reward", "format_reward"}) || note != want {
			t.Errorf("%s: rewards %v, note %q, error %v; want %q", name, rewards, note, err, want)
		}
	}
}

// TestTRLVariants checks trlTable.advantages, which finds the reward
// columns, against TRL's own advantages in each of its settings: the
// table's two reward columns reproduce every row under the setting the
// table was written with, and the sum of the first alone does not.
func TestTRLVariants(t *testing.T) {
	for fixture, v := range map[string]trlVariant{
		"group":              {scale: "group"},
		"scale_batch":        {scale: "batch"},
		"scale_none":         {scale: "none"},
		"normalize_then_sum": {normalizeThenSum: true},
	} {
		table, err := readTRLTable(loaders.FileFields{Path: filepath.Join(trlFixture(fixture), "completions_00001.parquet")}, []string{"accuracy_reward", "format_reward"})
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range table.advantages(2, v, nil) {
			if d := math.Abs(a - table.advantage[i]); d > 1e-6 {
				t.Errorf("%s, row %d: %.9g, TRL %.9g", fixture, i, a, table.advantage[i])
			}
		}
		if !slices.Contains(table.reproducedRows(1, table.trainRows()), false) {
			t.Errorf("%s: accuracy_reward alone reproduces every row", fixture)
		}
	}
}

// TestTRLNullColumns checks the columns null in the first record: a
// number later makes a float column, a text later does not, and a column
// null in every record read is a float column, said to be so.
func TestTRLNullColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "completions.jsonl")
	text := `{"step":1,"prompt":"p","completion":"c","acc":null,"code":null,"parsed":null}` + "\n" +
		`{"step":1,"prompt":"p","completion":"c","acc":1,"code":null,"parsed":"42"}` + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := loaders.Peek([]string{path}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first, allNull, read := trlNullColumns(files[0])
	if !slices.Equal(first.Floats, []string{"acc", "code", "step"}) || !slices.Equal(allNull, []string{"code"}) || read != 2 {
		t.Errorf("floats %v, null in every record %v, %d read", first.Floats, allNull, read)
	}
	rewards, note, _, err := trlRewardColumns(files[0])
	if want := "code null in every record read of " + path + " (2 records): a reward function that returned None for each (adding nothing)"; err != nil || !slices.Equal(rewards, []string{"acc", "code"}) || note != want {
		t.Errorf("rewards %v, note %q, error %v", rewards, note, err)
	}
}

// TestUnequalGroupsQuotesFromTheLine: a TRL step's odd groups are quoted
// from the start of the line where their prompts part (the shared chat
// template left out), as the verl layout and the follow check quote them,
// not from the middle of a line.
func TestUnequalGroupsQuotesFromTheLine(t *testing.T) {
	const template = "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\n"
	groups := []diagnose.GroupSummary{
		{Key: template + "What is 2+2?", N: 4, Members: []int{0, 1, 2, 3}},
		{Key: template + "What is 3+3?", N: 4, Members: []int{4, 5, 6, 7}},
		{Key: template + "What is 5+5?", N: 3, Members: []int{8, 9, 10}},
	}
	b := &engine.Batch{Step: 2, Members: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}
	got := unequalGroups(b, groups, 0)
	if want := `…"What is 5+5?" (3)`; !strings.Contains(got, want) {
		t.Errorf("warning = %s\nwant it to quote %s", got, want)
	}
}

// TestTRLRewardColumnsOfRLOO writes the completions table of TRL's
// RLOOTrainer (beta 0), its advantages as
// RLOOTrainer._generate_and_score_completions computes them (trl f2cd577,
// rloo_trainer.py: advantages = rewards - (grouped_sum - grouped_rewards)
// / (scorable_counts - 1), then with normalize_advantages (advantages -
// nanmean) / (nanstd + 1e-4) over the batch), with a log_extra column of
// floats after the rewards: the rewards are found, and the read-as line
// does not blame reward_weights for what is the method.
func TestTRLRewardColumnsOfRLOO(t *testing.T) {
	accuracy := [][]float64{{1, 0, 1, 0.5}, {0, 0, 1, 1}, {1, 1, 0.5, 0}}
	format := [][]float64{{0.25, 1, 0, 1}, {1, 0.25, 0.25, 0}, {0, 1, 1, 0.25}}
	for _, normalize := range []bool{false, true} {
		var adv []float64
		for g := range accuracy {
			sum := 0.0
			for j := range accuracy[g] {
				sum += accuracy[g][j] + format[g][j]
			}
			for j := range accuracy[g] {
				r := accuracy[g][j] + format[g][j]
				adv = append(adv, r-(sum-r)/3)
			}
		}
		if normalize {
			mean, std := nanMeanStd(adv, nil)
			for i := range adv {
				adv[i] = (adv[i] - mean) / (std + 1e-4)
			}
		}
		var rows []string
		for g := range accuracy {
			for j := range accuracy[g] {
				rows = append(rows, fmt.Sprintf(`[1, "prompt %d", "completion %d", %g, %g, %d, %.9g]`, g, j, accuracy[g][j], format[g][j], 40+17*(g*4+j)%90, float32(adv[g*4+j])))
			}
		}
		path := filepath.Join(t.TempDir(), "completions_1_0123456789.table.json")
		text := `{"columns": ["step", "prompt", "completion", "accuracy_reward", "format_reward", "num_think_tokens", "advantage"], "data": [` + strings.Join(rows, ", ") + "]}"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		rewards, note, err := peekedRewardColumns(t, path)
		want := "rewards = the first 2 float columns, whose sum reproduces the logged advantage; log_extra columns num_think_tokens left out"
		if err != nil || !slices.Equal(rewards, []string{"accuracy_reward", "format_reward"}) || note != want {
			t.Errorf("normalize_advantages %v: rewards %v, note %q, error %v", normalize, rewards, note, err)
		}
	}
}

// writeTRLTable writes a W&B table of TRL's completions, one group of 4
// rows per element of rows (accuracy, format, length each), with the
// advantage GRPOTrainer logs under scale_rewards "group" for
// reward_weights weights, and returns its path.
func writeTRLTable(t *testing.T, rows [][4][3]float64, weights [3]float64) string {
	t.Helper()
	var lines []string
	for g, group := range rows {
		var r []float64
		for _, row := range group {
			r = append(r, weights[0]*row[0]+weights[1]*row[1]+weights[2]*row[2])
		}
		mean, std := nanMeanStd(r, nil)
		for j, row := range group {
			a := (r[j] - mean) / (std + 1e-4)
			if std == 0 {
				a = 0
			}
			lines = append(lines, fmt.Sprintf(`[1, "prompt %d", "completion %d", %g, %g, %g, %.9g]`, g, j, row[0], row[1], row[2], float32(a)))
		}
	}
	path := filepath.Join(t.TempDir(), "completions_1_0123456789.table.json")
	text := `{"columns": ["step", "prompt", "completion", "accuracy_reward", "format_reward", "length_reward", "advantage"], "data": [` + strings.Join(lines, ", ") + "]}"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTRLRewardColumnsWithWeightsAndTies: under reward_weights other than
// 1, groups whose weighted sum ties (advantage 0) with accuracy constant
// in them are reproduced by accuracy alone, and no plain sum reproduces
// the others: the three reward columns are all taken, none dropped as
// log_extra, and the note says that their weighted sum reproduces the
// log, with the weights fitted; where every group ties, nothing tells.
func TestTRLRewardColumnsWithWeightsAndTies(t *testing.T) {
	weights := [3]float64{1, 0.5, 1}
	// Weighted, format 1 and length 0.5 weigh alike: the group ties.
	tie := [4][3]float64{{1, 1, 0}, {1, 0, 0.5}, {1, 1, 0}, {1, 0, 0.5}}
	spread := [4][3]float64{{1, 0, 0.25}, {0, 1, 0}, {1, 0.5, 1}, {0, 0, 0.5}}
	all := []string{"accuracy_reward", "format_reward", "length_reward"}
	for name, c := range map[string]struct {
		rows [][4][3]float64
		note string
	}{
		"half the groups tie": {[][4][3]float64{tie, spread, tie, spread}, "whose sum with weights other than 1 (fitted accuracy_reward 1, format_reward 0.5, length_reward 1; --match-logged fits them) reproduces the logged advantage"},
		"every group ties":    {[][4][3]float64{tie, tie}, "no row of"},
	} {
		path := writeTRLTable(t, c.rows, weights)
		rewards, note, err := peekedRewardColumns(t, path)
		if err != nil || !slices.Equal(rewards, all) || !strings.Contains(note, c.note) {
			t.Errorf("%s: rewards %v, note %q, error %v", name, rewards, note, err)
		}
	}
	// With weight 1 the same rows confirm the three columns: no note.
	path := writeTRLTable(t, [][4][3]float64{tie, spread, tie, spread}, [3]float64{1, 1, 1})
	if rewards, note, err := peekedRewardColumns(t, path); err != nil || !slices.Equal(rewards, all) || note != "" {
		t.Errorf("weight 1: rewards %v, note %q, error %v", rewards, note, err)
	}
}

// TestTRLStdinNotTRL: --from trl on standard input whose first record has
// not TRL's fields is refused, as a file is, rather than its columns
// scored as rewards.
func TestTRLStdinNotTRL(t *testing.T) {
	stdin, _ := loaders.PeekStdin(loaders.Options{Stdin: strings.NewReader(`{"input":"q","output":"a","score":1,"step":1}` + "\n")}, peekRows)
	_, _, _, err := Apply(context.Background(), setup.Config{From: "trl"}, []string{"-"}, loaders.Options{}, stdin, nil)
	if want := "standard input: not TRL completions (--from trl): its first record has fields input, output, score, step, TRL completions has completion, prompt, step"; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// TestTRLRewardColumnsEither: a float log_extra column constant within
// each prompt (gt_length, TRL's own code wrote the table) changes no
// advantage, so the rewards with it and without it reproduce the log
// alike: it is read as log_extra, a value of the prompt, and a warning
// names it with the flags that take it as a reward. A column constant
// throughout (a reward still 0 everywhere) is kept as a reward, warned
// of with the flags that leave it out.
func TestTRLRewardColumnsEither(t *testing.T) {
	rewards, note, err := peekedRewardColumns(t, trlFixture("log_extra_prompt_value"))
	for _, want := range []string{"log_extra columns gt_length left out", "warning: gt_length could be a reward or a log_extra column", "read as log_extra, being constant within each prompt but not across them", "to take it as a reward, give --objective accuracy_reward=accuracy_reward --objective format_reward=format_reward --objective gt_length=gt_length"} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q: %q", want, note)
		}
	}
	if err != nil || !slices.Equal(rewards, []string{"accuracy_reward", "format_reward"}) {
		t.Errorf("rewards %v, error %v", rewards, err)
	}
	spread := [4][3]float64{{1, 0, 0}, {0, 1, 0}, {1, 0.5, 0}, {0, 0, 0}}
	other := [4][3]float64{{0, 1, 0}, {1, 1, 0}, {0, 0.25, 0}, {1, 0, 0}}
	path := writeTRLTable(t, [][4][3]float64{spread, other}, [3]float64{1, 1, 1})
	rewards, note, err = peekedRewardColumns(t, path)
	if want := "warning: length_reward could be a reward or a log_extra column"; !strings.Contains(note, want) || !strings.Contains(note, "read as a reward, being constant in every row read") || !strings.Contains(note, "to leave it out, give --objective accuracy_reward=accuracy_reward --objective format_reward=format_reward") {
		t.Errorf("a column 0 throughout: note %q", note)
	}
	if err != nil || !slices.Equal(rewards, []string{"accuracy_reward", "format_reward", "length_reward"}) {
		t.Errorf("a column 0 throughout: rewards %v, error %v", rewards, err)
	}
}

// TestTRLRewardColumnsWeighted: reward_weights=[1.0, 0.5] with a float
// log_extra column (TRL's own code wrote the table), where accuracy alone
// reproduces more rows than the plain sum: the weighted sum of the first
// two reproduces every row, so both are rewards and the note says the
// weights are not 1 and never that a plain sum reproduces the log.
func TestTRLRewardColumnsWeighted(t *testing.T) {
	rewards, note, err := peekedRewardColumns(t, trlFixture("reward_weights_extra"))
	want := "rewards = the first 2 float columns, whose sum with weights other than 1 (fitted accuracy_reward 1, format_reward 0.5; --match-logged fits them) reproduces the logged advantage; log_extra columns num_tokens left out"
	if err != nil || !slices.Equal(rewards, []string{"accuracy_reward", "format_reward"}) || note != want {
		t.Errorf("rewards %v, note %q, error %v", rewards, note, err)
	}
}

// TestTRLRewardColumnsPickedOnTrainingRows: a table TRL's own code wrote
// (scripts/trl_fixtures.py, eval_pick) with evaluation rows at the step
// of a training log, where scale none reproduces more of the table's rows
// (a group the deque cut, the evaluation's 0s) than the training's scale
// group, which alone reproduces every training row. The setting is
// chosen on the training rows, which are judged: the plain sum of both
// rewards reproduces the log, and the note says nothing of weights (not
// "weights other than 1", fitted 1 and 1).
func TestTRLRewardColumnsPickedOnTrainingRows(t *testing.T) {
	rewards, note, err := peekedRewardColumns(t, trlFixture("eval_pick"))
	if err != nil || !slices.Equal(rewards, []string{"accuracy_reward", "format_reward"}) || note != "" {
		t.Errorf("rewards %v, note %q, error %v", rewards, note, err)
	}
}

// TestTRLRewardColumnsUnknownWeights: advantages that no sum of the
// leading columns gives, weighted or not, in any of TRL's settings: every
// leading column is a reward, and the note says the weights are unknown,
// suggesting --match-logged, not that a sum reproduces the log.
func TestTRLRewardColumnsUnknownWeights(t *testing.T) {
	var lines []string
	for i := range 16 {
		lines = append(lines, fmt.Sprintf(`[1, "prompt %d", "completion %d", %d, %g, %d, %.9g]`, i/4, i, i%2, float64(i%3)/2, 40+i*7, math.Sin(float64(i*i))))
	}
	path := filepath.Join(t.TempDir(), "completions_1_0123456789.table.json")
	text := `{"columns": ["step", "prompt", "completion", "accuracy_reward", "format_reward", "num_tokens", "advantage"], "data": [` + strings.Join(lines, ", ") + "]}"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	rewards, note, err := peekedRewardColumns(t, path)
	if err != nil || !slices.Equal(rewards, []string{"accuracy_reward", "format_reward", "num_tokens"}) {
		t.Errorf("rewards %v, error %v", rewards, err)
	}
	if !strings.Contains(note, "no sum of the first ones of them, weighted or not, reproduces the logged advantage") || !strings.Contains(note, "the reward weights are unknown, or the advantage holds what the table does not log") || strings.Contains(note, "whose sum") ||
		!strings.Contains(note, "warning: format_reward, num_tokens, taken as rewards, could be log_extra columns") {
		t.Errorf("note %q", note)
	}
}

// TestTRLFittedWeightsScale checks that the read-as line says the weights
// that reproduce the log, not their ratios to the first: under scale
// group, epsilon (1e-4 beside the std) tells their common factor when the
// std is of the order of 1, and says ratios only when the std is so large
// that any factor reproduces the log.
func TestTRLFittedWeightsScale(t *testing.T) {
	spread := [4][3]float64{{1, 0, 0.25}, {0, 1, 0}, {1, 0.5, 1}, {0, 0, 0.5}}
	other := [4][3]float64{{0, 0.5, 0.75}, {1, 1, 0}, {0, 0.5, 1}, {1, 0, 0.5}}
	rows := [][4][3]float64{spread, other, spread, other}
	for _, c := range []struct {
		weights [3]float64
		note    string
	}{
		{[3]float64{2, 0.5, 1}, "whose sum with weights other than 1 (fitted accuracy_reward 2, format_reward 0.5, length_reward 1; --match-logged fits them)"},
		{[3]float64{2000, 500, 1000}, "whose sum with weights in the ratios accuracy_reward 1 : format_reward 0.25 : length_reward 0.5 (the log does not tell their common factor"},
	} {
		_, note, err := peekedRewardColumns(t, writeTRLTable(t, rows, c.weights))
		if err != nil || !strings.Contains(note, c.note) {
			t.Errorf("weights %v: note %q, error %v, want %q", c.weights, note, err, c.note)
		}
	}
}

// TestTRLBatchResidueLeavesUncheckedRows: gdpo_constant_format_6's table
// (normalize_then_sum, the float32 residue of three tied format groups,
// by TRL's own code: scripts/trl_fixtures.py), then a prompt whose six
// rows have every reward None, logged 0.5. The residue of the other
// groups is accepted, and the None rows keep TRL's 0, not the log's
// value, which nothing checked.
func TestTRLBatchResidueLeavesUncheckedRows(t *testing.T) {
	acc := []float64{1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 0}
	f := float64(float32(0.9))
	form := []float64{f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, 0, f, 0, f, 0, f}
	adv := []float64{0.6648382544517517, -1.330137014389038, -1.330137014389038, 0.6648382544517517, 0.6648382544517517, 0.6648382544517517, -0.940604031085968, 0.9402971863746643, 0.9402971863746643, -0.940604031085968, 0.9402971863746643, -0.940604031085968, 0.6648382544517517, -1.330137014389038, -1.330137014389038, 0.6648382544517517, 0.6648382544517517, 0.6648382544517517, -1.8804218769073486, 1.8813426494598389, 0.0004793568514287472, 0.0004414013819769025, 0.0004793568514287472, 0.0004414013819769025}
	b := newTRLTableBuilder(2)
	for i := range acc {
		b.add(1, string(rune('a'+i/6)), []float64{acc[i], form[i]}, adv[i])
	}
	for range 6 {
		b.add(1, "none", []float64{math.NaN(), math.NaN()}, 0.5)
	}
	a := b.trlTable.advantages(2, trlVariant{normalizeThenSum: true}, nil)
	for i := range adv {
		if a[i] != adv[i] {
			t.Fatalf("row %d: advantage %v, want the log's %v (the tied groups' residue accepted)", i, a[i], adv[i])
		}
	}
	for i := len(adv); i < len(a); i++ {
		if a[i] != 0 {
			t.Errorf("row %d, every reward None: advantage %v, want TRL's 0, not the log's unchecked %v", i, a[i], b.advantage[i])
		}
	}
}

// TestTRLOnePerPrompt: a table of one row per prompt (TRL's
// log_unique_prompts=True) tells nothing of which columns are rewards nor
// of their weights, as TRL computed its advantages over rows it does not
// hold: every leading float column is a reward, the read-as line says
// why, without the unknown weights or the log_extra suspicion that a
// failed fit would suggest, and the logged advantage is not compared,
// whether the rewards are read or named.
func TestTRLOnePerPrompt(t *testing.T) {
	first := onePerPromptTable(t)
	path := first.Path
	cfg, note, _, err := trlDefaults(setup.Config{}, first)
	if err != nil {
		t.Fatal(err)
	}
	var objectives []string
	for _, o := range cfg.Objectives {
		objectives = append(objectives, o.Name)
	}
	if !slices.Equal(objectives, []string{"accuracy_reward", "format_reward"}) || cfg.LoggedAdvantage != "" {
		t.Errorf("objectives %v, logged advantage %q; want both rewards, none compared", objectives, cfg.LoggedAdvantage)
	}
	if !strings.Contains(note, "every prompt of "+path+" has one row, probably a table logged with log_unique_prompts=True") || strings.Contains(note, "unknown") || strings.Contains(note, "warning") {
		t.Errorf("note %q", note)
	}
	// The rewards named (--objective), the table is read for it alone.
	named := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "accuracy_reward", Expr: `metadata["accuracy_reward"]`}}}
	cfg, note, _, err = trlDefaults(named, first)
	if err != nil || cfg.LoggedAdvantage != "" || !strings.HasPrefix(note, "every prompt of "+path+" has one row") {
		t.Errorf("objective named: logged advantage %q, note %q, error %v", cfg.LoggedAdvantage, note, err)
	}
}

// onePerPromptTable writes a TRL completions table of one row per
// prompt, 4 prompts of step 1, and returns it as Peek reads it.
func onePerPromptTable(t *testing.T) loaders.FileFields {
	t.Helper()
	path := filepath.Join(t.TempDir(), "completions_1_0123456789.table.json")
	text := `{"columns": ["step", "prompt", "completion", "accuracy_reward", "format_reward", "advantage"], "data": [` +
		`[1, "p1", "c", 0.0, 0.0, -0.8365], [1, "p2", "c", 0.0, 1.0, -0.3818], [1, "p3", "c", 1.0, 1.0, 1.2074], [1, "p4", "c", 1.0, 0.5, -0.3535]]}`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := loaders.Peek([]string{path}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return files[0]
}

// TestTRLDefaultsReadsTableOnce: trlDefaults loads the first file once
// when the reward columns read it but found no run of one prompt (one
// row per prompt), and not at all when the groups are named and the
// logged advantage is named too: nothing it would read is used.
func TestTRLDefaultsReadsTableOnce(t *testing.T) {
	first := onePerPromptTable(t)
	loads := 0
	t.Cleanup(func() { loadTRLTable = loaders.Load })
	loadTRLTable = func(paths []string, opts loaders.Options) (*loaders.Result, error) {
		loads++
		return loaders.Load(paths, opts)
	}
	named := []setup.ObjectiveConfig{{Name: "accuracy_reward", Expr: `metadata["accuracy_reward"]`}}
	for _, tc := range []struct {
		name      string
		cfg       setup.Config
		wantLoads int
	}{
		{"rewards read", setup.Config{}, 1},
		{"rewards named", setup.Config{Objectives: named}, 1},
		{"rewards, groups and advantage named", setup.Config{Objectives: named, GroupBy: "prompt", LoggedAdvantage: "advantage"}, 0},
	} {
		loads = 0
		if _, _, _, err := trlDefaults(tc.cfg, first); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if loads != tc.wantLoads {
			t.Errorf("%s: the first file loaded %d times, want %d", tc.name, loads, tc.wantLoads)
		}
	}
}

// TestTRLCutRunsFirstFromItsEnd: a step's first run of one prompt that
// another run of the step follows is cut from its end (TRL's deques lost
// its first rows: 2 + 8), as engine's GroupRuns cuts it; one that ends
// the step's rows, and every other run, from its start (8 + 2).
func TestTRLCutRunsFirstFromItsEnd(t *testing.T) {
	for _, c := range []struct {
		prompts string // a letter a row, step 1 then, after "|", step 2
		want    []int  // the groups' sizes
	}{
		{"AAAAAAAAAABB", []int{2, 8, 2}},
		{"AAAAAAAAAA", []int{8, 2}},
		{"BBAAAAAAAAAA", []int{2, 8, 2}},
		{"AAAAAAAAAA|AAAAAAAAAAB", []int{8, 2, 2, 8, 1}},
	} {
		b := newTRLTableBuilder(0)
		step := 1.0
		for _, p := range c.prompts {
			if p == '|' {
				step++
				continue
			}
			b.add(step, string(p), nil, 0)
		}
		var sizes []int
		for _, g := range b.cutRuns(8).groups {
			sizes = append(sizes, len(g))
		}
		if !slices.Equal(sizes, c.want) {
			t.Errorf("%s: groups of %v, want %v", c.prompts, sizes, c.want)
		}
	}
}
