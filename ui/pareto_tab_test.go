package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

func TestGoldenPareto(t *testing.T) {
	tab, _ := newSampleTab(t, newParetoTab)
	golden.RequireEqual(t, plain(tab))
}

func TestParetoCyclesAxes(t *testing.T) {
	tab, _ := newSampleTab(t, newParetoTab)
	steps := []struct{ key, title string }{
		{"", "safety (max) against accuracy (max)"},
		// x skips safety, which is on y.
		{"x", "safety (max) against length (min)"},
		// y skips length, now on x.
		{"y", "accuracy (max) against length (min)"},
	}
	for _, s := range steps {
		if s.key != "" {
			pressKeys(tab, s.key)
		}
		view := plain(tab)
		y, x, _ := strings.Cut(s.title, " against ")
		if !strings.Contains(view, "Pareto ranks: "+s.title) || !strings.Contains(view, "↑ "+y) || !strings.Contains(view, x+" →") {
			t.Errorf("after %q, want the axes %q:\n%s", s.key, s.title, view)
		}
	}
}

func TestParetoSelectionWalksAlongX(t *testing.T) {
	tab, s := newSampleTab(t, newParetoTab)
	p := tab.(*paretoTab)
	shows := func(j int) bool {
		return strings.Contains(plain(tab), "id         "+s.Trajectories.At(p.proj.Index[j]).ID)
	}
	if !shows(0) {
		t.Fatalf("the leftmost point is not selected at first:\n%s", plain(tab))
	}
	pressKeys(tab, "right", "right")
	if !shows(2) || p.proj.X[2] < p.proj.X[0] {
		t.Errorf("right twice does not select the third point by x:\n%s", plain(tab))
	}
	pressKeys(tab, "left", "left", "left")
	if !shows(0) {
		t.Errorf("left does not stop at the first point:\n%s", plain(tab))
	}
}

func TestParetoZoomAndPan(t *testing.T) {
	tab, _ := newSampleTab(t, newParetoTab)
	p := tab.(*paretoTab)
	full := p.chart.ViewMaxX() - p.chart.ViewMinX()
	pressKeys(tab, "+", "+")
	if got := p.chart.ViewMaxX() - p.chart.ViewMinX(); got >= full || !p.keys.ResetView.Enabled() {
		t.Errorf("+ does not zoom in: x range %v of %v", got, full)
	}
	left := p.chart.ViewMinX()
	pressKeys(tab, "l")
	if p.chart.ViewMinX() <= left {
		t.Errorf("l does not pan right: view starts at %v, was %v", p.chart.ViewMinX(), left)
	}
	pressKeys(tab, "0")
	if p.zoomed() || p.keys.ResetView.Enabled() {
		t.Error("0 does not reset the view")
	}
	tab.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if !p.zoomed() {
		t.Error("the mouse wheel does not zoom in")
	}
}

func TestParetoSaysWhatItHides(t *testing.T) {
	tab, s := newSampleTab(t, newParetoTab)
	if view := plain(tab); !strings.Contains(view, "ranks are over 3 objectives") || strings.Contains(view, "hidden") {
		t.Errorf("batch 0 (3 objectives, all valid):\n%s", view)
	}
	// Batch 5 holds one of the sample's invalid trajectories.
	showBatch(tab, s, 5)
	if view := plain(tab); !strings.Contains(view, "1 invalid trajectory hidden") {
		t.Errorf("batch 5 does not say that a trajectory is hidden:\n%s", view)
	}
}
