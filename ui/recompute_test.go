package ui

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// settle waits for the recomputes the keys pressed started (Settle), when
// m is the dashboard.
func settle(m tea.Model) {
	if root, ok := m.(*Model); ok {
		root.Settle()
	}
}

// TestRecomputeIsAsynchronous presses m without running the recompute: the
// keys' options change at once, while the header and the tabs keep showing
// the result they have, with its own method, until it lands; the header's
// badge says meanwhile that the result is being recomputed, so that the
// key is not taken for ignored.
func TestRecomputeIsAsynchronous(t *testing.T) {
	m := newTestModel(t, 120, 40)
	before := m.Session().Result
	_ = screen(m) // a frame drawn before the key, as the program does
	m.Update(uitest.KeyPress("m"))
	s := m.Session()
	if s.Options.Method != engine.ParetoCrowding || s.Result != before || m.rc.next == nil {
		t.Fatalf("after m: options %s, result changed %v, job %v", s.Options.Method, s.Result != before, m.rc.next != nil)
	}
	if h := headerLine(m); !strings.Contains(h, "method: pareto ") || !strings.Contains(h, "◌ recomputing…") {
		t.Errorf("while the recompute runs, the header is %q; want the result's method, pareto, and the badge recomputing", h)
	}
	// More keys while it runs start nothing and draw no frame: the one
	// drawn says the recompute already.
	m.frame = "kept"
	m.Update(uitest.KeyPress("m"))
	m.Update(uitest.KeyPress("g"))
	if m.rc.started != 1 {
		t.Errorf("%d recomputes started, want 1 in flight", m.rc.started)
	}
	if v := screen(m); v != "kept" {
		t.Errorf("m and g while the recompute runs drew a frame:\n%s", v)
	}
	settle(m)
	if m.rc.started != 2 || s.Result.Options.Method != engine.GDPO || s.Result.Options.Scope != engine.ScopeBatch {
		t.Errorf("after settling: %d recomputes, result %s %s; want 2, gdpo, batch", m.rc.started, s.Result.Options.Method, s.Result.Options.Scope)
	}
	if h := headerLine(m); !strings.Contains(h, "method: gdpo") || !strings.Contains(h, "scope: batch") || strings.Contains(h, "recomputing") {
		t.Errorf("after settling, the header is %q; want the last result, gdpo with scope batch, and no recompute said", h)
	}
}

// TestRecomputingBadgeStaysUntilTheLast: a key pressed while a recompute
// runs keeps the badge recomputing when the first result lands, until the
// one of the last key's options does; a change of method B alone, which
// leaves the result shown, does not say it.
func TestRecomputingBadgeStaysUntilTheLast(t *testing.T) {
	m := newTestModel(t, 120, 40)
	_ = screen(m)
	m.Update(uitest.KeyPress("m"))
	first := m.rc.next
	m.Update(uitest.KeyPress("g"))
	m.Update(first())
	if h := headerLine(m); !strings.Contains(h, "method: pareto-crowding") || !strings.Contains(h, "◌ recomputing…") {
		t.Errorf("the first of two recomputes landed: the header is %q; want pareto-crowding, still recomputing", h)
	}
	settle(m)
	if h := headerLine(m); !strings.Contains(h, "scope: batch") || strings.Contains(h, "recomputing") {
		t.Errorf("after the last recompute: the header is %q; want scope batch, not recomputing", h)
	}
	compareB := m.setCompareMethod(engine.GRPO)
	if h := headerLine(m); compareB == nil || strings.Contains(h, "recomputing") {
		t.Errorf("method B alone changed (recompute started %v): the header is %q; want no recompute said", compareB != nil, h)
	}
}

// TestStaleResultIsDropped lands a result computed on an evaluation the
// session no longer has: it is not shown.
func TestStaleResultIsDropped(t *testing.T) {
	m := newTestModel(t, 120, 40)
	m.Update(uitest.KeyPress("m"))
	msg := m.rc.next().(recomputedMsg)
	msg.ev = nil // as if new data had replaced the evaluation meanwhile
	before := m.Session().Result
	m.Update(msg)
	if m.Session().Result != before {
		t.Error("a result of another evaluation was shown")
	}
	settle(m) // the options still differ from the result: one more recompute
	if got := m.Session().Result.Options.Method; got != engine.ParetoCrowding {
		t.Errorf("after settling: method %s, want pareto-crowding", got)
	}
}

// TestKeyRepeatCoalesces runs the dashboard as a program, with no terminal,
// and delivers 500 m presses in a burst, as key repeat does. Recomputes run
// as commands on other goroutines while keys keep coming: only a handful
// start, never two at a time, and the screen ends on the 500th method.
func TestKeyRepeatCoalesces(t *testing.T) {
	m := NewModel(uitest.SampleSession(t), true)
	start := m.Session().Options.Method
	const presses = 500
	var (
		keys, landed, maxInFlight int
		first, last               time.Time // the first and the last key handled
	)
	// The filter runs on the event loop, before Update: the model may be
	// read there. It quits once every key is handled and no recompute
	// is left, which probe messages ask again and again.
	filter := func(model tea.Model, msg tea.Msg) tea.Msg {
		root := model.(*Model)
		maxInFlight = max(maxInFlight, root.rc.started-landed)
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			if msg.String() == "m" {
				keys++
				if keys == 1 {
					first = time.Now()
				}
				last = time.Now()
			}
		case recomputedMsg:
			landed++
		case probeMsg:
			if keys == presses && root.rc.next == nil && root.rc.shown == root.rc.gen {
				return tea.Quit()
			}
			return nil
		}
		return msg
	}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(120, 40),
		tea.WithFilter(filter), tea.WithoutSignals())
	go func() {
		for range presses {
			p.Send(uitest.KeyPress("m"))
		}
		for range 3000 {
			p.Send(probeMsg{})
			time.Sleep(10 * time.Millisecond)
		}
		p.Quit()
	}()
	final, err := p.Run()
	if err != nil {
		t.Fatal(err)
	}
	root := final.(*Model)
	s := root.Session()
	want := engine.Methods[(slices.Index(engine.Methods, start)+presses)%len(engine.Methods)]
	if keys != presses || s.Options.Method != want || s.Result.Options.Method != want {
		t.Fatalf("after %d of %d presses: options %s, result %s; want %s", keys, presses, s.Options.Method, s.Result.Options.Method, want)
	}
	// One recompute at the first key, then at most one a frame while the
	// keys come, and the last one after them; two more are allowed for
	// the timers: the frames are timed from when the recomputes start,
	// the burst from when the filter sees the keys, and on a loaded
	// machine the two clocks drift by more than a frame (5 against 4 was
	// seen with other tests running). Without coalescing, the presses
	// would start hundreds.
	burst := last.Sub(first)
	limit := 4 + int(burst/recomputeInterval)
	t.Logf("%d presses in %v: %d recomputes (at most %d), up to %d at a time", presses, burst, root.rc.started, limit, maxInFlight)
	if root.rc.started > limit || maxInFlight > 1 {
		t.Errorf("%d presses in %v started %d recomputes, up to %d at a time; want at most %d, one at a time",
			presses, burst, root.rc.started, maxInFlight, limit)
	}
	if v := screen(root); !strings.Contains(v, "method: "+string(want)) {
		t.Errorf("the screen does not show method %s:\n%s", want, v)
	}
}

// probeMsg asks TestKeyRepeatCoalesces' filter whether the burst is over.
type probeMsg struct{}

// TestResizeStormDoesNotRecompute resizes a hundred times on every tab:
// the result is not recomputed. The tabs that show method B's rewards
// have them computed off the event loop when first shown: one recompute
// in flight, which keeps the result, and the one after it at most.
func TestResizeStormDoesNotRecompute(t *testing.T) {
	m := newTestModel(t, 120, 40)
	result := m.Session().Result
	for i := range 120 {
		m.Update(uitest.KeyPress(strconv.Itoa(i%len(m.tabs) + 1)))
		m.Update(tea.WindowSizeMsg{Width: 40 + i%200, Height: 10 + i%60})
	}
	m.Settle()
	if m.rc.started > 2 || m.Session().Result != result || m.Session().CompareResult() == nil {
		t.Errorf("a resize storm started %d recomputes (B computed: %v)", m.rc.started, m.Session().CompareResult() != nil)
	}
}

// TestRecomputeComputesStatsForTheirTabs: a method switch computes the
// shown batch's statistics off the event loop while a tab that shows them
// is shown (Rewards, Objectives); on another (Groups, Compare) only the
// counts the header shows, the cores going to the tab's own work. The
// Rewards tab, visited next, computes them off the event loop too,
// saying so meanwhile, then shows those of a result computed anew.
func TestRecomputeComputesStatsForTheirTabs(t *testing.T) {
	for _, c := range []struct {
		tab   string
		stats bool
	}{{"1", true}, {"3", true}, {"2", false}, {"7", false}} {
		m := newTestModel(t, 120, 40)
		press(m, c.tab)
		m.Update(uitest.KeyPress("m"))
		for m.rc.next != nil {
			m.Update(m.rc.next())
		}
		s := m.Session()
		res, b := s.Result, s.CurrentBatch()
		if res.Options.Method != engine.ParetoCrowding {
			t.Fatalf("tab %s: the switch's result is not shown: method %s", c.tab, res.Options.Method)
		}
		if computed := diagnose.StatsComputed(res, b); computed != c.stats {
			t.Errorf("tab %s: the recompute computed the statistics: %v, want %v", c.tab, computed, c.stats)
		}
		anew := s.Evaluation.Compute(s.Options) // a cache of its own
		want := diagnose.StatsOf(anew, &anew.Ranking.Batches[s.Batch])
		if got := fmt.Sprint(s.Counts()); got != fmt.Sprint(want.Counts) {
			t.Errorf("tab %s: counts %s, want %s", c.tab, got, fmt.Sprint(want.Counts))
		}
		m.Update(uitest.KeyPress("1"))
		if !c.stats {
			if diagnose.StatsComputed(res, b) {
				t.Errorf("tab %s then Rewards: the statistics were computed on the event loop", c.tab)
			}
			if v := screen(m); !strings.Contains(v, "computing the statistics") {
				t.Errorf("tab %s then Rewards: the tab does not say it computes the statistics:\n%s", c.tab, v)
			}
		}
		m.Settle()
		if got := fmt.Sprint(s.BatchStats()); got != fmt.Sprint(want) {
			t.Errorf("tab %s then Rewards: statistics\n%s\nwant\n%s", c.tab, got, fmt.Sprint(want))
		}
		if v := screen(m); strings.Contains(v, "computing") || !strings.Contains(v, "pareto-crowding") {
			t.Errorf("tab %s then Rewards: the statistics are not shown:\n%s", c.tab, v)
		}
	}
}
