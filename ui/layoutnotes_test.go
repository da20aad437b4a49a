package ui

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// grpoWarnings returns a layout's warnings that depend on whether the
// method is grpo alone, as open-instruct's normalisation warning does, and
// the options they read; calls counts the scans.
func grpoWarnings(calls *atomic.Int64) (func(*engine.Result, []int) []string, func(engine.Options) engine.Options) {
	warn := func(res *engine.Result, batches []int) []string {
		calls.Add(1)
		if res.Options.Method == engine.GRPO {
			return []string{fmt.Sprintf("computed as grpo, over %d batches", len(batches))}
		}
		return []string{fmt.Sprintf("computed otherwise, over %d batches", len(batches))}
	}
	read := func(o engine.Options) engine.Options {
		if o.Method == engine.GRPO {
			return engine.Options{Method: engine.GRPO}
		}
		return engine.Options{}
	}
	return warn, read
}

// TestLayoutWarningsOffTheLoop: a method switch asks the layout's
// warnings again only when it changes the options they read (into or out
// of grpo here), never on the event loop: the recompute's command scans
// the run, and the status line then shows the warnings of the result
// shown, as a scan of it from scratch gives them.
func TestLayoutWarningsOffTheLoop(t *testing.T) {
	s := uitest.SampleSession(t)
	var calls atomic.Int64
	s.LayoutWarnings, s.LayoutWarningsRead = grpoWarnings(&calls)
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 400, Height: 40})
	m.Settle()
	var scratch atomic.Int64
	fromScratch, _ := grpoWarnings(&scratch)
	all := make([]int, len(s.Result.Ranking.Batches))
	for b := range all {
		all[b] = b
	}
	sawGRPO, sawOther := false, false
	for range len(engine.MethodsFor(s.Options)) + 1 {
		before := calls.Load()
		wasGRPO := s.Result.Options.Method == engine.GRPO
		m.Update(uitest.KeyPress("m"))
		msg := m.rc.next()
		recomputed := calls.Load()
		m.Update(msg)
		if onLoop := calls.Load() - recomputed; onLoop != 0 {
			t.Errorf("switch to %s: %d scans on the event loop", s.Result.Options.Method, onLoop)
		}
		isGRPO := s.Result.Options.Method == engine.GRPO
		sawGRPO, sawOther = sawGRPO || isGRPO, sawOther || !isGRPO
		want := int64(0)
		if isGRPO != wasGRPO {
			want = 1
		}
		if got := recomputed - before; got != want {
			t.Errorf("switch to %s (from grpo: %v): %d scans, want %d", s.Result.Options.Method, wasGRPO, got, want)
		}
		m.Settle()
		if w := fromScratch(s.Result, all)[0]; !strings.Contains(screen(m), w) {
			t.Errorf("under %s the status line does not say %q:\n%s", s.Result.Options.Method, w, screen(m))
		}
	}
	if !sawGRPO || !sawOther {
		t.Fatalf("the switches went through grpo %v, another method %v", sawGRPO, sawOther)
	}
}

// TestStaleLayoutWarningsDropped: the layout's warnings of a result made
// on the event loop (as a followed update makes it) come from a command
// of their own; when it lands after the result shown changed to one they
// do not hold for, they are not shown, and the command for that result
// starts.
func TestStaleLayoutWarningsDropped(t *testing.T) {
	s := uitest.SampleSession(t)
	s.LayoutWarnings = func(res *engine.Result, _ []int) []string {
		return []string{"computed with " + string(res.Options.Method)}
	}
	s.LayoutWarningsRead = func(o engine.Options) engine.Options { return engine.Options{Method: o.Method} }
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 400, Height: 40})
	m.Settle()
	opts := s.Options
	opts.Method = engine.GRPO
	s.Options = opts
	s.SetResult(s.Evaluation.Compute(opts), nil) // as on the event loop
	m.sessionChanged()
	stale := m.layoutNext
	if stale == nil {
		t.Fatal("no command for the layout's warnings of a result made on the event loop")
	}
	opts.Method = engine.RLOO
	s.Options = opts
	s.SetResult(s.Evaluation.Compute(opts), nil)
	m.sessionChanged() // its command waits for the one under way
	m.Update(stale())
	if strings.Contains(screen(m), "computed with grpo") {
		t.Errorf("grpo's warnings shown for rloo's result:\n%s", screen(m))
	}
	if m.layoutNext == nil {
		t.Fatal("no command for the result shown once the stale one landed")
	}
	m.Settle()
	if !strings.Contains(screen(m), "computed with rloo") {
		t.Errorf("rloo's warnings not shown:\n%s", screen(m))
	}
}

// TestNoLayoutWarningsNoCommand: without a layout's warnings, a result made
// on the event loop starts no command for them.
func TestNoLayoutWarningsNoCommand(t *testing.T) {
	s := uitest.SampleSession(t)
	m := NewModel(s, true)
	m.Init()
	m.Settle()
	opts := s.Options
	opts.Method = engine.GRPO
	s.Options = opts
	s.SetResult(s.Evaluation.Compute(opts), nil) // as on the event loop
	m.sessionChanged()
	if m.layoutNext != nil {
		t.Error("a command for the layout's warnings of a session that has none")
	}
}
