package ui

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/pages"
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
		m := settledModel(s)
		b.StartTimer()
		m.Update(uitest.KeyPress("8"))
		m.Settle() // the analysis, a command of the tab's
		_ = m.View()
	}
}

// BenchmarkPromptsSwitch1M is BenchmarkSwitch1M on the Prompts tab: a
// method switch at a million trajectories (one batch, groups of 8), from
// the key to the frame naming the new method, the tab's analysis made
// before (a switch keeps it: it does not read the method's rewards).
func BenchmarkPromptsSwitch1M(b *testing.B) {
	m := settledModel(uitest.SyntheticSession(b, 1_000_000))
	m.Update(uitest.KeyPress("8"))
	m.Settle()
	benchmarkSwitches(b, m)
}

// BenchmarkPromptsVisitAnalysed1M measures the Prompts tab's first visit
// once its analysis was made when idle (beside the health): on 1M
// trajectories in one batch, groups of 8, the key to the frame, what the
// event loop does then.
func BenchmarkPromptsVisitAnalysed1M(b *testing.B) {
	m := settledModel(uitest.SyntheticSession(b, 1_000_000))
	prompts := slices.IndexFunc(m.tabs, func(t common.Tab) bool { return t.Title() == "Prompts" })
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m.selectTab(0)
		m.tabs[prompts] = pages.New(m.common)[prompts]
		m.stale[prompts], m.sizes[prompts] = true, tabSize{}
		runCmds(m, m.prefetchTabs())
		b.StartTimer()
		m.Update(uitest.KeyPress("8"))
		_ = m.View()
	}
}
