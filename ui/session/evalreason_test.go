package session

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
)

// TestEvalReasoner: a trajectory whose objective's expression failed is
// said why, run again; one of another cause (missing), of a gate, or
// valid is said nothing.
func TestEvalReasoner(t *testing.T) {
	records := `{"id":"t0","group":"g","metadata":{"x":1,"y":1,"g":1}}
{"id":"t1","group":"g","metadata":{"x":"long","y":1,"g":1}}
{"id":"t2","group":"g","metadata":{"x":1,"g":1}}
{"id":"t3","group":"g","metadata":{"x":1,"y":1,"g":"open"}}
`
	res, err := loaders.Read(strings.NewReader(records), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open("run.jsonl", setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "length", Expr: "metadata.x / 2"}, {Name: "y", Expr: "metadata.y"}}, Gates: []string{"length: metadata.g > 0"}}, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The gate's failure is not run again: the scorer's Evaluate runs the
	// objectives alone.
	for i, want := range []string{"", `invalid operation: string / int (x = "long")`, "", ""} {
		got := s.EvalReasoner(i)(s.Trajectories.At(i))
		if got != want {
			t.Errorf("trajectory %d (cause %q): reason %q, want %q", i, s.Result.Evaluation.Causes[i], got, want)
		}
	}
}
