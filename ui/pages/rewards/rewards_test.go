package rewards

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// TestRewardsTabKeepsTheScoresHistogram switches the method, which keeps
// the scores, then a weight, which changes them: the scores' histogram is
// drawn once for the first and again for the second.
func TestRewardsTabKeepsTheScoresHistogram(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	r := tab.(*rewardsTab)
	before, key := r.scoresView, r.scoresOf
	next := engine.Methods[(slices.Index(engine.Methods, s.Options.Method)+1)%len(engine.Methods)]
	uitest.SwitchOptions(t, tab, s, uitest.MethodChange(next), uitest.SampleSession, New)
	if r.scoresOf != key || r.scoresView != before {
		t.Error("a method switch binned the unchanged scores again")
	}
	uitest.SwitchOptions(t, tab, s, uitest.WeightChange, uitest.SampleSession, New)
	if r.scoresOf == key || r.scoresView == before {
		t.Error("a weight change left the scores' histogram as it was")
	}
	if v := uitest.Plain(tab); !strings.Contains(v, "Scores: s = Σ weight") {
		t.Errorf("no scores' histogram on screen:\n%s", v)
	}
}

// TestRewardsSummaryCountsGroupsWithoutValidMembers: the summary counts
// the batch's groups as the Groups tab lists them, says how many have no
// valid member, and shows "–", not NaN, for statistics of no value.
func TestRewardsSummaryCountsGroupsWithoutValidMembers(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"all invalid", `{"id":"a","group":"g0","metadata":{"b":1}}
{"id":"b","group":"g0","metadata":{"b":2}}
{"id":"c","group":"g1","metadata":{"b":1}}
{"id":"d","group":"g2","metadata":{"b":1}}
`, []string{"groups       3\n", " none with a valid member", "frac_zero_std_groups –", "mean              –           –"}},
		{"one group invalid", `{"id":"a","group":"g0","metadata":{"a":1,"b":1}}
{"id":"b","group":"g0","metadata":{"a":2,"b":2}}
{"id":"c","group":"g1","metadata":{"b":1}}
`, []string{"groups       2  fronts ≤ 2", " 1 without a valid member"}},
	} {
		tab := uitest.TabOn(uitest.TextSession(t, c.text), New)
		v := uitest.Plain(tab)
		lines := strings.Split(v, "\n")
		for k := range lines {
			lines[k] = strings.TrimRight(lines[k], " ")
		}
		trimmed := strings.Join(lines, "\n")
		for _, want := range c.want {
			if !strings.Contains(trimmed, want) {
				t.Errorf("%s: the summary does not say %q:\n%s", c.name, want, v)
			}
		}
		if strings.Contains(v, "NaN") {
			t.Errorf("%s: the summary shows NaN:\n%s", c.name, v)
		}
	}
}

// TestRewardsScoreFormulaHasThePenalty: with a constraint the scores'
// title states the penalty the scores carry, λ given, and at 80 cells
// still the penalty; without, no penalty.
func TestRewardsScoreFormulaHasThePenalty(t *testing.T) {
	plain, _ := uitest.SampleTab(t, New)
	if v := uitest.Plain(plain); !strings.Contains(v, "Scores: s = Σ weight × objective (min goals negated)") || strings.Contains(v, "λ") {
		t.Errorf("without constraints the formula is not the weighted sum alone:\n%s", v)
	}
	penalty := 2.5
	s := uitest.SampleSessionWith(t, func(cfg *setup.Config) {
		cfg.Constraints = []string{"safety >= 0.8"}
		cfg.Penalty = &penalty
	})
	tab := uitest.TabOn(s, New)
	if v := uitest.Plain(tab); !strings.Contains(v, "Scores: s = Σ weight × objective − λ × violation (λ = 2.5; min goals negated)") {
		t.Errorf("with a constraint the formula leaves out the penalty:\n%s", v)
	}
	tab.SetSize(80, 24)
	if v := uitest.Plain(tab); !strings.Contains(v, "− λ × violation") {
		t.Errorf("at 80 cells the formula lost the penalty:\n%s", v)
	}
}

// TestRewardsTitleSaysTheScale: under grpo the Rewards title says which
// std the rewards are scaled by, the group's or the batch's (n), or that
// they are not, at 80x24 and 160x40.
func TestRewardsTitleSaysTheScale(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		for _, c := range []struct {
			scale engine.Scale
			want  string
		}{{engine.ScaleGroup, "group std"}, {engine.ScaleBatch, "batch std"}, {engine.ScaleNone, "unscaled"}} {
			tab, s := uitest.SampleTab(t, New)
			tab.SetSize(size[0], size[1])
			uitest.SwitchOptions(t, tab, s, uitest.OptionChange{Name: "grpo", Set: func(o *engine.Options) {
				o.Method, o.Scale = engine.GRPO, c.scale
			}}, uitest.SampleSession, New)
			v := uitest.Plain(tab)
			title := v[:strings.Index(v+"\n", "\n")]
			if !strings.Contains(title, c.want) || strings.Contains(title, "…") {
				t.Errorf("at %dx%d, scale %s, the title does not say %q whole: %q", size[0], size[1], c.scale, c.want, title)
			}
		}
	}
}

// TestGoldenRewardsGRPO: the Rewards tab under grpo scaled by the batch's
// std, at 80x24 and 160x40.
func TestGoldenRewardsGRPO(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tab, s := uitest.SampleTab(t, New)
			tab.SetSize(size[0], size[1])
			uitest.SwitchOptions(t, tab, s, uitest.OptionChange{Name: "grpo", Set: func(o *engine.Options) {
				o.Method, o.Scale = engine.GRPO, engine.ScaleBatch
			}}, uitest.SampleSession, New)
			golden.RequireEqual(t, uitest.Plain(tab))
		})
	}
}

// TestRewardsSummaryDroppedApartFromEmpty: with the group filter on
// (objective a), the groups it dropped (x, z: zero spread) are said
// dropped by the filter, not without a valid member as the group of no
// valid a (w) is, at 80x24 and 160x40.
func TestRewardsSummaryDroppedApartFromEmpty(t *testing.T) {
	s := uitest.FilteredSession(t, uitest.DroppedAndEmptyRun)
	tab := uitest.TabOn(s, New)
	for _, want := range []string{" 1 without a valid member", " 2 dropped by the filter"} {
		if v := uitest.Plain(tab); !strings.Contains(v, want) {
			t.Errorf("the summary does not say %q:\n%s", want, v)
		}
	}
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tab.SetSize(size[0], size[1])
			golden.RequireEqual(t, uitest.Plain(tab))
		})
	}
}

// TestRewardsSwitchTakesThePreparedBins: a method switch's refresh takes
// the rewards gathered and binned beside the recompute (PrepareJob), not
// binning them on the event loop, and shows what a tab opened on the new
// options shows; bins made of another result than the one shown are not
// taken.
func TestRewardsSwitchTakesThePreparedBins(t *testing.T) {
	tab, s := uitest.SampleTab(t, New)
	r := tab.(*rewardsTab)
	s.Options.Weights = s.Weights()
	first := s.Options.Method
	next := engine.Methods[(slices.Index(engine.Methods, first)+1)%len(engine.Methods)]
	for i, change := range []uitest.OptionChange{uitest.MethodChange(next), uitest.MethodChange(first)} {
		change.Set(&s.Options)
		job := r.PrepareJob()
		if job == nil {
			t.Fatalf("%s: no job prepared", change.Name)
		}
		p := r.prepared.Held()
		s.Recompute()
		job(s.Result, nil)
		if i == 1 { // the options changed again before the result was shown
			s.Options.Scope = engine.ScopeBatch
			s.Recompute()
		}
		uitest.Refresh(tab, s)
		if took := r.rewardsBins == &p.bins; took != (i == 0) {
			t.Errorf("%s: took the prepared bins %v, want %v", change.Name, took, i == 0)
		}
		opened := uitest.SampleSession(t)
		opened.Options = s.Options
		opened.Recompute()
		if got, want := uitest.Plain(tab), uitest.Plain(uitest.TabOn(opened, New)); got != want {
			t.Errorf("%s: the tab shows\n%s\nwant\n%s", change.Name, got, want)
		}
	}
}
