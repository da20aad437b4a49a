package agreement

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// TestSharedOpening: the keys' shared opening ends where the line they
// part on starts; one group has none (all of its key would be opening,
// and textsafe.QuoteFrom would show nothing of it).
func TestSharedOpening(t *testing.T) {
	template := "system\nBe brief.\nuser\n"
	for _, c := range []struct {
		keys []string
		want int
	}{
		{[]string{template + "What is 2+2?\nassistant\n", template + "What is 3+3?\nassistant\n"}, len([]rune(template))},
		{[]string{template + "What is 2+2?\nassistant\n"}, 0},
		{[]string{"q", "r"}, 0},
	} {
		groups := make([]engine.Group, len(c.keys))
		for k, key := range c.keys {
			groups[k] = engine.Group{Key: key}
		}
		if got := SharedOpening(groups); got != c.want {
			t.Errorf("SharedOpening(%q) = %d, want %d", c.keys, got, c.want)
		}
	}
	if got, want := textsafe.QuoteFrom(template+"What is 2+2?\nassistant\n", 0), `"system\nBe brief.\nuser\nWhat is 2+2?\nassis"…`; got != want {
		t.Errorf("QuoteFrom = %s, want %s", got, want)
	}
}

// TestUnequalGroupsCountOne: the warning says "1 trajectory" for groups
// of one and "1 more step" past the steps it names.
func TestUnequalGroupsCountOne(t *testing.T) {
	var ts []scoring.Trajectory
	for step := range int64(maxUnequalStepsNamed + 1) {
		for _, g := range []struct {
			key string
			n   int
		}{{"a", 1}, {"b", 1}, {"c", 2}} {
			for range g.n {
				ts = append(ts, enginetest.Traj(step, g.key, "x", 1.0))
			}
		}
	}
	c := oneObjective(t, engine.DefaultOptions())
	c.EqualGroups = true
	notes := CheckTrainer(c, evaluateWith(c, ts)).Notes
	if len(notes) != maxUnequalStepsNamed+1 || !strings.Contains(notes[0].Text, "2 of 3 groups have 1 trajectory, ") ||
		notes[maxUnequalStepsNamed] != (Note{Text: "and 1 more step with groups of unequal size", Warning: true}) {
		t.Errorf("notes %+v", notes)
	}
}

// TestUnequalGroupsTieSmaller: with two groups, 8 rows (two prompts of
// the same text merged) and 4, the usual size is the smaller, so the
// warning names the merged group, not the one the trainer wrote.
func TestUnequalGroupsTieSmaller(t *testing.T) {
	// Two sizes as common: a merged group (8 beside 4) or a partial one
	// (2 beside 4) alike; nothing tells which group is the odd one, so
	// both are named.
	for _, groups := range [][]engine.Group{
		{{Key: "merged", Members: make([]int, 8)}, {Key: "single", Members: make([]int, 4)}},
		{{Key: "complete", Members: make([]int, 4)}, {Key: "partial", Members: make([]int, 2)}},
	} {
		u, ok := UnequalGroupsOfBatch(1, groups)
		if !ok || u.Size != 0 || len(u.Odd) != 2 {
			t.Fatalf("%+v", u)
		}
		want := fmt.Sprintf(`step 1: groups of unequal size, 2 sizes: %d trajectories (1 group), %d (1 group): "%s" %d, "%s" %d (`, len(groups[0].Members), len(groups[1].Members), groups[0].Key, len(groups[0].Members), groups[1].Key, len(groups[1].Members))
		if got := u.String(); !strings.HasPrefix(got, want) {
			t.Errorf("%q\nwant it to start %q", got, want)
		}
	}
	// A size the commonest is the usual one.
	u, _ := UnequalGroupsOfBatch(1, []engine.Group{{Key: "a", Members: make([]int, 4)}, {Key: "b", Members: make([]int, 4)}, {Key: "c", Members: make([]int, 2)}})
	if u.Size != 4 || u.Usual != 2 || len(u.Odd) != 1 || u.Odd[0] != (GroupSize{"c", 2}) {
		t.Errorf("%+v", u)
	}
}

// TestQuoteFromAllOpening: a prompt that is all of the opening the
// others share is quoted whole, not as an empty "…\"\"".
func TestQuoteFromAllOpening(t *testing.T) {
	groups := []engine.Group{{Key: "A\n"}, {Key: "A\nB"}}
	from := SharedOpening(groups)
	if got, want := textsafe.QuoteFrom(groups[0].Key, from), `"A\n"`; got != want {
		t.Errorf("QuoteFrom(%q, %d) = %s, want %s", groups[0].Key, from, got, want)
	}
	if got, want := textsafe.QuoteFrom(groups[1].Key, from), `…"B"`; got != want {
		t.Errorf("QuoteFrom(%q, %d) = %s, want %s", groups[1].Key, from, got, want)
	}
}

// TestLoggedWarningNamesTheRepeatedPrompt logs TRL's advantages of a step
// where one prompt is twice in the batch (TRL normalises each four rows
// as a group, rewardlens the eight of the prompt as one) and of a step
// without: the rows that differ are all that prompt's, and the warning,
// with --match-logged or without, names that group as the cause, not the
// objectives' settings; once rows outside it differ (weights 3 and 1),
// the weights are fitted to those rows, the group left out and named.
func TestLoggedWarningNamesTheRepeatedPrompt(t *testing.T) {
	batches := trlRewardBatches(3, 1)
	// Two groups of one spread: as one, their std is not either's.
	batches[1][0] = [][]float64{{1, 1}, {0, 1}, {0, 0}, {1, 0.25}}
	batches[1][1] = [][]float64{{1, 1}, {1, 1}, {0.5, 1}, {1, 0.25}}
	rename := func(ts []scoring.Trajectory) []scoring.Trajectory {
		for i := range ts {
			if ts[i].Batch == 1 && ts[i].Group == "p1" {
				ts[i].Group = "p0"
			}
		}
		return ts
	}
	const cause = `every row that differs is in the group of another size than its step's others (step 1, "p0", 8 rows), which the trainer grouped otherwise`
	c := trlComputer(t, true)
	ev := evaluateWith(c, rename(trlLogged(batches, []float64{1, 1}, engine.ScaleGroup)))
	m := MatchLogged(ev, c.Options)
	if w := m.Warning(); !strings.Contains(w, cause) || strings.Contains(w, "not computed from these objectives") || strings.Contains(w, "in step 1 only") {
		t.Errorf("warning %q, want it to name the group: %q", w, cause)
	}
	if notes := CheckTrainer(c, ev).Notes; len(notes) != 1 || !strings.Contains(notes[0].Text, cause) {
		t.Errorf("--match-logged's notes %+v lack %q", notes, cause)
	}
	// A reading that left out a line after step 1's last row read, step 1
	// the only step read: that line, given where the match is made, is
	// why the group is short. (With other steps, step 1 is left out of
	// the fit: TestCheckTrainerLeavesOutTheStepStillWritten.)
	const line = "rollouts.jsonl's unfinished last line"
	short := `every row that differs is in the group of another size than its step's others (step 1, "p0", 8 rows), short of the row the reading left out after it (` + line + ")"
	step1 := ev.Filter(func(i int) bool { return ev.StepOf(i) == 1 })
	if w := MatchLoggedFrom(step1, c.Options, "", scoring.Uncapped, map[int64]string{1: line}).Warning(); !strings.Contains(w, short) {
		t.Errorf("with a line left out in step 1, warning %q, want it to say %q", w, short)
	}
	// Weights 3 and 1 make every group differ: the grouping is not the
	// only cause, and the weights are fitted to the rows outside it.
	ev = evaluateWith(c, rename(trlLogged(batches, []float64{3, 1}, engine.ScaleGroup)))
	m = MatchLogged(ev, c.Options)
	if m.Found == nil || !slices.Equal(m.Found.Options.Weights, []float64{3, 1}) {
		t.Fatalf("weights 3, 1 not found with the group left out: %+v", m.Found)
	}
	const leftOut = `with the group of another size than its step's others (step 1, "p0", 8 rows) left out, which no setting of the objectives reproduces (with them, 8 of 32 rows differ`
	if w := m.Warning(); !strings.Contains(w, leftOut) || strings.Contains(w, "every row that differs") {
		t.Errorf("warning %q lacks %q", w, leftOut)
	}
	check := CheckTrainer(c, ev)
	if !slices.Equal(check.Options.Weights, []float64{3, 1}) || len(check.Notes) != 1 || !strings.Contains(check.Notes[0].Text, leftOut) {
		t.Errorf("--match-logged computes with %v, notes %+v", check.Options.Weights, check.Notes)
	}
}

// TestMatchLoggedFitsWeightsWithoutTheCutGroup logs TRL's advantages of
// reward_weights [1, 1.37] and reads all but the last two rows, as
// --max-rows does: the last group, cut to two rows, differs whatever the
// weights, and the weights are fitted to the other rows.
func TestMatchLoggedFitsWeightsWithoutTheCutGroup(t *testing.T) {
	weights := []float64{1, 1.37}
	ts := trlLogged(trlRewardBatches(2, 1), weights, engine.ScaleGroup)
	c := trlComputer(t, true)
	m := MatchLogged(evaluateWith(c, ts[:len(ts)-2]), c.Options)
	if m.Found == nil || !slices.Equal(m.Found.Options.Weights, weights) {
		t.Fatalf("weights %v not found with the cut group left out: %+v", weights, m.Found)
	}
	if w := m.Warning(); !strings.Contains(w, `left out`) || !strings.Contains(w, `"p3", 2 rows`) {
		t.Errorf("warning %q does not name the group left out", w)
	}
}

// TestCheckTrainerFitsWeightsWithoutTheGroupTheCapCut logs TRL's
// advantages of reward_weights [1, 1.37] and reads step 1 and the first
// two rows of step 2, as --max-rows 18 does: the group the cap cut is the
// only one of its step, no group of another size than its step's others,
// yet the loaders said it was cut (RowCap), and the weights are fitted
// without it, the note naming it.
func TestCheckTrainerFitsWeightsWithoutTheGroupTheCapCut(t *testing.T) {
	weights := []float64{1, 1.37}
	ts := trlLogged(trlRewardBatches(2, 1), weights, engine.ScaleGroup)
	c := trlComputer(t, true)
	c.RowCap = scoring.CappedInGroup
	check := CheckTrainer(c, evaluateWith(c, ts[:18]))
	if !slices.Equal(check.Options.Weights, weights) {
		t.Fatalf("computing with weights %v, want %v; notes %+v", check.Options.Weights, weights, check.Notes)
	}
	const said = `with the group --max-rows cut (step 2, group "p0", 2 of its rows read) left out`
	if len(check.Notes) != 1 || !strings.Contains(check.Notes[0].Text, said) {
		t.Errorf("notes %+v lack %q", check.Notes, said)
	}
}

// TestFoundReproducesLeavesOutTheRepeatedPrompt: the settings found of
// step 1, whose repeated prompt's rows are left out (weights 3 and 1),
// go on reproducing as step 2 comes logged by them, though every row
// compared is not reproduced (the repeated prompt's); a step 2 row
// outside that prompt logged otherwise tells them apart.
func TestFoundReproducesLeavesOutTheRepeatedPrompt(t *testing.T) {
	batches := trlRewardBatches(3, 1)
	batches[1][0] = [][]float64{{1, 1}, {0, 1}, {0, 0}, {1, 0.25}}
	batches[1][1] = [][]float64{{1, 1}, {1, 1}, {0.5, 1}, {1, 0.25}}
	ts := trlLogged(batches, []float64{3, 1}, engine.ScaleGroup)
	for i := range ts {
		if ts[i].Batch == 1 && ts[i].Group == "p1" {
			ts[i].Group = "p0"
		}
	}
	c := trlComputer(t, true)
	firstStep := slices.IndexFunc(ts, func(tr scoring.Trajectory) bool { return tr.Batch == 2 })
	m := MatchLogged(evaluateWith(c, ts[:firstStep]), c.Options)
	if m.Found == nil || m.Found.leftOut == "" {
		t.Fatalf("step 1: no settings found with the repeated prompt left out: %+v", m.Found)
	}
	res := evaluateWith(c, ts).Compute(m.Found.Options)
	if all, _ := CompareLoggedFirst(res, 2); all.Reproduced() || !m.FoundReproduces(res, 2) {
		t.Errorf("steps 1-2: every row reproduced %v, the rows outside the repeated prompt %v; want false, true", all.Reproduced(), m.FoundReproduces(res, 2))
	}
	other := slices.Clone(ts)
	other[len(other)-1].Metadata = maps.Clone(other[len(other)-1].Metadata)
	other[len(other)-1].Metadata["adv"] = other[len(other)-1].Metadata["adv"].(float64) + 0.01
	if m.FoundReproduces(evaluateWith(c, other).Compute(m.Found.Options), 2) {
		t.Error("a step 2 row logged otherwise: the settings still said to reproduce")
	}
}

// TestWarningOfRegroupedRowsAndAnAgreeingClosest: the rows that differ
// under the settings as given are all in a group of another size, and
// the closest setting tried agrees with every row within the tolerance,
// those included. --match-logged computes with the closest, so neither
// its note nor the warning says the rows are not a matter of the
// objectives' settings: both name the closest as agreeing, and the group.
func TestWarningOfRegroupedRowsAndAnAgreeingClosest(t *testing.T) {
	given := engine.Options{Method: engine.GRPO, Scale: engine.ScaleGroup, Normalize: true, Epsilon: 1e-4}
	closest := &Fit{Options: given, Changes: []string{"--epsilon 1e-06"}, Overall: Diff{Rows: 32, MaxAbsDiff: 6e-5, MaxScaledDiff: 6e-5}}
	closest.Options.Epsilon = 1e-6
	const group = `the group of another size than its step's others (step 1, "p0", 8 rows)`
	m := &Match{
		Base:      Fit{Options: given, Overall: Diff{Rows: 32, Differing: 3, MaxAbsDiff: 1.3e-4, MaxScaledDiff: 1.3e-4}},
		Closest:   closest,
		Tried:     40,
		regrouped: group,
	}
	opts, note := m.applied(given)
	if opts.Epsilon != 1e-6 {
		t.Fatalf("computing with epsilon %g, want the closest's", opts.Epsilon)
	}
	for _, text := range []string{m.Warning(), note.Text} {
		if strings.Contains(text, "not a matter of the objectives' settings") || !strings.Contains(text, "which agrees with every row within 0.0001") || !strings.Contains(text, group) {
			t.Errorf("%q: want the closest named as agreeing, and the group, not the settings ruled out", text)
		}
	}
}
