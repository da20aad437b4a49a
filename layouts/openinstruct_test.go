package layouts

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestOpenInstructNormalisation checks how the layout tells the standard
// advantage from the centered one by the logged advantage.
func TestOpenInstructNormalisation(t *testing.T) {
	line := func(step, prompt int, reward, advantage float64) string {
		b, _ := json.Marshal(map[string]any{"step": step, "sample_idx": 0, "prompt_idx": prompt, "reward": reward, "advantage": advantage})
		return string(b) + "\n"
	}
	// Rewards 0, 2: mean 1, population std 1.
	std := 1 / (1 + 1e-8)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"standard.jsonl": line(1, 0, 0, -std) + line(1, 0, 2, std),
		"centered.jsonl": line(1, 0, 0, -1) + line(1, 0, 2, 1),
		// Every group's rewards equal: both formulas give 0.
		"flat.jsonl": line(1, 0, 3, 0) + line(1, 0, 3, 0),
		// One group standard, one centered: neither fits the run.
		"mixed.jsonl": line(1, 0, 0, -std) + line(1, 0, 2, std) + line(1, 1, 0, -1) + line(1, 1, 2, 1),
		// A group of one (numpy's std 0) tells nothing either.
		"alone.jsonl": line(1, 0, 5, 0),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// told: whether the records tell the normalisation.
	for name, want := range map[string]struct {
		mode openInstructMode
		told bool
	}{
		"standard.jsonl": {openInstructStandard, true}, "centered.jsonl": {openInstructCentered, true},
		"flat.jsonl": {openInstructCentered, false}, "mixed.jsonl": {openInstructCentered, false},
		"alone.jsonl": {openInstructCentered, false}, "missing.jsonl": {openInstructCentered, false},
	} {
		if got, untold := openInstructNormalisation(newFirstRecords(loaders.FileFields{Path: filepath.Join(dir, name)}).records()); got != want.mode || (untold == "") != want.told {
			t.Errorf("%s: %s (%q), want %s, told %v", name, got, untold, want.mode, want.told)
		}
	}
	if got, untold := openInstructNormalisation(newFirstRecords(loaders.FileFields{}).records()); got != openInstructCentered || untold == "" {
		t.Errorf(`"": %s (%q), want centered, not told`, got, untold)
	}
	// What does not tell says what the groups fit, per step: a run
	// centered, then standard, is not one that fits neither formula.
	for name, c := range map[string]struct{ text, want string }{
		"centered, then standard": {line(1, 0, 0, -1) + line(1, 0, 2, 1) + line(2, 0, 0, -1) + line(2, 0, 2, 1) + line(3, 0, 0, -std) + line(3, 0, 2, std) + line(4, 0, 0, -std) + line(4, 0, 2, std),
			"the first records' logged advantages fit centered in steps 1–2 and standard in steps 3–4"},
		"and a step that fits neither": {line(1, 0, 0, -1) + line(1, 0, 2, 1) + line(2, 0, 0, -std) + line(2, 0, 2, std) + line(3, 0, 0, -5) + line(3, 0, 2, 5) + line(5, 0, 0, -1) + line(5, 0, 2, 1),
			"the first records' logged advantages fit centered in steps 1 and 5 and standard in step 2, neither in step 3"},
		"none fits": {line(1, 0, 0, -5) + line(1, 0, 2, 5),
			"the first records' logged advantages fit neither formula in any group"},
	} {
		path := filepath.Join(dir, "steps.jsonl")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, untold := openInstructNormalisation(newFirstRecords(loaders.FileFields{Path: path}).records()); got != openInstructCentered || untold != c.want {
			t.Errorf("%s: %s (%q), want centered (%q)", name, got, untold, c.want)
		}
	}
}

// TestOpenInstructPassThreshold checks the pass threshold read from the
// levels of the rewards (verification_reward v, format reward f).
func TestOpenInstructPassThreshold(t *testing.T) {
	rows := func(rewards ...float64) []scoring.Trajectory {
		ts := make([]scoring.Trajectory, len(rewards))
		for i, r := range rewards {
			ts[i].Metadata = map[string]any{"reward": r}
		}
		return ts
	}
	for _, c := range []struct {
		name    string
		rewards []float64
		want    float64 // 0: the default stands, with a warning
	}{
		{"v alone", []float64{0, 10, 0, 10}, 10},
		{"v, f, v+f", []float64{0, 1, 10, 11, 1}, 10},
		{"f, v, v+f below 1", []float64{0.5, 1, 1.5, 0}, 1},
		{"v, v+f", []float64{10, 11, 0}, 10},
		{"f, v", []float64{1, 10}, 9},
		{"f, v+f", []float64{1, 11, 0}, 10},
		{"a and 2a: only 2a surely passes", []float64{1, 2, 0}, 2},
		{"non-stop penalty below 0", []float64{-10, 0, 1, 10, 11}, 10},
		{"NaN and infinite left out", []float64{math.NaN(), math.Inf(1), 10}, 10},
		{"partial scores", []float64{0, 2.5, 5, 7.5, 10}, 0},
		{"three levels not a sum", []float64{1, 2, 10}, 0},
		{"none above 0", []float64{0, -1}, 0},
	} {
		got, note, _ := openInstructPassThreshold(rows(c.rewards...))
		switch {
		case c.want == 0 && (got != nil || !strings.Contains(note, "the default (warning: ")):
			t.Errorf("%s: %v, %q, want the default with a warning", c.name, got, note)
		case c.want != 0 && (got == nil || *got != c.want || strings.Contains(note, "warning")):
			t.Errorf("%s: %v, %q, want %v", c.name, got, note, c.want)
		}
	}
	if got, note, levels := openInstructPassThreshold(nil); got != nil || levels != nil || !strings.Contains(note, "no file read") {
		t.Errorf("no rows: %v, %q", got, note)
	}
}

// TestOpenInstructThresholdOnlyForReward: the layout reads the threshold
// of the reward only, and leaves one given alone.
func TestOpenInstructThresholdOnlyForReward(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run_rollouts_000000.jsonl")
	if err := os.WriteFile(path, []byte(`{"step": 1, "sample_idx": 0, "prompt_idx": 0, "prompt_tokens": [1], "reward": 10, "advantage": 0, "acc": 1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	first := loaders.FileFields{Path: path, Names: []string{"acc", "advantage", "prompt_idx", "prompt_tokens", "reward", "sample_idx", "step"}}
	two := 2.0
	for _, c := range []struct {
		name string
		cfg  setup.Config
		want float64 // 0: not set
	}{
		{"default", setup.Config{}, 10},
		{"task metric reward", setup.Config{TaskMetric: "reward"}, 10},
		{"task metric acc", setup.Config{TaskMetric: "acc"}, 0},
		{"another first objective", setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "acc"}}}, 0},
		{"an objective named reward of another value", setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "reward", Expr: "reward * 2"}}}, 0},
		{"given", setup.Config{PassThreshold: &two}, 2},
	} {
		cfg, note, _, err := layoutDefaults(c.cfg, &openInstructLayout, first)
		var got float64
		if cfg.PassThreshold != nil {
			got = *cfg.PassThreshold
		}
		if err != nil || got != c.want || (c.want == 10) != strings.Contains(note, "pass threshold") {
			t.Errorf("%s: threshold %v, note %q, %v; want %v", c.name, got, note, err, c.want)
		}
		if cfg.PromptBy != "prompt_tokens" || cfg.IDBy == "" {
			t.Errorf("%s: prompt_by %q, id_by %q", c.name, cfg.PromptBy, cfg.IDBy)
		}
	}
}

// TestPromptNote: the "read as" line says the prompt a layout follows
// when it is not the group, with why only for the layout's own group.
func TestPromptNote(t *testing.T) {
	openInstruct := loaders.FileFields{Names: []string{"advantage", "prompt_idx", "prompt_tokens", "reward", "sample_idx", "step"}}
	verl := loaders.FileFields{Names: []string{"input", "output", "score", "step", "uid"}}
	for _, c := range []struct {
		name  string
		l     *trainerLayout
		cfg   setup.Config
		first loaders.FileFields
		want  string // "": no prompt note
	}{
		{"open-instruct", &openInstructLayout, setup.Config{}, openInstruct, ", prompt = prompt_tokens (prompt_idx is a slot of the step's batch), id = "},
		{"open-instruct grouped as given", &openInstructLayout, setup.Config{GroupBy: "step"}, openInstruct, ", prompt = prompt_tokens, id = "},
		{"open-instruct prompt given", &openInstructLayout, setup.Config{PromptBy: "prompt_idx"}, openInstruct, ""},
		{"verl with uid", &verlLayout, setup.Config{}, verl, ", prompt = input (uid changes every step), id = uid"},
		{"verl grouped by input", &verlLayout, setup.Config{}, loaders.FileFields{Names: []string{"input", "output", "score", "step"}}, ""},
	} {
		_, sentence, _, err := layoutDefaults(c.cfg, c.l, c.first)
		if err != nil || (c.want == "") == strings.Contains(sentence, "prompt = ") || !strings.Contains(sentence, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.name, sentence, err, c.want)
		}
	}
}

// TestGroupKeyNote: open-instruct's group key, prompt_idx, is said to be
// a slot of the step's batch (setup.Config.GroupKeyNote, the dashboard's
// group view); not when --group-by regroups the rows, nor for a layout
// whose groups show their prompt's text.
func TestGroupKeyNote(t *testing.T) {
	openInstruct := loaders.FileFields{Names: []string{"advantage", "prompt_idx", "prompt_tokens", "reward", "sample_idx", "step"}}
	verl := loaders.FileFields{Names: []string{"input", "output", "score", "step", "uid"}}
	for _, c := range []struct {
		name  string
		l     *trainerLayout
		cfg   setup.Config
		first loaders.FileFields
		want  string
	}{
		{"open-instruct", &openInstructLayout, setup.Config{}, openInstruct, "a slot of the step's batch (sample_idx // num_samples_per_prompt), not a prompt: each step draws new prompts"},
		{"open-instruct grouped as given", &openInstructLayout, setup.Config{GroupBy: "step"}, openInstruct, ""},
		{"verl", &verlLayout, setup.Config{}, verl, ""},
	} {
		cfg, _, _, err := layoutDefaults(c.cfg, c.l, c.first)
		if err != nil || cfg.GroupKeyNote != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, cfg.GroupKeyNote, err, c.want)
		}
	}
}

// TestOpenInstructNormalisationWarning checks which step the warning of a
// contradicted advantage normalisation names: the first after the first
// batch whose groups fit the other formula and none the one in force;
// none when the first batch contradicts it too (settings given), nor for
// a group shorter than its step's others (caught in part) or with a row
// without a reward.
func TestOpenInstructNormalisationWarning(t *testing.T) {
	cfg, _, _, err := layoutDefaults(setup.Config{}, &openInstructLayout, loaders.FileFields{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	group := func(step int64, prompt string, standard bool, rewards ...float64) []scoring.Trajectory {
		return openInstructGroup(step, prompt, "reward", standard, rewards...)
	}
	centered := slices.Concat(group(1, "0", false, 0, 10, 0, 10), group(1, "1", false, 0, 0, 10, 10))
	standard2 := slices.Concat(group(2, "0", true, 0, 10, 0, 10), group(2, "1", true, 10, 0, 0, 0))
	for _, c2 := range []struct {
		name    string
		ts      []scoring.Trajectory
		batches []int
		want    string // the step named, "" for none; then the reason
	}{
		{"a later standard step", slices.Concat(centered, standard2, group(3, "0", true, 0, 1, 2, 3)), []int{0, 1, 2}, "step 2: the logged advantages fit open-instruct's standard advantage normalisation, not the centered one the rewards are computed with: the run's advantage_normalization_type changed"},
		// The first step's rewards all equal in each group: it fits both.
		{"after a step that told nothing", slices.Concat(group(1, "0", false, 10, 10, 10, 10), standard2), []int{0, 1}, "step 2: the logged advantages fit open-instruct's standard advantage normalisation, not the centered one the rewards are computed with: no earlier step fits it"},
		{"followed, that step", slices.Concat(centered, standard2, group(3, "0", true, 0, 1, 2, 3)), []int{1}, "step 2: "},
		{"followed, a step after it", slices.Concat(centered, standard2, group(3, "0", true, 0, 1, 2, 3)), []int{2}, ""},
		{"the first step standard too", slices.Concat(group(1, "0", true, 0, 10, 0, 10), standard2), []int{0, 1}, ""},
		{"a step centered throughout", slices.Concat(centered, group(2, "0", false, 1, 2, 3, 4)), []int{0, 1}, ""},
		// A short group fits standard, the whole one tells nothing.
		{"a group caught in part", slices.Concat(centered, group(2, "0", false, 10, 10, 10, 10), group(2, "1", true, 0, 10)), []int{0, 1}, ""},
		// The group's fifth row has no reward: its four fit standard.
		{"a row without a reward", slices.Concat(centered, group(2, "0", true, 0, 10, 0, 10), []scoring.Trajectory{{Batch: 2, Group: "0", Done: true, Metadata: map[string]any{"advantage": 0.0}}}), []int{0, 1}, ""},
	} {
		res := c.Compute(c2.ts, engine.GRPO)
		got := openInstructNormalisationWarning(cfg, res, c2.batches)
		if (c2.want == "") != (got == "") || !strings.HasPrefix(got, c2.want) {
			t.Errorf("%s: %q, want %q", c2.name, got, c2.want)
		}
	}
	// The normalisation in force is that of the options the rewards are
	// computed with, not the configuration the layout read (cfg's,
	// centered here): the dashboard's n and method switch and
	// --match-logged change them.
	computeWith := func(ts []scoring.Trajectory, set func(*engine.Options)) *engine.Result {
		e := c.NewEvaluator()
		e.Add(ts)
		opts := c.Options
		opts.Method = engine.GRPO
		set(&opts)
		return e.Evaluation().Compute(opts)
	}
	standard := func(o *engine.Options) {
		o.Normalize, o.Scale, o.Std, o.Epsilon = true, engine.ScaleGroup, engine.StdPopulation, 1e-8
	}
	// The configuration of --no-normalize --std population --epsilon 1e-8:
	// the layout reads standard (a std or an epsilon given), which nothing
	// scales by.
	off, eps := false, 1e-8
	unnormalised := cfg
	unnormalised.Normalize, unnormalised.Scale, unnormalised.Std, unnormalised.Epsilon = &off, string(engine.ScaleGroup), string(engine.StdPopulation), &eps
	standard1 := slices.Concat(group(1, "0", true, 0, 10, 0, 10), group(1, "1", true, 0, 0, 10, 10))
	centered2 := slices.Concat(group(2, "0", false, 0, 10, 0, 10), group(2, "1", false, 10, 0, 0, 0))
	for _, c2 := range []struct {
		name string
		cfg  setup.Config
		ts   []scoring.Trajectory
		set  func(*engine.Options)
		want string // the normalisation the warning names as in force, "" for no warning
	}{
		{"standard (n pressed)", cfg, slices.Concat(standard1, centered2), standard, "not the standard one"},
		{"normalize off with the standard's std and epsilon", unnormalised, slices.Concat(centered, standard2), func(o *engine.Options) {
			standard(o)
			o.Normalize = false
		}, "not the centered one"},
		{"another method", cfg, slices.Concat(centered, standard2), func(o *engine.Options) { o.Method = engine.RLOO }, ""},
		// Per batch, neither of open-instruct's normalisations: steps of
		// one prompt, whose batch is that group, stay unwarned.
		{"scope batch", cfg, slices.Concat(group(1, "0", false, 0, 10, 0, 10), group(2, "0", true, 0, 10, 0, 10)), func(o *engine.Options) { o.Scope, o.Scale = engine.ScopeBatch, engine.ScaleNone }, ""},
		// Settings that are neither of open-instruct's: no warning.
		{"scale group, sample std", cfg, slices.Concat(group(1, "0", true, 0, 10, 0, 10), group(2, "0", false, 0, 10, 0, 10)), func(o *engine.Options) {
			o.Normalize, o.Scale, o.Std = true, engine.ScaleGroup, engine.StdSample
		}, ""},
	} {
		got := openInstructNormalisationWarning(c2.cfg, computeWith(c2.ts, c2.set), []int{0, 1})
		if (c2.want == "") != (got == "") || !strings.Contains(got, c2.want) {
			t.Errorf("%s: %q, want %q", c2.name, got, c2.want)
		}
	}
}

// TestOpenInstructLengthNeedsTheField: the completion's tokens are the
// step_count only when the first record keeps them; on standard input,
// where no first record is seen (no path), none is read, so that traces
// without the tokens load.
func TestOpenInstructLengthNeedsTheField(t *testing.T) {
	for _, c := range []struct {
		name  string
		first loaders.FileFields
		want  bool
	}{
		{"with the tokens", loaders.FileFields{Path: "run_rollouts_000000.jsonl", Names: []string{"advantage", "prompt_idx", "response_tokens", "reward", "sample_idx", "step"}}, true},
		{"without them", loaders.FileFields{Path: "run_rollouts_000000.jsonl", Names: []string{"advantage", "prompt_idx", "reward", "sample_idx", "step"}}, false},
		{"standard input", loaders.FileFields{}, false},
	} {
		cfg, note, _, err := layoutDefaults(setup.Config{}, &openInstructLayout, c.first)
		if err != nil || (cfg.StepCountBy != "") != c.want || strings.Contains(note, "step_count") != c.want {
			t.Errorf("%s: step_count_by %q, note %q, %v; want set %v", c.name, cfg.StepCountBy, note, err, c.want)
		}
	}
}

// openInstructGroup returns the rows of a prompt of step, each with field
// set to its reward and the advantage open-instruct logs of it under the
// standard normalisation (population std, epsilon 1e-8) or the centered
// one.
func openInstructGroup(step int64, prompt, field string, standard bool, rewards ...float64) []scoring.Trajectory {
	var sum, ss float64
	for _, r := range rewards {
		sum += r
	}
	mean := sum / float64(len(rewards))
	for _, r := range rewards {
		ss += (r - mean) * (r - mean)
	}
	std := math.Sqrt(ss / float64(len(rewards)))
	var ts []scoring.Trajectory
	for _, r := range rewards {
		advantage := r - mean
		if standard {
			advantage /= std + 1e-8
		}
		ts = append(ts, scoring.Trajectory{Batch: step, Group: prompt, Done: true, Metadata: map[string]any{field: r, "advantage": advantage}})
	}
	return ts
}

// TestOpenInstructFilteredWarning: traces in which no group of two or
// more valid rows has zero spread are said to be filtered
// (filter_zero_std_samples), with the first step that holds fewer rows
// than the most groups of a step times their size; one zero-spread group
// anywhere in the run says the filter was off. The note's RunNote judges
// the run alike, in one walk: the note Warnings gives last, and the
// withdrawal by the first batch that refutes it, batch by batch (Of).
func TestOpenInstructFilteredWarning(t *testing.T) {
	cfg, _, _, err := layoutDefaults(setup.Config{}, &openInstructLayout, loaders.FileFields{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	group := func(step int64, prompt string, rewards ...float64) []scoring.Trajectory {
		return openInstructGroup(step, prompt, "reward", false, rewards...)
	}
	whole := slices.Concat(group(1, "0", 0, 10, 0, 10), group(1, "1", 0, 0, 10, 10))
	note := RunNoteOf(cfg)
	for _, c2 := range []struct {
		name      string
		ts        []scoring.Trajectory
		want      string // the end of the warning, "" for none
		refutedBy int    // the batch that refutes the note, -1 for none
	}{
		{"every group spread, steps whole", slices.Concat(whole, group(2, "0", 0, 1, 0, 1), group(2, "1", 1, 0, 0, 0)), "no group of these traces has zero spread", -1},
		{"a step with a group dropped", slices.Concat(whole, group(2, "1", 1, 0, 0, 0)), "no group of these traces has zero spread (step 2 holds 4 rows, fewer than step 1's 2 groups of 4)", -1},
		{"a zero-spread group at the end", slices.Concat(whole, group(2, "0", 0, 1, 0, 1), group(2, "1", 10, 10, 10, 10)), "", 1},
		{"a zero-spread group first", slices.Concat(group(1, "1", 10, 10, 10, 10), group(2, "0", 0, 1, 0, 1), group(3, "1", 10, 10, 10, 10)), "", 0},
		{"groups of one only", slices.Concat(group(1, "0", 0), group(1, "1", 10)), "", -1},
	} {
		res := c.Compute(c2.ts, engine.GRPO)
		got, refutedBy := openInstructFilteredWarning(res)
		if (c2.want == "") != (got == "") || !strings.HasSuffix(got, c2.want) || c2.want != "" && !strings.HasPrefix(got, "open-instruct drops groups of zero spread before it writes its traces (filter_zero_std_samples, on by default)") || refutedBy != c2.refutedBy {
			t.Errorf("%s: %q refuted by batch %d, want one ending %q, by %d", c2.name, got, refutedBy, c2.want, c2.refutedBy)
		}
		var ws []string
		if warn := Warnings(cfg, scoring.Uncapped, nil); warn != nil {
			ws = warn(res, []int{0})
		}
		wantNote := ""
		if len(ws) > 0 && strings.HasPrefix(ws[len(ws)-1], note.Text) {
			wantNote = ws[len(ws)-1]
		}
		wantWithdrawal := ""
		for bi := range res.Ranking.Batches {
			if note.Of(res, bi) == RunNoteRefuted {
				wantWithdrawal = note.Withdrawal(res.Ranking.Batches[bi].Step)
				break
			}
		}
		if n, w := note.Judge(res); n != wantNote || w != wantWithdrawal || n != got {
			t.Errorf("%s: judged %q, withdrawn %q; want Warnings' note %q, withdrawn batch by batch %q", c2.name, n, w, wantNote, wantWithdrawal)
		}
	}
}

// TestOpenInstructInvalidRewardGroups: a reward that is no number makes
// its row invalid, and its group's others are scored without it, where
// open-instruct scored the whole group: said as the NaN reward is, with
// the cause; the NaN reward keeps its own warning.
func TestOpenInstructInvalidRewardGroups(t *testing.T) {
	cfg, _, _, err := layoutDefaults(setup.Config{}, &openInstructLayout, loaders.FileFields{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := slices.Concat(openInstructGroup(1, "0", "reward", false, 0, 10, 0, 10), openInstructGroup(1, "1", "reward", false, 0, 10, 10, 10),
		openInstructGroup(1, "2", "reward", false, 10, 10, 10, 10)) // zero spread: not filtered
	ts[5].Metadata["reward"] = "10"
	ts[1].Metadata["reward"] = math.NaN()
	got := openInstructWarnings(cfg, c.Compute(ts, engine.GRPO), scoring.Uncapped, nil, []int{0})
	const want = `an invalid reward (not a number) in 1 group: step 1, group "1" (1 of 4); here those rows are invalid and the group's others are scored without them, where the trainer scored the whole group: the others' logged advantages differ`
	if len(got) != 2 || !strings.HasPrefix(got[0], `a NaN or infinite reward in 1 group: step 1, group "0" (1 of 4).`) || got[1] != want {
		t.Errorf("warnings %q, want the NaN group's, then %q", got, want)
	}
}
