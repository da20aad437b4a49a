package common

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestStatsWaitFor: a wait for a tab's own statistics says what it
// computes, hands out its job once, and its message carries the job's
// value and ends the wait; the message of a job a later wait or Stop
// replaced ends nothing.
func TestStatsWaitFor(t *testing.T) {
	st := NewStyles(true, true)
	var w StatsWait
	if _, waits := w.View(st, 40, 3); waits || w.Job() != nil {
		t.Fatal("the zero StatsWait waits")
	}
	w.WaitFor("the source's statistics", func() any { return 1 })
	if v, waits := w.View(st, 40, 3); !waits || !strings.Contains(ansi.Strip(v), "computing the source's statistics") {
		t.Errorf("waiting, the view is %q", v)
	}
	first := w.Job()
	if first == nil || w.Job() != nil {
		t.Fatal("the job is not handed out once")
	}
	stale := first().(StatsReadyMsg)
	w.WaitFor("the source's statistics", func() any { return 2 })
	if w.Ready(stale) {
		t.Error("the message of a job replaced ended the wait")
	}
	msg := w.Job()().(StatsReadyMsg)
	if !w.Ready(msg) || msg.Value != 2 {
		t.Errorf("the last job's message: ready false or value %v, want ready and 2", msg.Value)
	}
	if _, waits := w.View(st, 40, 3); waits {
		t.Error("still waiting once ready")
	}
	w.WaitFor("the source's statistics", func() any { return 3 })
	job := w.Job()
	w.Stop()
	if w.Ready(job().(StatsReadyMsg)) {
		t.Error("the message of a job made before Stop ended the wait")
	}
}
