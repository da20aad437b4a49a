package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// BenchmarkPromptsFirstFrame1M measures the Prompts tab's first frame on a
// loaded session of 2^20 trajectories over 500 steps, 2,000 prompts in
// groups of 8 (the run of prompts.BenchmarkAnalyze1M): from the key that
// shows the tab to its frame drawn at 140x45, the analysis (a command
// off the event loop, run here in line) included.
func BenchmarkPromptsFirstFrame1M(b *testing.B) {
	ts, cfg := uitest.PromptRun()
	computer, err := engine.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	s := session.NewSession("bench", ts, computer)
	ts = nil
	for b.Loop() {
		b.StopTimer()
		m := NewModel(s, true)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
		m.Settle()
		b.StartTimer()
		m.Update(uitest.KeyPress("8"))
		m.Settle() // the analysis, a command of the tab's
		_ = m.View()
	}
}
