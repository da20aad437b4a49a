package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// rewardFunctionsSession returns a session of 128 completions scored by five
// reward functions in [0, 1] by quarters, as TRL's format rewards are.
func rewardFunctionsSession(t *testing.T) *session.Session {
	t.Helper()
	names := []string{"format_reward", "soft_reward", "think_reward", "tags_reward", "length_ok"}
	var b strings.Builder
	for i := range 128 {
		fmt.Fprintf(&b, `{"id":"c%d","batch":0,"group":"p%d","metadata":{`, i, i/8)
		for k, name := range names {
			if k > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `%q:%v`, name, float64((i*(k+3)+i/(k+2))%5)/4)
		}
		b.WriteString("}}\n")
	}
	res, err := loaders.Read(strings.NewReader(b.String()), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := setup.Config{Method: "grpo"}
	for _, name := range names {
		cfg.Objectives = append(cfg.Objectives, setup.ObjectiveConfig{Name: name, Expr: "metadata." + name})
	}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGoldenObjectivesTicks: the Objectives tab's histograms of rewards in
// [0, 1], narrow at 80 columns: their edges are labelled 0.00 to 1.00, or
// fewer of them, never "0    0    1    1    1   1".
func TestGoldenObjectivesTicks(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {80, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := NewModel(rewardFunctionsSession(t), true)
			m.Init()
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			m.Settle()
			selectTabTitled(t, m, "Objectives")
			golden.RequireEqual(t, screen(m))
		})
	}
}

// axisLabels returns the labels of every axis of view, one list per
// chart: the fields of the line under a line holding a └ (a chart's
// corner, charts side by side split at each), else a ┬ (a compact
// histogram's baseline), from that column on; and of the line under a
// sparkline with no baseline, from its first column on.
func axisLabels(view string) [][]string {
	isBar := func(r rune) bool { return r >= '▁' && r <= '█' }
	lines := strings.Split(view, "\n")
	var axes [][]string
	for i := 0; i+1 < len(lines); i++ {
		axis, labels := []rune(lines[i]), []rune(lines[i+1])
		var starts []int
		for j, r := range axis {
			if r == '└' {
				starts = append(starts, j)
			}
		}
		if j := slices.Index(axis, '┬'); len(starts) == 0 && j >= 0 {
			starts = []int{j}
		}
		if j := slices.IndexFunc(axis, isBar); len(starts) == 0 && j >= 0 &&
			!slices.ContainsFunc(labels, func(r rune) bool { return isBar(r) || r == '└' || r == '┬' }) {
			starts = []int{j}
		}
		for k, start := range starts {
			end := len(labels)
			if k+1 < len(starts) {
				end = starts[k+1]
			}
			if start < end {
				axes = append(axes, strings.Fields(string(labels[start:end])))
			}
		}
	}
	return axes
}

// TestAxisLabelsDistinct reads every chart's axis labels off the Rewards,
// Objectives, Pareto, Steps and Compare tabs at 80x24, 80x30 and 100x30:
// no number twice on one axis (the Objectives tab at 80x30 read
// "0 0 0 1 1 1" under bins of 0.2).
func TestAxisLabelsDistinct(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {80, 30}, {100, 30}} {
		m := NewModel(rewardFunctionsSession(t), true)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		m.Settle()
		for _, title := range []string{"Rewards", "Objectives", "Pareto", "Steps", "Compare"} {
			selectTabTitled(t, m, title)
			view := screen(m)
			for _, labels := range axisLabels(view) {
				seen := map[string]bool{}
				for _, l := range labels {
					if _, err := strconv.ParseFloat(l, 64); err != nil {
						continue // a caption's word
					}
					if seen[l] {
						t.Errorf("%s at %v: axis labels %q repeat %s:\n%s", title, size, labels, l, view)
					}
					seen[l] = true
				}
			}
		}
	}
}
