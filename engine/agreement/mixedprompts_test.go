package agreement

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestMixedPrompts: groups of two steps, each of 2 rows; in step 1
// group "a" answers prompts 0 and 1, in step 2 every group two prompts:
// seven named, five of them by name, then "and 2 more". The groups of a
// step are checked apart (group "b" of step 1 is one prompt's).
func TestMixedPrompts(t *testing.T) {
	var ts []scoring.Trajectory
	var promptOf []int32
	add := func(step int64, key string, prompts ...int32) {
		for _, p := range prompts {
			ts = append(ts, enginetest.Traj(step, key, "x", 1.0))
			promptOf = append(promptOf, p)
		}
	}
	add(1, "a", 0, 1)
	add(1, "b", 2, 2)
	for _, key := range []string{"a", "b", "c", "d", "e", "f"} {
		add(2, key, 3, 4)
	}
	c := oneObjective(t, engine.DefaultOptions())
	got := MixedPrompts(evaluateWith(c, ts), promptOf)
	if len(got) != 7 || got[0].Step != 1 || got[0].Key != "a" || got[0].Prompts != 2 || got[0].Rows != 2 || got[1].Step != 2 {
		t.Fatalf("MixedPrompts = %+v", got)
	}
	w := MixedWarning(got, "prompt_tokens")
	if !strings.HasPrefix(w, `7 groups of more than one prompt (prompt_by prompt_tokens): step 1, group "a" (2 prompts in 2 rows); step 2, group "a" `) ||
		!strings.Contains(w, `step 2, group "d" (2 prompts in 2 rows); and 2 more: `) {
		t.Errorf("MixedWarning = %s", w)
	}
	if w := MixedWarning(nil, "prompt_tokens"); w != "" {
		t.Errorf("no group: %q", w)
	}
}
