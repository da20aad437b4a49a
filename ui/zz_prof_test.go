package ui

import (
	"os"
	"runtime/pprof"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

func TestZZProfTabs(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	s := uitest.SyntheticSession(t, 1_000_000)
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 45})
	m.Settle()
	_ = m.View()
	f, _ := os.Create("/tmp/dash-speed/cpu.prof")
	pprof.StartCPUProfile(f)
	for _, k := range []string{"2", "3", "4", "5", "6", "7", "8"} {
		start := time.Now()
		press(m, k)
		_ = m.View()
		visit := time.Since(start)
		start = time.Now()
		m.Update(uitest.KeyPress("m"))
		var rc time.Duration
		for m.rc.next != nil {
			msg := m.rc.next()
			rc = time.Since(start)
			m.Update(msg)
		}
		_ = m.View()
		t.Logf("tab %s: visit %v, switch %v (recompute %v, loop %v)", k, visit, time.Since(start), rc, time.Since(start)-rc)
		m.Settle()
	}
	pprof.StopCPUProfile()
	f.Close()
}
