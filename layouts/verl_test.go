package layouts

import (
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

// TestVerlPeekReadsOnce: the first file is read once for all that the
// verl layout looks at in it: a file rewritten after the first look
// leaves the next as it was.
func TestVerlPeekReadsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "1.jsonl")
	dump := `{"input": "p", "output": "a", "gts": "g", "score": null, "step": 1, "acc": 1, "overlong_reward": "tensor(-0.0002)"}
{"input": "p", "output": "b", "gts": "g", "score": "tensor(0.5)", "step": 1, "acc": 1, "overlong_reward": "tensor(-0.0002)"}
`
	if err := os.WriteFile(path, []byte(dump), 0o644); err != nil {
		t.Fatal(err)
	}
	peek := newFirstRecords(loaders.FileFields{Path: path, Format: "jsonl", Names: []string{"input", "output", "gts", "score", "step", "acc", "overlong_reward"}, Nulls: []string{"score"}})
	if !verlScoreIsText(peek.first, peek) {
		t.Fatal("a null first score, then a text one: not read as text")
	}
	if err := os.WriteFile(path, []byte(`{"input": "p", "output": "a", "gts": "g", "score": 1, "step": 1, "acc": 1, "overlong_reward": 0}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := verlRoundedPenalty(peek); got != "tensor(-0.0002)" {
		t.Errorf("the rounded penalty, after the file is rewritten: %q, want the first reading's tensor(-0.0002)", got)
	}
	if n := len(peek.records()); n != 2 {
		t.Errorf("%d records, want 2", n)
	}
}

// TestVerlPeekWithoutPath: a first file without a path gives no records
// and reads nothing.
func TestVerlPeekWithoutPath(t *testing.T) {
	peek := newFirstRecords(loaders.FileFields{})
	if peek.records() != nil || !verlScoreSumsPenalty(peek) || verlRoundedPenalty(peek) != "" {
		t.Error("a first file without a path: records read, or a reading other than the default")
	}
}

// verlComputer is the engine of the verl layout's defaults on a dump
// of input, output, score and step.
func verlComputer(t *testing.T) *engine.RewardComputer {
	t.Helper()
	cfg, _, _, err := layoutDefaults(setup.Config{}, &verlLayout, loaders.FileFields{Names: []string{"input", "output", "score", "step"}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestVerlNaNWarningPerMethod: a NaN score's warning says what the
// method's own verl estimator gives the rows it reaches (grpo and rloo
// its group, rpp-baseline and gpg the batch, grpo-passk the one row
// topk takes as best), and verl's grpo under a method verl lacks.
func TestVerlNaNWarningPerMethod(t *testing.T) {
	c := verlComputer(t)
	ts := slices.Concat(openInstructGroup(1, "q", "score", false, 0, 1, math.NaN(), 1), openInstructGroup(1, "r", "score", false, 1, 0, 0, 1))
	const named = `a NaN or infinite score in 1 group: step 1, group "q" (1 of 4). `
	for _, c2 := range []struct {
		method engine.Method
		says   string
	}{
		{engine.GRPO, "verl's own advantages are NaN for every row of such a group (compute_grpo_outcome_advantage's mean and std over the group)"},
		{engine.RLOO, "verl's own rloo advantages are NaN or infinite for every row of such a group"},
		{engine.RPPBaseline, "verl's own rpp-baseline advantages are NaN for every row of the batch"},
		{engine.GRPOPassK, "verl's own grpo-passk advantages are NaN for one row of such a group, the one torch.topk takes as best"},
		{engine.GPG, "verl's own gpg advantages are NaN or infinite for every row of such a group (its mean) and scale every other row of the batch by another alpha than here unless no score of the batch is 0"},
		{engine.RLOOWhitened, "verl has no rloo-whitened estimator; under its grpo, the layout's method, the advantages are NaN for every row of such a group (compute_grpo_outcome_advantage's mean and std over the group)"},
	} {
		got := verlWarnings(setup.Config{}, c.Compute(ts, c2.method), scoring.Uncapped, nil, []int{0})
		if len(got) == 0 || !strings.HasPrefix(got[0], named+c2.says) {
			t.Errorf("%s: warnings %q, want the first to start %q", c2.method, got, named+c2.says)
		}
	}
}

// TestVerlNaNWarningsCoverVerlMethods: every method verl computes (its
// spec's Trainers) has its own NaN text, and only those, lest a method
// added to verl's fall back to what verl's grpo gives.
func TestVerlNaNWarningsCoverVerlMethods(t *testing.T) {
	var verls []engine.Method
	for _, m := range engine.AllMethods() {
		if slices.Contains(engine.Spec(m).Trainers, engine.TrainerVerl) {
			verls = append(verls, m)
		}
	}
	for _, m := range verls {
		if _, ok := verlNaNAdvantages[m]; !ok {
			t.Errorf("%s: no text of verl's NaN advantages", m)
		}
	}
	if len(verlNaNAdvantages) != len(verls) {
		t.Errorf("verlNaNAdvantages has %d methods, verl computes %v", len(verlNaNAdvantages), verls)
	}
}

// TestVerlPassKGroupsOfOne: under grpo-passk, the groups of one row are
// warned of, named, as verl refuses them; not under grpo, nor without
// such a group.
func TestVerlPassKGroupsOfOne(t *testing.T) {
	c := verlComputer(t)
	ts := slices.Concat(openInstructGroup(1, "q", "score", false, 0, 1, 1), openInstructGroup(1, "r", "score", false, 1),
		openInstructGroup(2, "q", "score", false, 1, 0), openInstructGroup(2, "s", "score", false, 0))
	const want = `grpo-passk: 2 groups of one trajectory: step 1, group "r"; step 2, group "s". verl refuses them (compute_grpo_passk_outcome_advantage raises ValueError: Pass@k requires at least 2 samples per group); here each gets 0`
	if got := verlWarnings(setup.Config{}, c.Compute(ts, engine.GRPOPassK), scoring.Uncapped, nil, []int{0, 1}); !slices.Contains(got, want) {
		t.Errorf("grpo-passk: warnings %q, want %q", got, want)
	}
	if got := verlWarnings(setup.Config{}, c.Compute(ts, engine.GRPO), scoring.Uncapped, nil, []int{0, 1}); len(got) != 0 {
		t.Errorf("grpo: warnings %q, want none", got)
	}
	if got := verlWarnings(setup.Config{}, c.Compute(slices.Concat(ts[:3], ts[4:6]), engine.GRPOPassK), scoring.Uncapped, nil, []int{0, 1}); len(got) != 0 {
		t.Errorf("grpo-passk, groups of two or more: warnings %q, want none", got)
	}
}

// TestVerlDoubledGroups: in a legacy dump (group = input), a step whose
// groups all have twice the other steps' size (rollout.n) is warned of
// as each prompt drawn twice, two uid groups to verl; nothing of the
// steps of rollout.n, of a dump with uid, nor when no step tells
// rollout.n (two sizes as common).
func TestVerlDoubledGroups(t *testing.T) {
	c := verlComputer(t)
	ts := slices.Concat(openInstructGroup(1, "q", "score", false, 0, 1), openInstructGroup(1, "r", "score", false, 1, 0),
		openInstructGroup(2, "q", "score", false, 1, 1), openInstructGroup(2, "s", "score", false, 0, 1),
		openInstructGroup(3, "q", "score", false, 0, 1, 1, 0), openInstructGroup(3, "r", "score", false, 1, 0, 0, 1))
	legacy := setup.Config{GroupBy: verlPrompt}
	const want = "step 3: every prompt group has 4 rows where the other steps' have 2 (rollout.n): probably each prompt drawn 2 times in the batch, which verl normalised as 2 groups of 2 (a uid each, which the legacy dump does not write) and rewardlens as one by its input text; the rewards may differ from verl's"
	res := c.Compute(ts, engine.GRPO)
	if got := verlWarnings(legacy, res, scoring.Uncapped, nil, []int{0, 1, 2}); !slices.Equal(got, []string{want}) {
		t.Errorf("warnings %q, want %q", got, want)
	}
	if got := verlWarnings(setup.Config{GroupBy: verlUIDPrompt}, res, scoring.Uncapped, nil, []int{0, 1, 2}); len(got) != 0 {
		t.Errorf("with uid: warnings %q, want none", got)
	}
	if got := verlWarnings(legacy, c.Compute(slices.Concat(ts[:4], ts[8:]), engine.GRPO), scoring.Uncapped, nil, []int{0, 1}); len(got) != 0 {
		t.Errorf("rollout.n not told: warnings %q, want none", got)
	}
}
