package ui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/pages/compare"
	"github.com/rewardlens/rewardlens/ui/session"
)

// runCmds runs the commands the way Bubble Tea would and sends m what
// they return, until none is left. A text input's cursor blinks for as
// long as it is typed in, each blink asking for the next: the blinks are
// not sent, or a refused input left open would never let it return.
func runCmds(m tea.Model, cmds ...tea.Cmd) {
	runCmdsHolding[heldNothing](m, cmds...)
}

// heldNothing is a message no command returns: runCmds holds none back.
type heldNothing struct{}

// runCmdsHolding runs cmds as runCmds does, but holds back the messages
// of type Held (what a test lets arrive late, or not at all), which it
// returns unsent, in the order they came.
func runCmdsHolding[Held tea.Msg](m tea.Model, cmds ...tea.Cmd) []Held {
	var held []Held
	for len(cmds) > 0 {
		cmd := cmds[0]
		cmds = cmds[1:]
		if cmd == nil {
			continue
		}
		msg := cmd()
		if h, ok := msg.(Held); ok {
			held = append(held, h)
			continue
		}
		switch msg := msg.(type) {
		case tea.BatchMsg:
			cmds = append(cmds, msg...)
		case nil, cursor.BlinkMsg:
		default:
			_, next := m.Update(msg)
			cmds = append(cmds, next)
		}
	}
	return held
}

func TestCompareCyclesMethodB(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	s := m.Session()
	before := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if s.Options.Method != engine.Pareto || s.CompareMethod != engine.GRPO {
		t.Fatalf("the sample compares %s with %s, want pareto with grpo", s.Options.Method, s.CompareMethod)
	}
	_, cmd := m.Update(uitest.KeyPress("b"))
	runCmds(m, cmd)
	if s.CompareMethod != engine.RLOO {
		t.Fatalf("b made B %s, want rloo", s.CompareMethod)
	}
	after := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	if after.Spearman == before.Spearman || after.Kendall == before.Kendall {
		t.Errorf("the correlations did not change: %v, %v", before, after)
	}
	view := screen(m)
	for _, want := range []string{"against rloo (B)", "Spearman ρ    " + common.FormatValue(after.Spearman), "Kendall τ-b   " + common.FormatValue(after.Kendall)} {
		if !strings.Contains(view, want) {
			t.Errorf("the view does not show %q:\n%s", want, view)
		}
	}
	// After rloo comes pareto, A's own method, which B may be.
	_, cmd = m.Update(uitest.KeyPress("b"))
	runCmds(m, cmd)
	if s.CompareMethod != engine.Pareto {
		t.Errorf("b from rloo made B %s, want pareto (A's method)", s.CompareMethod)
	}
	if view := screen(m); !strings.Contains(view, "Rewards of pareto (A) against pareto (B)") || !strings.Contains(view, "Spearman ρ    1") {
		t.Errorf("pareto against itself does not agree fully:\n%s", view)
	}
}

// TestCompareKeepsMethodBWhenACycles: B changes only by b/B, never because
// A moved, not even onto B.
func TestCompareKeepsMethodBWhenACycles(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	s := m.Session()
	for _, wantA := range []engine.Method{engine.RLOO, engine.GRPO, engine.Relative} {
		_, cmd := m.Update(uitest.KeyPress("M"))
		runCmds(m, cmd)
		if s.Options.Method != wantA || s.CompareMethod != engine.GRPO {
			t.Errorf("after M: A %s, B %s; want A %s, B grpo", s.Options.Method, s.CompareMethod, wantA)
		}
	}
}

// TestCompareSelectsAndOpens walks the disagreements of pareto against
// grpo on the sample: the first A+ B− one is selected, d/D step through them, enter opens its
// trajectory, esc goes back; a click selects the nearest point.
func TestCompareSelectsAndOpens(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	s := m.Session()
	c := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	first := -1
	for j := range c.A {
		if c.A[j] > 0 && c.B[j] < 0 {
			first = j
			break
		}
	}
	if first < 0 {
		t.Fatal("the sample has no A+ B- trajectory under pareto against grpo")
	}
	id := s.Trajectories.At(c.Index[first]).ID
	odd := c.PosNeg + c.NegPos
	nth := func(k int) string { return fmt.Sprintf("disagreement  %d of %d", k, odd) }
	view := screen(m)
	for _, want := range []string{"id            " + id, nth(1), "reward A      " + common.FormatValue(c.A[first])} {
		if !strings.Contains(view, want) {
			t.Errorf("the first disagreement is not selected: no %q in\n%s", want, view)
		}
	}
	press(m, "D") // the first stays the first
	if !strings.Contains(screen(m), nth(1)) {
		t.Errorf("D before the first disagreement left it:\n%s", screen(m))
	}
	press(m, "d")
	if !strings.Contains(screen(m), nth(2)) {
		t.Errorf("d did not step to the second disagreement:\n%s", screen(m))
	}
	press(m, "D", "enter")
	view = screen(m)
	if !strings.Contains(view, "esc: back to the plot") || !strings.Contains(view, id) {
		t.Fatalf("enter did not open trajectory %s:\n%s", id, view)
	}
	press(m, "esc")
	if !strings.Contains(screen(m), nth(1)) {
		t.Errorf("esc did not go back to the plot with the selection:\n%s", screen(m))
	}
	press(m, "right")
	if strings.Contains(screen(m), nth(1)) {
		t.Errorf("→ did not move the selection:\n%s", screen(m))
	}
}

// TestCompareWithLogged compares grpo with the advantages TRL logged, on
// the TRL fixture: B is "logged" by default, and they agree.
func TestCompareWithLogged(t *testing.T) {
	fields, err := scoring.NewRecordFields("prompt", "step", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := loaders.Load([]string{filepath.Join("..", "sample_data", "trl", "completions")}, loaders.Options{Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	c, err := engine.New(setup.Config{Method: "grpo", NanSum: &yes, LoggedAdvantage: "advantage", Objectives: []setup.ObjectiveConfig{
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
	if s.CompareMethod != compare.LoggedMethod {
		t.Fatalf("B is %s by default, want the logged advantage", s.CompareMethod)
	}
	want := agreement.CompareWithLogged(s.Result, s.Batch)
	if want.N != 12 || want.PosNeg+want.NegPos != 0 || want.Spearman < 0.999999 {
		t.Errorf("grpo against TRL's logged advantages: %+v", want)
	}
	view := screen(m)
	for _, w := range []string{"Rewards of grpo (A) against logged (B)", "Spearman ρ    " + common.FormatValue(want.Spearman), "compared      12 trajectories", "max |A − B|   "} {
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

// TestCompareOpensGroup: o on Compare opens the selected disagreement's
// group on the Groups tab, with that trajectory selected.
func TestCompareOpensGroup(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	s := m.Session()
	c := agreement.CompareRewards(s.Result, s.CompareResult(), s.Batch)
	press(m, "d") // the second disagreement: A+ B−
	var odd []int
	for j := range c.A {
		if c.A[j] > 0 && c.B[j] < 0 {
			odd = append(odd, j)
		}
	}
	tr := s.Trajectories.At(c.Index[odd[1]])
	_, cmd := m.Update(uitest.KeyPress("o"))
	runCmds(m, cmd)
	view := screen(m)
	if !strings.Contains(view, "[2 Groups]") {
		t.Fatalf("o did not show the Groups tab:\n%s", view)
	}
	row := rowOf(view, tr.ID)
	if row == "" || !strings.Contains(view, "completions ·") {
		t.Fatalf("o did not open %s's group %s:\n%s", tr.ID, tr.Group, view)
	}
	if !strings.Contains(row, common.FormatValue(c.A[odd[1]])) {
		t.Errorf("the row of %s does not show its reward A %s: %q", tr.ID, common.FormatValue(c.A[odd[1]]), row)
	}
}

// TestComparePrefetchStartsWithTheHealth: the prefetch of method B's
// result starts when the health of the first result does, not once it is
// computed, so that a visit soon after the first frame finds it done.
func TestComparePrefetchStartsWithTheHealth(t *testing.T) {
	m := NewModel(uitest.SampleSession(t), true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for m.rc.next != nil { // the first result shown, as Settle, without its health
		m.Update(m.rc.next())
	}
	s := m.Session()
	if s.HealthReady() {
		t.Fatal("the health is computed already")
	}
	_, cmd := m.Update(backgroundDueMsg{s.HealthJob()})
	batch, ok := cmd().(tea.BatchMsg)
	if !ok {
		t.Fatalf("the health's start gives %T, want a batch with the prefetch", cmd())
	}
	due := false
	for _, c := range batch {
		if c == nil {
			continue
		}
		if _, ok := c().(prefetchDueMsg); ok {
			due = true
		}
	}
	if !due {
		t.Fatal("the health's start does not make the prefetch due")
	}
	m.Update(prefetchDueMsg{})
	if !m.rc.prefetching || s.HealthReady() {
		t.Errorf("with the health not yet computed (%v), the prefetch did not start", !s.HealthReady())
	}
}

// TestComparePrefetchedWhenIdle: once the health of the first result
// is computed, method B's result and the Compare tab's comparison are
// computed before the tab is shown, and its first visit shows them with
// nothing left to compute; a change of the session after it makes the
// next visit compare again, and is not prefetched (once a session).
func TestComparePrefetchedWhenIdle(t *testing.T) {
	m := newTestModel(t, 120, 40)
	s := m.Session()
	const compareTab = 6 // key 7
	_, cmd := m.Update(uitest.KeyPress("m"))
	runCmds(m, cmd)
	if !s.HealthReady() {
		t.Fatal("the health was not computed")
	}
	if s.CompareResult() == nil {
		t.Fatalf("method B's result (%s against %s) was not computed before the visit", s.CompareMethod, s.Options.Method)
	}
	if m.stale[compareTab] || len(m.jobs) > 0 || m.rc.prefetching {
		t.Fatalf("the Compare tab's comparison was not computed: stale %v, jobs %d, prefetching %v", m.stale[compareTab], len(m.jobs), m.rc.prefetching)
	}
	if m.sizes[compareTab] != m.body {
		t.Errorf("the comparison was prefetched at %v, not at the size its visit draws (%v): the visit counts its points again", m.sizes[compareTab], m.body)
	}
	b := s.CompareResult()
	_, cmd = m.Update(uitest.KeyPress("7"))
	if len(m.jobs) > 0 || m.rc.next != nil {
		t.Errorf("the visit computes again: %d jobs, recompute %v", len(m.jobs), m.rc.next != nil)
	}
	runCmds(m, cmd)
	want := agreement.CompareRewards(s.Result, b, s.Batch)
	if v := screen(m); strings.Contains(v, "computing") || !strings.Contains(v, "Kendall τ-b   "+common.FormatValue(want.Kendall)) {
		t.Errorf("the first visit does not show the prefetched comparison (Kendall %v):\n%s", want.Kendall, v)
	}
	press(m, "1")
	m.Update(uitest.KeyPress("m"))
	if m.rc.next == nil {
		t.Fatal("m started no recompute")
	}
	_, cmd = m.Update(m.rc.next())
	runCmds(m, cmd) // its health, and no prefetch: that is done once
	if !m.stale[compareTab] || m.rc.prefetching {
		t.Errorf("a new result leaves the comparison prefetched for the last one as current (stale %v), or prefetches again (%v)", m.stale[compareTab], m.rc.prefetching)
	}
}

// TestCompareMethodAskedOutOfOrder: two methods B asked by quick presses
// may come back in either order (their commands run at once): the root
// takes the one asked last, not the one that came last.
func TestCompareMethodAskedOutOfOrder(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	s := m.common.Session
	m.Update(common.CompareMethodMsg{Method: engine.Pareto, Asked: 2})
	m.Update(common.CompareMethodMsg{Method: engine.RLOO, Asked: 1})
	if s.CompareMethod != engine.Pareto {
		t.Errorf("B is %s, want pareto, the one asked last", s.CompareMethod)
	}
}

// TestMethodBStepsFromTheOneShown: b steps from the method B shown once
// its ask has landed, whatever A did meanwhile (m cycling it, onto B
// too): the method the tab last asked (askedB) is then the session's B,
// never a stale one.
func TestMethodBStepsFromTheOneShown(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "7")
	s := m.Session()
	methods := engine.MethodsFor(s.Options)
	if s.Result.Evaluation.Logged != nil {
		methods = append(methods, session.LoggedMethod)
	}
	keys := func(ks ...string) {
		for _, k := range ks {
			_, cmd := m.Update(uitest.KeyPress(k))
			runCmds(m, cmd)
		}
	}
	aWasB := false
	for round := range len(methods) {
		want := methods[(slices.Index(methods, s.CompareMethod)+1)%len(methods)]
		keys("b")
		if s.CompareMethod != want {
			t.Fatalf("round %d: b made B %s, want %s, the one after the B shown", round, s.CompareMethod, want)
		}
		keys("m", "m") // A gains a step on B each round, meeting it
		aWasB = aWasB || s.Options.Method == s.CompareMethod
	}
	if !aWasB {
		t.Fatal("A never became B: the test misses that case")
	}
}
