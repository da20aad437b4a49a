package health

import (
	"math"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestNonFiniteCheck runs non_finite on real batches of 30 rows (under
// invalid_fraction's WARN) with one score NaN or +Inf, or none, under
// each trainer: its level is what the trainer does with such a score,
// and its message names the trainer's function.
func TestNonFiniteCheck(t *testing.T) {
	batch := func(bad float64) []scoring.Trajectory {
		ts := batchOfValidity(0, validity(30, 0)...)
		if bad != 1 {
			ts[4].Metadata["x"] = bad
		}
		return ts
	}
	for _, c := range []struct {
		name    string
		bad     float64 // x of one row; 1 is finite
		trainer engine.Trainer
		level   Level // 0: no finding
		says    string
	}{
		{"all finite under verl", 1, engine.TrainerVerl, 0, ""},
		{"NaN under verl", math.NaN(), engine.TrainerVerl, Alert, "1 row of 30 with a score not finite (1 NaN): verl's advantages of such a row's group are NaN"},
		{"+Inf under verl", math.Inf(1), engine.TrainerVerl, Alert, "(1 infinite): verl's advantages"},
		{"verl's optimizer step", math.NaN(), engine.TrainerVerl, Alert, "(DataParallelPPOActor._optimizer_step, or the engine's FSDPEngine.optimizer_step: if not torch.isfinite(grad_norm), zero_grad) skips that update"},
		{"NaN under open-instruct", math.NaN(), engine.TrainerOpenInstruct, Alert, "open-instruct's advantages of such a row's group are NaN (numpy's mean and std over the group in DataPreparationActor._data_preparation_loop"},
		{"NaN under TRL", math.NaN(), engine.TrainerTRL, Warn, "GRPOTrainer._generate_and_score_completions"},
		{"+Inf under TRL", math.Inf(1), engine.TrainerTRL, Alert, "an infinite reward makes TRL's group mean infinite"},
		{"NaN without a trainer", math.NaN(), "", Warn, "here those rows are invalid"},
		{"all finite without a trainer", 1, "", 0, ""},
	} {
		res, _ := evaluateX(t, batch(c.bad))
		var got []Finding
		for _, f := range Findings(res, diagnose.Trends(res, nil), Config{Trainer: c.trainer}) {
			if f.Check == CheckNonFinite {
				got = append(got, f)
			}
		}
		switch {
		case c.level == 0 && len(got) > 0:
			t.Errorf("%s: %+v, want no non_finite finding", c.name, got)
		case c.level == 0:
		case len(got) != 1 || got[0].Level != c.level || got[0].Value != 1 || !strings.Contains(got[0].Message, c.says):
			t.Errorf("%s: %+v, want one %s of value 1 saying %q", c.name, got, c.level, c.says)
		}
	}
}
