package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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
// feasible share, counted here from the raw safety values; without one it
// shows none.
func TestHeaderFeasibleShare(t *testing.T) {
	for _, width := range []int{80, 120, 200} {
		m := constrainedModel(t, width, 40, []string{"safety >= 0.9"}, nil)
		share := sampleFeasibleShare(m, 0.9)
		if share == 0 || share == 1 {
			t.Fatalf("the sample's first batch is all or nothing feasible (%v): the test shows nothing", share)
		}
		want := fmt.Sprintf("%.0f%% feasible", 100*share)
		if head := strings.Split(screen(m), "\n")[0]; !strings.Contains(head, want) {
			t.Errorf("%d columns: the header lacks %q: %q", width, want, head)
		}
		press(m, "]")
		want = fmt.Sprintf("%.0f%% feasible", 100*sampleFeasibleShare(m, 0.9))
		if head := strings.Split(screen(m), "\n")[0]; !strings.Contains(head, want) {
			t.Errorf("%d columns, batch 2: the header lacks %q: %q", width, want, head)
		}
	}
	if head := strings.Split(screen(newTestModel(t, 200, 40)), "\n")[0]; strings.Contains(head, "feasible") {
		t.Errorf("without constraints the header shows a feasible share: %q", head)
	}
}
