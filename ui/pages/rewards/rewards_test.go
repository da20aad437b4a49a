package rewards

import (
	"slices"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestRewardsTabKeepsTheScoresHistogram switches the method, which keeps
// the scores, then a weight, which changes them: the scores' histogram is
// drawn once for the first and again for the second.
func TestRewardsTabKeepsTheScoresHistogram(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	r := tab.(*rewardsTab)
	before, key := r.scoresView, r.scoresOf
	next := engine.Methods[(slices.Index(engine.Methods, s.Options.Method)+1)%len(engine.Methods)]
	uitest.SwitchOptions(t, tab, s, uitest.MethodChange(next), uitest.SampleSession, New)
	if r.scoresOf != key || r.scoresView != before {
		t.Error("a method switch binned the unchanged scores again")
	}
	uitest.SwitchOptions(t, tab, s, uitest.WeightChange, uitest.SampleSession, New)
	if r.scoresOf == key || r.scoresView == before {
		t.Error("a weight change left the scores' histogram as it was")
	}
	if v := uitest.Plain(tab); !strings.Contains(v, "Scores: s = Σ weight") {
		t.Errorf("no scores' histogram on screen:\n%s", v)
	}
}
