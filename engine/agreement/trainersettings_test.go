package agreement

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
)

// TestTriesMethodPerLayout: a trainer's layout tries the methods whose
// MethodSpec.Trainers name that trainer, rows of no trainer's layout every
// method a trainer computes.
func TestTriesMethodPerLayout(t *testing.T) {
	for _, tc := range []struct {
		layout string
		want   []engine.Method
	}{
		{"verl", []engine.Method{engine.GRPO, engine.RLOO, engine.RPPBaseline, engine.GRPOPassK, engine.GPG}},
		{"trl", []engine.Method{engine.GRPO, engine.RLOO, engine.GDPO, engine.RLOOWhitened}},
		{"open-instruct", []engine.Method{engine.GRPO}},
		{"plain", []engine.Method{engine.GRPO, engine.RLOO, engine.GDPO, engine.RPPBaseline, engine.RLOOWhitened, engine.GRPOPassK, engine.GPG}},
		{"", []engine.Method{engine.GRPO, engine.RLOO, engine.GDPO, engine.RPPBaseline, engine.RLOOWhitened, engine.GRPOPassK, engine.GPG}},
	} {
		m := &Match{layout: tc.layout}
		var got []engine.Method
		for _, method := range engine.AllMethods() {
			if len(engine.Spec(method).Trainers) > 0 && m.triesMethod(method) {
				got = append(got, method)
			}
		}
		slices.Sort(got)
		slices.Sort(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("layout %q tries %v, want %v", tc.layout, got, tc.want)
		}
	}
}
