package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestHeaderAtThreeWidths checks the header (and the tab bar, where the
// goals go when the header has no room) at 80, 120 and 200 columns, on a
// batch with an invalid trajectory and a long source name.
func TestHeaderAtThreeWidths(t *testing.T) {
	const source = "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/step_000120_rank_003.jsonl"
	for _, tc := range []struct {
		width int
		want  []string
		// goals: where the objectives' goals are: "compact" for the
		// header with the names cut and the badge's counts alone.
		goals string
	}{
		// No room for the goals' names of five letters, with room kept
		// for the longest method name: they go whole.
		{80, []string{"  batch 6/40 step 5", "  pareto  ", "127 valid ! 1 invalid"}, "none"},
		// The method's label and the default settings go before the
		// source's last component is cut.
		{120, []string{"…/rollouts/step_000120_rank_003.jsonl  batch 6/40 step 5  pareto  ", "127 valid", "! 1 invalid"}, "tab bar"},
		{200, []string{"batch 6/40 step 5", "method: pareto", "scope: group", "normalize: on", "127 valid", "! 1 invalid"}, "header"},
	} {
		m := newTestModel(t, tc.width, 40)
		m.Session().Source = source
		press(m, "]", "]", "]", "]", "]")
		lines := strings.Split(screen(m), "\n")
		head, bar := lines[0], lines[1]
		if w := ansi.StringWidth(head); w > tc.width {
			t.Errorf("%d columns: the header is %d wide", tc.width, w)
		}
		for _, want := range tc.want {
			if !strings.Contains(head, want) {
				t.Errorf("%d columns: the header lacks %q: %q", tc.width, want, head)
			}
		}
		// The source: cut from its start, its file name's end kept.
		if !strings.HasPrefix(head, "…") || !regexp.MustCompile(`03\.jsonl  (batch )?6/40`).MatchString(head) {
			t.Errorf("%d columns: the source is not cut from its start: %q", tc.width, head)
		}
		if !strings.Contains(head, "checks alert") && !(tc.width < 100 && strings.HasSuffix(strings.TrimRight(head, " "), "✖2 ⚠1")) {
			t.Errorf("%d columns: the health badge is missing: %q", tc.width, head)
		}
		goals := "accuracy ↑ safety ↑ length ↓"
		switch where := map[bool]string{true: "header", false: ""}[strings.Contains(head, goals)]; {
		case tc.goals == "none" && (strings.Contains(head, "↑") || strings.Contains(bar, "↑")),
			where == "header" && tc.goals != "header",
			tc.goals == "tab bar" && !regexp.MustCompile(`ac[a-z]*…? ↑ sa[a-z]*…? ↑ le[a-z]*…? ↓$`).MatchString(bar),
			tc.goals == "header" && where != "header",
			tc.goals == "compact" && !regexp.MustCompile(`accur[a-z]*…? ↑ safety ↑ length ↓  ✖2 ⚠1`).MatchString(head):
			t.Errorf("%d columns: the goals are not where they should be (%q):\n%s\n%s", tc.width, tc.goals, head, bar)
		}
	}
	// The whole run has 3 invalid trajectories; the header counts the
	// batch on screen.
	m := newTestModel(t, 200, 40)
	if head := strings.Split(screen(m), "\n")[0]; !strings.Contains(head, "128 valid") || strings.Contains(head, "invalid") {
		t.Errorf("the first batch's counts are not shown: %q", head)
	}
}

// TestFindFromAnyTab presses / on the Rewards tab: the Trajectories tab
// comes up with its filter ready; the id typed and enter twice open it. An
// id of another batch brings that batch on screen.
func TestFindFromAnyTab(t *testing.T) {
	m := newTestModel(t, 120, 40)
	press(m, "/")
	if m.active != 4 || !m.tabs[4].(common.KeyCapturer).CapturesKeys() {
		t.Fatalf("/ on Rewards did not bring the Trajectories filter up: tab %d", m.active+1)
	}
	press(m, strings.Split("s00-p07-c3", "")...)
	press(m, "enter", "enter")
	if v := screen(m); !strings.Contains(v, "id          s00-p07-c3") || !strings.Contains(v, "response") {
		t.Errorf("the found trajectory is not opened:\n%s", v)
	}
	// An id of another batch: enter shows the batch that has it.
	press(m, "esc", "1", "/")
	press(m, strings.Split("s03-p04-c2", "")...)
	_, cmd := m.Update(uitest.KeyPress("enter"))
	if cmd == nil {
		t.Fatal("enter on an id of another batch asks for nothing")
	}
	if msg, ok := cmd().(common.ShowBatchMsg); !ok || msg.Batch != 3 {
		t.Fatalf("enter on an id of batch 4 asks for %#v", msg)
	} else {
		m.Update(msg)
		settle(m)
	}
	if v := screen(m); !strings.Contains(v, "batch 4/40") || !strings.Contains(v, "1 trajectory") || !strings.Contains(v, "s03-p04-c2  p04") {
		t.Errorf("the batch of s03-p04-c2 is not shown with it:\n%s", v)
	}
	// On Groups, / is the groups' own filter.
	press(m, "esc", "2", "/")
	if m.active != 1 || !m.tabs[1].(common.KeyCapturer).CapturesKeys() {
		t.Errorf("/ on Groups did not start its own filter: tab %d", m.active+1)
	}
}

// TestTabBarCompactAt80 checks that at 80 columns every tab's number and
// title fit, compact, the inactive tabs' long titles short (eight tabs do
// not fit whole) and none cut within a word, and that a click finds the
// tab under it.
func TestTabBarCompactAt80(t *testing.T) {
	m := newTestModel(t, 80, 24)
	bar := strings.TrimRight(strings.Split(screen(m), "\n")[1], " ")
	if want := "1 Rewards 2 Groups 3 Objs 4 Pareto 5 Trajs 6 Steps 7 Compare 8 Prompts"; bar != want {
		t.Errorf("the tab bar at 80 columns is %q, want %q", bar, want)
	}
	// "1 Rewards 2 Groups 3 Objs 4 Pareto": column 28 is in "4 Pareto".
	m.Update(tea.MouseClickMsg{X: 28, Y: 1, Button: tea.MouseLeft})
	if m.active != 3 {
		t.Errorf("a click on 4 Pareto at 80 columns selected tab %d", m.active+1)
	}
	bar = strings.TrimRight(strings.Split(screen(m), "\n")[1], " ")
	if want := "1 Rewards 2 Groups 3 Objs 4 Pareto 5 Trajs 6 Steps 7 Compare 8 Prompts"; bar != want {
		t.Errorf("the tab bar at 80 columns, Pareto active, is %q, want %q", bar, want)
	}
	press(m, "5")
	bar = strings.TrimRight(strings.Split(screen(m), "\n")[1], " ")
	if want := "1 Rewards 2 Groups 3 Objs 4 Pareto 5 Trajectories 6 Steps 7 Compare 8 Prompts"; bar != want {
		t.Errorf("the tab bar at 80 columns, Trajectories active, is %q, want %q", bar, want)
	}
}

// TestHeaderAt100Columns: the tab bar has no room for the goals, so the
// header keeps the objectives' names whole rather than the method's label
// and the default scope and normalisation; at 60 columns the method
// stays.
func TestHeaderAt100Columns(t *testing.T) {
	head := strings.Split(screen(newTestModel(t, 100, 30)), "\n")[0]
	for _, want := range []string{"  pareto  ", "accuracy ↑ safety ↑ length ↓", "✖2 ⚠1"} {
		if !strings.Contains(head, want) {
			t.Errorf("100 columns: the header lacks %q: %q", want, head)
		}
	}
	if head := strings.Split(screen(newTestModel(t, 60, 20)), "\n")[0]; !strings.Contains(head, "  pareto  ") {
		t.Errorf("60 columns: the header lacks the method: %q", head)
	}
}

// TestGoldenHeader: the header and the tab bar at 80, 100 and 140
// columns, with and without a constraint, on a batch without invalid
// trajectories (the first) and one with (the sixth). At 80 the goals'
// names of five letters have no room beside the longest method name's:
// the goals go whole, and the counts' words go before the batch's
// ("127 valid !1 98% feas"); at 100 the names are whole, the method's
// label and the default settings gone.
func TestGoldenHeader(t *testing.T) {
	var sb strings.Builder
	for _, width := range []int{80, 100, 140} {
		for _, constraints := range [][]string{nil, {"safety >= 0.9"}} {
			for _, batch := range []int{1, 6} {
				m := constrainedModel(t, width, 24, constraints, nil)
				for range batch - 1 {
					press(m, "]")
				}
				lines := strings.Split(screen(m), "\n")
				fmt.Fprintf(&sb, "%d columns, constraints %q, batch %d:\n%s\n%s\n\n", width, constraints, batch, lines[0], lines[1])
			}
		}
	}
	golden.RequireEqual(t, sb.String())
}

// TestGoldenHeaderWidths: the header and the tab bar at 80, 100, 120,
// 140 and 200 columns, with a short and a long method name (rloo, which
// has no normalisation, and pareto-crowding), the default settings and
// changed ones (g and n: scope batch, normalisation off), and a short
// source, a directory's and a long file's: the shortening's one rule
// (header.View), which the method changes nothing of but its own field.
func TestGoldenHeaderWidths(t *testing.T) {
	var sb strings.Builder
	for _, source := range []string{"sample", "/work/main/sample_data/verl/", "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/step_000120_rank_003.jsonl"} {
		for _, method := range []engine.Method{engine.RLOO, engine.ParetoCrowding} {
			for _, keys := range [][]string{nil, {"g", "n"}} {
				for _, width := range []int{80, 100, 120, 140, 200} {
					m := newTestModel(t, width, 24)
					m.Session().Source = source
					setMethod(t, m, method)
					press(m, keys...)
					lines := strings.Split(screen(m), "\n")
					fmt.Fprintf(&sb, "%d columns, %s, keys %q, source %s:\n%s\n%s\n\n", width, method, keys, source, lines[0], lines[1])
				}
			}
		}
	}
	golden.RequireEqual(t, sb.String())
}
