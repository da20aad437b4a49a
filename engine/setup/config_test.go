package setup

import (
	"fmt"
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
