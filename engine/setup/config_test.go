package setup

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
)

// Without a number among the first record's metadata (but the keys a
// record field reads), nothing is inferred: the error names the record,
// its keys and why none is an objective.
func TestInferNoObjective(t *testing.T) {
	first := enginetest.Traj(0, "", "note", "x", "iteration", 3.0)
	first.Source, first.Line = "run.jsonl", 4
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{BatchBy: "metadata.iteration"}, `run.jsonl:4: no objective to score: without --objective (or a config's objectives), each metadata value of the first record that is a number is one, and its metadata ("iteration", "note"): none is a number but the fields read by group_by, batch_by, id_by, prompt_by or logged_advantage, which are not inferred as objectives: iteration`},
		{Config{}, ""},
	} {
		_, err := tc.cfg.InferObjectives(&first)
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: %v, want %q", tc.cfg, err, tc.want)
		}
	}
	empty := enginetest.Traj(0, "")
	if _, err := (Config{}).InferObjectives(&empty); err == nil || !strings.Contains(err.Error(), "it has no metadata") {
		t.Errorf("no metadata: %v", err)
	}
	// A key a record field reads that is no number is not named as left out.
	text := enginetest.Traj(0, "", "grp", "g1", "note", "x")
	if _, err := (Config{GroupBy: "metadata.grp"}).InferObjectives(&text); err == nil || !strings.HasSuffix(err.Error(), `("grp", "note"): none is a number`) {
		t.Errorf("a text group key: %v", err)
	}
}

// A weight given that is not a finite number is an error naming it,
// wherever it is given: an objective's own (whose NaN must not read as no
// weight, the default 1/m), a source's objective's, the weights table,
// svrl's two. A weight the weights table overrides is not the one used.
func TestNonFiniteWeights(t *testing.T) {
	nan, inf, negInf := math.NaN(), math.Inf(1), math.Inf(-1)
	objective := func(w *float64) []ObjectiveConfig {
		return []ObjectiveConfig{{Name: "acc", Expr: "metadata.acc", Weight: w}, {Name: "len", Expr: "metadata.len"}}
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		want string // "" for none
	}{
		{"objective NaN", Config{Objectives: objective(&nan)}, "weight acc: NaN is not a finite number"},
		{"objective +Inf", Config{Objectives: objective(&inf)}, "weight acc: +Inf is not a finite number"},
		{"objective -Inf", Config{Objectives: objective(&negInf)}, "weight acc: -Inf is not a finite number"},
		{"objective NaN under a finite weights entry", Config{Objectives: objective(&nan), Weights: map[string]float64{"acc": 2}}, ""},
		{"weights table", Config{Objectives: objective(nil), Weights: map[string]float64{"acc": nan}}, "weight acc: NaN is not a finite number"},
		{"source objective", Config{SourceBy: "metadata.src", Sources: map[string]SourceConfig{"math": {Objectives: objective(&nan)}}},
			"source math: weight acc: NaN is not a finite number"},
		{"source weights table", Config{SourceBy: "metadata.src", Sources: map[string]SourceConfig{"math": {Objectives: objective(nil), Weights: map[string]float64{"len": negInf}}}},
			"source math: weight len: -Inf is not a finite number"},
		{"svrl verification_weight", Config{Computer: "svrl", VerificationWeight: &nan}, "verification_weight: NaN is not a finite number"},
		{"svrl efficiency_weight", Config{Computer: "svrl", EfficiencyWeight: &inf}, "efficiency_weight: +Inf is not a finite number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.cfg.Scorer()
			if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}
