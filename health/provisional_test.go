package health

import (
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// TestProvisionalStep: the findings of a step of Config.Provisional are
// listed with its reason but raise no level, so that a later step's
// finding of the same level is listed too, and Standing leaves them out.
func TestProvisionalStep(t *testing.T) {
	trends := []diagnose.Trend{healthyTrend(0), healthyTrend(1), healthyTrend(2), healthyTrend(3), healthyTrend(4)}
	trends[3].FracAtMax, trends[4].FracAtMax = 1, 1 // ceiling's ALERT at steps 3 and 4
	res := &engine.Result{Options: engine.Options{Method: engine.Absolute}, Objectives: []scoring.Objective{trends[0].Objectives[0].Objective, trends[0].Objectives[1].Objective}}
	const why = "run/3.jsonl ends in an unfinished line"
	got := Findings(res, trends, Config{Provisional: map[int64]string{3: why}})
	if len(got) != 2 || got[0].Step != 3 || got[0].Provisional != why || got[1].Step != 4 || got[1].Provisional != "" || got[1].Level != Alert {
		t.Fatalf("ceiling's ALERTs: %+v, want step 3's provisional (%q) and step 4's standing", got, why)
	}
	if standing := Standing(got); len(standing) != 1 || standing[0].Step != 4 {
		t.Errorf("Standing: %+v, want step 4's ALERT alone", standing)
	}
	if step := StepFindings(res, trends, Config{Provisional: map[int64]string{3: why}}, 3); len(step) != 1 || step[0].Provisional != why {
		t.Errorf("StepFindings of the provisional step: %+v, want its ALERT marked %q", step, why)
	}
	if got := Findings(res, trends, Config{}); len(got) != 1 || got[0].Step != 3 || got[0].Provisional != "" {
		t.Errorf("no step provisional: %+v, want step 3's ALERT alone, standing", got)
	}
}

// TestProvisionalStepLeftOutOfBaseline: in a run of exactly
// baseline-many steps whose newest is cut, that step is no part of the
// baseline (whose std within groups would be its short groups' too) but
// graded against the others, provisionally: its collapsed spread is a
// provisional variance_collapse against the baseline's 1.
func TestProvisionalStepLeftOutOfBaseline(t *testing.T) {
	trends := []diagnose.Trend{healthyTrend(0), healthyTrend(1), healthyTrend(2)}
	trends[2].ScoreGroupStd = 0.01
	res := &engine.Result{Options: engine.Options{Method: engine.Absolute}, Objectives: []scoring.Objective{trends[0].Objectives[0].Objective, trends[0].Objectives[1].Objective}}
	const why = "run/2.jsonl ends in an unfinished line"
	cfg := Config{Baseline: 3, Provisional: map[int64]string{2: why}}
	if n := BaselineLen(trends, cfg); n != 2 {
		t.Errorf("BaselineLen %d, want 2: the cut step is not in it", n)
	}
	got := Findings(res, trends, cfg)
	if len(got) != 1 || got[0].Check != CheckVarianceCollapse || got[0].Step != 2 || got[0].Provisional != why || !strings.Contains(got[0].Message, "of the baseline's 1") {
		t.Errorf("findings %+v, want step 2's variance_collapse against the baseline's 1, provisional", got)
	}
	if got := Findings(res, trends, Config{Baseline: 3}); len(got) != 0 {
		t.Errorf("no step provisional: %+v, want none (every step in the baseline)", got)
	}
	// A provisional step within the baseline's span (an earlier file's
	// newest, of another directory) keeps its place, left out of the means.
	trends = []diagnose.Trend{healthyTrend(0), healthyTrend(1), healthyTrend(2), healthyTrend(3), healthyTrend(4)}
	trends[1].ScoreGroupStd, trends[4].ScoreGroupStd = 100, 0.5
	cfg = Config{Baseline: 3, Provisional: map[int64]string{1: why}}
	if n := BaselineLen(trends, cfg); n != 4 {
		t.Errorf("BaselineLen %d, want 4: steps 0, 2 and 3, step 1 in their span", n)
	}
	if got := Findings(res, trends, cfg); len(got) != 0 {
		t.Errorf("findings %+v, want none: step 4's 0.5 against the baseline's 1, not step 1's 100 in it", got)
	}
}
