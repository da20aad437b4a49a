package ui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/pages/compare"
	"github.com/rewardlens/rewardlens/ui/session"
)

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
	_, cmd := m.Update(uitest.KeyPress("b"))
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
	for _, want := range []string{"against rloo (B)", "Spearman ρ        " + common.FormatValue(after.Spearman), "Kendall τ-b       " + common.FormatValue(after.Kendall)} {
		if !strings.Contains(view, want) {
			t.Errorf("the view does not show %q:\n%s", want, view)
		}
	}
	for range 2 {
		_, cmd = m.Update(uitest.KeyPress("b"))
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
		_, cmd := m.Update(uitest.KeyPress("M"))
		runCmds(m, cmd)
	}
	if s.Options.Method != engine.GRPO || s.CompareMethod == engine.GRPO {
		t.Errorf("A %s, B %s: B should have moved off A", s.Options.Method, s.CompareMethod)
	}
}

// TestCompareWithLogged compares grpo with the advantages TRL logged, on
// the TRL fixture: B offers "logged" after the methods, and they agree.
func TestCompareWithLogged(t *testing.T) {
	fields, err := engine.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := loaders.Load([]string{filepath.Join("..", "sample_data", "trl", "completions")}, loaders.Options{Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	c, err := engine.New(engine.Config{Method: "grpo", NanSum: &yes, LoggedAdvantage: "advantage", Objectives: []engine.ObjectiveConfig{
		{Name: "accuracy_reward", Expr: "accuracy_reward"}, {Name: "think_format_reward", Expr: "think_format_reward"}},
		Weights: map[string]float64{"accuracy_reward": 1, "think_format_reward": 1}})
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(session.NewSession("trl", res.Trajectories, c), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	selectTabTitled(t, m, "Compare")
	s := m.Session()
	for range len(engine.Methods) {
		if s.CompareMethod == compare.LoggedMethod {
			break
		}
		_, cmd := m.Update(uitest.KeyPress("b"))
		runCmds(m, cmd)
	}
	if s.CompareMethod != compare.LoggedMethod {
		t.Fatalf("b never offered the logged advantage: B is %s", s.CompareMethod)
	}
	want := engine.CompareWithLogged(s.Result, s.Batch)
	if want.N != 12 || want.PosNeg+want.NegPos != 0 || want.Spearman < 0.999999 {
		t.Errorf("grpo against TRL's logged advantages: %+v", want)
	}
	view := screen(m)
	for _, w := range []string{"Rewards of grpo (A) against logged (B)", "Spearman ρ        " + common.FormatValue(want.Spearman), "compared          12 trajectories"} {
		if !strings.Contains(view, w) {
			t.Errorf("the view does not show %q:\n%s", w, view)
		}
	}
	// Without logged advantages, B never is "logged".
	m = newTestModel(t, 120, 40)
	selectTabTitled(t, m, "Compare")
	for range 2 * len(engine.Methods) {
		_, cmd := m.Update(uitest.KeyPress("b"))
		runCmds(m, cmd)
		if m.Session().CompareMethod == compare.LoggedMethod {
			t.Fatal("B is logged on the sample, which has no logged advantage")
		}
	}
}
