package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// constrainedModel is newTestModel on the sample with the constraints and
// gates given, as --constraint and --gate give them.
func constrainedModel(tb testing.TB, width, height int, constraints, gates []string) *Model {
	tb.Helper()
	cfg, res := sampletest.Read(tb)
	cfg.Constraints, cfg.Gates = constraints, gates
	s, err := session.Open("sample", cfg, res, nil)
	if err != nil {
		tb.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	m.Settle()
	return m
}

// sampleFeasibleShare counts, on the shown batch, the valid trajectories
// whose safety (objective 1, raw) is at least limit.
func sampleFeasibleShare(m *Model, limit float64) float64 {
	s := m.Session()
	ev := s.Result.Evaluation
	valid, feasible := 0, 0
	for _, i := range s.CurrentBatch().Members {
		if !ev.Valid[i] {
			continue
		}
		valid++
		if ev.Values[i*ev.M+1] >= limit {
			feasible++
		}
	}
	return float64(feasible) / float64(valid)
}

// TestHeaderFeasibleShare: with a constraint the header shows the batch's
// feasible share, counted here from the raw safety values ("87% feas" at
// 80 columns, beside the goals); without one it shows none.
func TestHeaderFeasibleShare(t *testing.T) {
	for _, width := range []int{80, 120, 200} {
		m := constrainedModel(t, width, 40, []string{"safety >= 0.9"}, nil)
		share := sampleFeasibleShare(m, 0.9)
		if share == 0 || share == 1 {
			t.Fatalf("the sample's first batch is all or nothing feasible (%v): the test shows nothing", share)
		}
		// At 80 columns the goals have no room with names of five
		// letters (header.View): the share keeps its word.
		word := "feasible"
		want := fmt.Sprintf("%.0f%% %s", 100*share, word)
		if head := strings.Split(screen(m), "\n")[0]; !strings.Contains(head, want) {
			t.Errorf("%d columns: the header lacks %q: %q", width, want, head)
		}
		press(m, "]")
		want = fmt.Sprintf("%.0f%% %s", 100*sampleFeasibleShare(m, 0.9), word)
		if head := strings.Split(screen(m), "\n")[0]; !strings.Contains(head, want) {
			t.Errorf("%d columns, batch 2: the header lacks %q: %q", width, want, head)
		}
	}
	if head := strings.Split(screen(newTestModel(t, 200, 40)), "\n")[0]; strings.Contains(head, "feasible") {
		t.Errorf("without constraints the header shows a feasible share: %q", head)
	}
}

// TestWeightsCycleObjectiveNorm: o, while editing weights, moves through
// the objective normalisations, each recomputing the rewards as
// engine.Compute does with it, shown on the weights line and saved by
// ctrl+s's config; four presses come back to none.
func TestWeightsCycleObjectiveNorm(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "w")
	for _, want := range []engine.ObjectiveNorm{engine.NormMinMax, engine.NormZScore, engine.NormRank, engine.NormNone} {
		press(m, "o")
		s := m.Session()
		if s.Result.Options.NormalizeObjectives != want {
			t.Fatalf("o gave %q, want %q", s.Result.Options.NormalizeObjectives, want)
		}
		opts := s.Result.Options
		ref := s.Evaluation.Compute(opts)
		ref.ComputeBatch(s.Batch)
		for _, i := range s.CurrentBatch().Members {
			if got, want := s.Result.Rewards[i], ref.Rewards[i]; got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("%s: reward of %d is %v, engine's %v", opts.NormalizeObjectives, i, got, want)
			}
		}
		if v := screen(m); !strings.Contains(v, "norm (o) "+string(want)) {
			t.Errorf("the weights line does not show %q:\n%s", want, v)
		}
		saved := s.SettingsConfig().NormalizeObjectives
		if (want == engine.NormNone && saved != "") || (want != engine.NormNone && saved != string(want)) {
			t.Errorf("the saved config has normalize_objectives %q under %q", saved, want)
		}
	}
	// Under absolute (pareto's ranks ignore a monotone normalisation),
	// minmax changes some reward of the batch: the recompute is seen.
	s := m.Session()
	s.Options.Method = engine.Absolute
	press(m, "o", "o", "o", "o")
	members := s.CurrentBatch().Members
	none := make([]float64, len(members))
	for j, i := range members {
		none[j] = s.Result.Rewards[i]
	}
	press(m, "o")
	changed := false
	for j, i := range members {
		changed = changed || m.Session().Result.Rewards[i] != none[j]
	}
	if !changed {
		t.Error("minmax left every reward of the batch as it was")
	}
}
