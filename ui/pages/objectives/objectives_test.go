package objectives

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestObjectivesTableScrollsSideways: at 80 columns the statistics do not
// all fit; the table says so, and right brings max on screen with the
// objective's name still there.
func TestObjectivesTableScrollsSideways(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	tab.SetSize(80, 24)
	header := func() string { return strings.Split(uitest.Plain(tab), "\n")[1] }
	if v := uitest.Plain(tab); strings.Contains(header(), " max") || !strings.Contains(v, "1 column →") {
		t.Fatalf("at 80 columns the table shows max, or does not say a column is off screen:\n%s", v)
	}
	uitest.PressKeys(tab, "right")
	if h := header(); !strings.HasPrefix(h, "objective") || !strings.HasSuffix(strings.TrimRight(h, " "), "max") {
		t.Errorf("right does not bring max on screen beside the names: %q", h)
	}
	uitest.PressKeys(tab, "left")
	if h := header(); !strings.Contains(h, "goal") {
		t.Errorf("left does not scroll back: %q", h)
	}
}

// TestCorrelationGridAligned names the objectives with wide characters and
// an escape sequence: the correlation grid's rows stay aligned.
func TestCorrelationGridAligned(t *testing.T) {
	ts := make([]engine.Trajectory, 16)
	for i := range ts {
		ts[i] = engine.Trajectory{
			ID:       strings.Repeat("x", i),
			Metadata: map[string]any{"a": float64(i % 4), "b": float64(i % 3)},
		}
	}
	cfg := engine.Config{Objectives: []engine.ObjectiveConfig{
		{Name: "精度", Expr: "metadata.a"},
		{Name: "evil\x1b]0;pwned\x07", Expr: "metadata.b"},
	}}
	s, err := session.Open("runs.jsonl", cfg, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	grid := correlationView(common.NewStyles(true, true), s.BatchStats().Objectives, s.BatchStats().Correlation)
	rows := strings.Split(grid, "\n")[1:4] // the names, then one row per objective
	for _, r := range rows {
		if w := ansi.StringWidth(r); w != ansi.StringWidth(rows[0]) {
			t.Errorf("correlation grid rows are not aligned:\n%s", grid)
			break
		}
	}
}
