package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
)

func TestGoldenCompare(t *testing.T) {
	tab, _ := newSampleTab(t, newCompareTab)
	golden.RequireEqual(t, plain(tab))
}

// runCmds runs the commands the way Bubble Tea would and sends m what
// they return, until none is left.
func runCmds(m tea.Model, cmds ...tea.Cmd) {
	for len(cmds) > 0 {
		cmd := cmds[0]
		cmds = cmds[1:]
		if cmd == nil {
			continue
		}
		switch msg := cmd().(type) {
		case tea.BatchMsg:
			cmds = append(cmds, msg...)
		case nil:
		default:
			_, next := m.Update(msg)
			cmds = append(cmds, next)
		}
	}
}

func TestCompareCyclesMethodB(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	s := m.Session()
	before := engine.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if s.Options.Method != engine.Pareto || s.CompareMethod != engine.GRPO {
		t.Fatalf("the sample compares %s with %s, want pareto with grpo", s.Options.Method, s.CompareMethod)
	}
	_, cmd := m.Update(keyPress("b"))
	runCmds(m, cmd)
	// After grpo come rloo, then pareto, which is A and skipped.
	if s.CompareMethod != engine.RLOO {
		t.Fatalf("b made B %s, want rloo", s.CompareMethod)
	}
	after := engine.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if after.Spearman == before.Spearman || after.Kendall == before.Kendall {
		t.Errorf("the correlations did not change: %v, %v", before, after)
	}
	view := screen(m)
	for _, want := range []string{"against rloo (B)", "Spearman ρ        " + formatValue(after.Spearman), "Kendall τ-b       " + formatValue(after.Kendall)} {
		if !strings.Contains(view, want) {
			t.Errorf("the view does not show %q:\n%s", want, view)
		}
	}
	for range 2 {
		_, cmd = m.Update(keyPress("b"))
		runCmds(m, cmd)
	}
	if s.CompareMethod != engine.GDPO {
		t.Errorf("b twice from rloo made B %s, want gdpo (skipping pareto)", s.CompareMethod)
	}
}

func TestCompareNeverComparesAMethodWithItself(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	s := m.Session()
	// M goes from pareto back to rloo; then B, grpo, becomes A with M again.
	for range 2 {
		_, cmd := m.Update(keyPress("M"))
		runCmds(m, cmd)
	}
	if s.Options.Method != engine.GRPO || s.CompareMethod == engine.GRPO {
		t.Errorf("A %s, B %s: B should have moved off A", s.Options.Method, s.CompareMethod)
	}
}
