package header

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/health"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

func TestShortenStart(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"sample", 10, "sample"},
		{"abcdefghij", 5, "…ghij"},
		{"abcdefghij", 6, "…fghij"},
		{"../sample_data/trl/completions", 17, "…/trl/completions"},
		{"軌跡軌跡軌跡", 5, "…軌跡"},
	} {
		if got := shortenStart(tc.s, tc.width); got != tc.want || ansi.StringWidth(got) > tc.width {
			t.Errorf("shortenStart(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// TestNameWidthsSkipWhatCannotFit: the goals' widths are tried from the
// longest name down to readableNameWidth, skipping the width one cell
// under the longest (a cut of one cell is none: cutNames), and not at
// all when not even the names at readableNameWidth fit: a thousand
// objectives cost no sweep on every frame.
func TestNameWidthsSkipWhatCannotFit(t *testing.T) {
	objs := []scoring.Objective{{Name: "think_format"}, {Name: "len"}}
	if got := nameWidths(objs, 80); !slices.Equal(got, []int{12, 10, 9, 8, 7, 6}) {
		t.Errorf("nameWidths = %v, want 12, then 10 down to 6", got)
	}
	// "think_… ↑ len ↑" is 14 cells.
	if got := nameWidths(objs, 13); got != nil {
		t.Errorf("nameWidths in 13 cells = %v, want none", got)
	}
	if got := nameWidths(objs, 14); !slices.Equal(got, []int{12, 10, 9, 8, 7, 6}) {
		t.Errorf("nameWidths in 14 cells = %v, want 12, then 10 down to 6", got)
	}
	many := make([]scoring.Objective, 1000)
	for k := range many {
		many[k].Name = fmt.Sprintf("objective_%d", k)
	}
	if got := nameWidths(many, 200); got != nil {
		t.Errorf("nameWidths of 1000 objectives in 200 cells = %v, want none", got)
	}
}

// TestFeasibleText: a share just under 1 does not read as 100%, nor one
// just over 0 as 0% (english.Percent's rule), and a batch without valid
// trajectories has no share.
func TestFeasibleText(t *testing.T) {
	st := common.NewStyles(true, true)
	for share, want := range map[float64]string{0.874: "87% feasible", 0.996: "99.6% feasible", 0.9999: ">99.9% feasible", 1: "100% feasible",
		0.002: "0.2% feasible", 0: "0% feasible", math.NaN(): "– feasible"} {
		if got := ansi.Strip(feasibleText(st, share, "feasible")); got != want {
			t.Errorf("feasibleText(%v) = %q, want %q", share, got, want)
		}
	}
}

// render lays the header and the tab bar out as the root model does: the
// header; when it has no goals, the tab bar with them; when neither, the
// header's compact form.
func render(h Header, c *common.Common, bar string, width int) (head, tabBar string) {
	head, shown := h.View(c, width, false)
	if !shown {
		if bar, shown = WithGoals(c, bar, width); !shown {
			if compact, ok := h.View(c, width, true); ok {
				head = compact
			}
		}
	}
	return ansi.Strip(head), ansi.Strip(bar)
}

// tabBar stands for the root's tab bar, 91 cells wide with 8 tabs, or
// the whole width when narrower.
func tabBar(width int) string { return strings.Repeat("x", min(91, width)) }

// sampleHeader returns the sample session and a header of its first
// batch, with findings (two alerts and a warning).
func sampleHeader(t *testing.T, findings []health.Finding) (*common.Common, Header) {
	s := uitest.SampleSession(t)
	c := &common.Common{Width: 120, Height: 40, Styles: common.NewStyles(true, true), Session: s}
	h := Header{valid: 127, invalid: 1, findings: findings, widest: widestOf(c.Styles, s)}
	return c, h
}

var someFindings = []health.Finding{
	{Check: health.CheckZeroSpread, Level: health.Alert},
	{Check: health.CheckCeiling, Level: health.Alert},
	{Check: health.CheckLengthDrift, Level: health.Warn},
}

// TestHeaderKeepsTheMethod: from 60 columns up, whatever the source, the
// follow tag and the health, the header names the method, and never
// runs past the width.
func TestHeaderKeepsTheMethod(t *testing.T) {
	method := regexp.MustCompile(`step 0  (method: )?pareto( |$)`)
	c, h := sampleHeader(t, someFindings)
	for _, source := range []string{"sample", "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/step_000120_rank_003.jsonl"} {
		for _, live := range []string{"", "paused, F follows"} {
			for _, updating := range []bool{false, true} {
				c.Session.Source, h.Live, h.updating = source, live, updating
				for width := 60; width <= 140; width++ { // wider, the method has room to spare
					head, bar := render(h, c, tabBar(width), width)
					if !method.MatchString(head) || ansi.StringWidth(head) > width || ansi.StringWidth(bar) > width {
						t.Errorf("%d columns, source %q, live %q, updating %v: %q", width, source, live, updating, head)
					}
				}
			}
		}
	}
}

// TestHeaderStillWhileHealthUpdates: the "health updating" badge and the
// one it replaces take the same room: the header before the badge and
// the tab bar are the same with either, at every width.
func TestHeaderStillWhileHealthUpdates(t *testing.T) {
	badges := []string{"◌ health updating…", "✖ 2 checks alert ⚠ 1 warns", "✓ healthy", "◌", "✖2 ⚠1", "✓"}
	withoutBadge := func(head string) string {
		for _, b := range badges {
			if strings.HasSuffix(head, "  "+b) {
				return strings.TrimSuffix(head, b)
			}
		}
		t.Fatalf("no badge ends %q", head)
		return ""
	}
	for _, findings := range [][]health.Finding{nil, someFindings} {
		c, h := sampleHeader(t, findings)
		for width := 60; width <= 200; width++ {
			head, bar := render(h, c, tabBar(width), width)
			h.updating = true
			headUpdating, barUpdating := render(h, c, tabBar(width), width)
			h.updating = false
			if !strings.Contains(headUpdating, "◌") {
				t.Fatalf("%d columns: the updating badge is not shown: %q", width, headUpdating)
			}
			if withoutBadge(head) != withoutBadge(headUpdating) || bar != barUpdating {
				t.Errorf("%d columns, %d findings: the header moves while the health updates:\n%q\n%q\n%q\n%q",
					width, len(findings), head, headUpdating, bar, barUpdating)
			}
		}
	}
}

// TestGoalNamesBeforeSettings: where the tab bar has no room for the
// goals with names of readableNameWidth, the header drops the default
// scope and normalisation and keeps the names (whole, then cut to no
// fewer than five letters) before the counts' words; names cut to
// readableNameWidth may go to the tab bar.
func TestGoalNamesBeforeSettings(t *testing.T) {
	c, h := sampleHeader(t, someFindings)
	head, bar := render(h, c, strings.Repeat("x", 80), 100)
	if !regexp.MustCompile(`  127 valid ! 1 invalid  accur[a-z]*… ↑ safety ↑ length ↓  `).MatchString(head) || strings.Contains(head, "scope") || strings.Contains(bar, "↑") {
		t.Errorf("100 columns beside a tab bar of 80:\n%s\n%s", head, bar)
	}
	head, bar = render(h, c, strings.Repeat("x", 91), 120)
	if !regexp.MustCompile(`  accur[a-z]*… ↑ safety ↑ length ↓$`).MatchString(bar) || !strings.Contains(head, "scope: group") {
		t.Errorf("120 columns beside a tab bar of 91:\n%s\n%s", head, bar)
	}
	if _, ok := WithGoals(c, strings.Repeat("x", 80), 100); ok {
		t.Error("the tab bar took names cut shorter than readableNameWidth")
	}
}

// TestCutNamesTellApart: names cut to a width keep their start, and
// those that would then read alike (a common prefix, as eleven reward
// models' scores have) keep their end too; none is wider than the width,
// a name that fits is not cut, and wide characters are counted by cells.
func TestCutNamesTellApart(t *testing.T) {
	var names []string
	for _, m := range []string{"helpful", "harmless", "honest", "concise", "correct", "creative", "safe", "factual", "fluent", "polite", "relevant"} {
		names = append(names, "reward_model_"+m)
	}
	names = append(names, "len")
	for _, width := range []int{3, 5, 8, 12} {
		got := cutNames(names, width)
		seen := map[string]bool{}
		for k, name := range got {
			if w := ansi.StringWidth(name); w > width && name != names[k] {
				t.Errorf("width %d: %q is %d cells", width, name, w)
			}
			seen[name] = true
			if names[k] == "len" && name != "len" && width >= 3 {
				t.Errorf("width %d: len, which fits, cut to %q", width, name)
			}
		}
		// At 5 cells and more the endings tell the eleven apart; at 3 a
		// letter each way cannot.
		if width >= 5 && len(seen) != len(names) {
			t.Errorf("width %d: %d distinct of %d: %q", width, len(seen), len(names), got)
		}
	}
	if got := cutNames([]string{"accuracy", "length"}, 4); !slices.Equal(got, []string{"acc…", "len…"}) {
		t.Errorf("names apart once cut: %q, want their starts", got)
	}
	// A cut would save one cell alone: the name stays whole.
	if got := cutNames([]string{"accuracy", "safety", "length"}, 5); !slices.Equal(got, []string{"accu…", "safety", "length"}) {
		t.Errorf("names one cell wider than 5 cut: %q, want them whole", got)
	}
	if got := cutNames([]string{"reward_model_helpful", "reward_model_harmless"}, 8); !slices.Equal(got, []string{"re…lpful", "re…mless"}) {
		t.Errorf("a common prefix cut to 8: %q", got)
	}
	if got := cutMiddle("軌跡軌跡軌跡x", 6); ansi.StringWidth(got) > 6 {
		t.Errorf("cutMiddle of wide characters %q is wider than 6", got)
	}
}

// TestGoalNamesKeepFiveLetters: from 80 columns up, with or without a
// constraint and invalid trajectories, a long source or a short one,
// wherever the goals are on the first two lines each name is whole or cut
// to no fewer than five letters ("accur…", never "accu…"), and never by
// one cell ("safe…"), as README promises; from 90 columns up they are
// there, the batch's word, the counts' words and the valid count going
// first; narrower, they are named or shown by their arrows alone
// ("goals ↑↑↓": TestGoalArrowsAt80).
func TestGoalNamesKeepFiveLetters(t *testing.T) {
	goals := regexp.MustCompile(`(?:^|  )(\S+) ↑ (\S+) ↑ (\S+) ↓(?:  |$)`)
	arrows := regexp.MustCompile(`  goals ↑↑↓  `)
	c, h := sampleHeader(t, someFindings)
	for _, source := range []string{"sample", "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/step_000120_rank_003.jsonl"} {
		for _, invalid := range []int{0, 1} {
			for _, constrained := range []bool{false, true} {
				c.Session.Source = source
				h.invalid, h.constrained, h.feasible = invalid, constrained, 0.874
				for _, method := range []engine.Method{engine.Pareto, engine.ParetoCrowding} {
					c.Session.Result.Options.Method = method
					for width := 80; width <= 200; width++ {
						head, bar := render(h, c, tabBar(width), width)
						m := goals.FindStringSubmatch(head)
						if m == nil {
							m = goals.FindStringSubmatch(bar)
						}
						if m == nil && width < 90 && arrows.MatchString(head) {
							continue
						}
						if m == nil {
							if width >= 90 || strings.Contains(head+bar, "↑") {
								t.Errorf("%d columns, source %q, %d invalid, constrained %v: no goals:\n%s\n%s", width, source, invalid, constrained, head, bar)
							}
							continue
						}
						for k, name := range []string{"accuracy", "safety", "length"} {
							got := m[k+1]
							cut := strings.TrimSuffix(got, "…")
							if got != name && (cut == got || len(cut) < 5 || len(name)-len(cut) < 2 || !strings.HasPrefix(name, cut)) {
								t.Errorf("%d columns, %s, source %q, %d invalid, constrained %v: %s shown %q:\n%s\n%s", width, method, source, invalid, constrained, name, got, head, bar)
							}
						}
						if constrained && !strings.Contains(head, "87% feas") {
							t.Errorf("%d columns, source %q, %d invalid: no feasible share: %q", width, source, invalid, head)
						}
					}
				}
			}
		}
	}
}

// TestGoalArrowsAt80: at 80 columns, where neither the header nor the
// root's tab bar (70 cells there) has room for the sample's goals named,
// the header shows their arrows, under every method m cycles to, the
// other fields the same.
func TestGoalArrowsAt80(t *testing.T) {
	c, h := sampleHeader(t, someFindings)
	h.valid, h.invalid = 128, 0 // the sample's first batch
	first := ""
	for _, method := range engine.MethodsFor(c.Session.Options) {
		c.Session.Result.Options.Method = method
		head, _ := render(h, c, strings.Repeat("x", 70), 80)
		if !strings.Contains(head, "  goals ↑↑↓  ") {
			t.Errorf("%s: no goals' arrows at 80 columns: %q", method, head)
		}
		if fields := strings.Replace(head, string(method), "M", 1); first == "" {
			first = fields
		} else if strings.Join(strings.Fields(fields), " ") != strings.Join(strings.Fields(first), " ") {
			t.Errorf("%s: the fields differ from the first method's:\n%q\n%q", method, head, first)
		}
	}
}

// TestHeaderFieldsTwoSpacesApart: at every width the shortened settings
// ("norm:") stand two spaces from the scope, as every field does.
func TestHeaderFieldsTwoSpacesApart(t *testing.T) {
	c, h := sampleHeader(t, someFindings)
	for width := 60; width <= 200; width++ {
		head, _ := render(h, c, tabBar(width), width)
		if regexp.MustCompile(`\S (norm|normalize|scope):`).MatchString(head) {
			t.Errorf("%d columns: a field one space from the one before: %q", width, head)
		}
	}
}

// TestHeaderComputerGoesFirst: the computer is shown only beside the
// source whole, at every width from 60 to 220, under a short and a long
// method name, with and without normalisation (rloo has none), whatever
// the source: the source is never cut to keep it; and at each width it
// is shown under every method or under none. A wider line never shows
// fewer of the fields (header.View's order).
func TestHeaderComputerGoesFirst(t *testing.T) {
	c, h := sampleHeader(t, someFindings)
	fieldsOf := func(head string) int { // what View's steps give up, counted
		n := 0
		for _, f := range []string{"computer:", "method:", "scope:", "normalize:", "norm:", "accuracy ↑", "checks alert", " invalid"} {
			if strings.Contains(head, f) {
				n++
			}
		}
		return n
	}
	for _, source := range []string{"sample", "/work/wt/uismall/sample_data/verl", "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/step_000120_rank_003.jsonl"} {
		c.Session.Source = source
		computerAt := map[int]string{} // width: the first method's header, whether it shows the computer
		for _, method := range []engine.Method{engine.RLOO, engine.Pareto, engine.ParetoCrowding} {
			c.Session.Result.Options.Method = method
			fields := 0
			for width := 60; width <= 220; width++ {
				head, _ := h.View(c, width, false)
				head = ansi.Strip(head)
				if strings.Contains(head, "computer:") && !strings.HasPrefix(head, source+"  ") {
					t.Errorf("%d columns, %s: the source cut beside the computer: %q", width, method, head)
				}
				if first, ok := computerAt[width]; !ok {
					computerAt[width] = head
				} else if strings.Contains(first, "computer:") != strings.Contains(head, "computer:") {
					t.Errorf("%d columns: the computer comes and goes with the method:\n%q\n%q", width, first, head)
				}
				if n := fieldsOf(head); n < fields {
					t.Errorf("%d columns, %s: fewer fields than one column less: %q", width, method, head)
				} else {
					fields = n
				}
			}
		}
	}
}

// TestChangedSettingsStay: a scope and normalisation changed from the
// engine's defaults are named at every width from 70 to 200 (narrower,
// the batch, the longest method name and the badge leave them no room),
// whatever the source and wherever the goals are; with the defaults, once
// the source is cut below its last component no default setting is
// shown.
func TestChangedSettingsStay(t *testing.T) {
	c, h := sampleHeader(t, someFindings)
	defaults := c.Session.Result.Options
	changed := defaults
	changed.Scope, changed.Normalize = engine.ScopeBatch, false
	scope := regexp.MustCompile(`scope:? batch`)
	norm := regexp.MustCompile(`(norm|normalize):? off`)
	for _, source := range []string{"sample", "/work/main/sample_data/verl/", "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/step_000120_rank_003.jsonl"} {
		c.Session.Source = source
		for width := 60; width <= 200; width++ {
			c.Session.Result.Options = changed
			h.widest = widestOf(c.Styles, c.Session)
			head, bar := render(h, c, tabBar(width), width)
			if width >= 70 && (!scope.MatchString(head) || !norm.MatchString(head)) {
				t.Errorf("%d columns, source %q, scope batch and normalisation off: %q\n%s", width, source, head, bar)
			}
			c.Session.Result.Options = defaults
			h.widest = widestOf(c.Styles, c.Session)
			head, _ = render(h, c, tabBar(width), width)
			shown, _, _ := strings.Cut(head, "  ")
			if !strings.HasSuffix(source, strings.TrimPrefix(shown, "…")) {
				t.Fatalf("%d columns: the header does not start with the source: %q", width, head)
			}
			if cutMidName := strings.HasPrefix(shown, "…") && !strings.HasPrefix(shown, "…/"); cutMidName && strings.Contains(head, "scope") {
				t.Errorf("%d columns, source %q: cut mid-name beside a default setting: %q", width, source, head)
			}
		}
	}
	c.Session.Source = "sample"
	c.Session.Result.Options = changed
	h.widest = widestOf(c.Styles, c.Session)
	if head, _ := render(h, c, strings.Repeat("x", 91), 100); !strings.Contains(head, "scope batch · norm off") {
		t.Errorf("100 columns: the changed settings are not in one field: %q", head)
	}
}

// TestFieldsStillUnderM: at every width from 60 to 200, with the default
// settings and changed ones, the methods m cycles through show the same
// fields (the batch's word, the method's label, the scope, the goals, the
// badge's words), only the method's name (and whether it has a
// normalisation) differs: the layout keeps the room of the longest name
// and of the most settings changed.
func TestFieldsStillUnderM(t *testing.T) {
	c, h := sampleHeader(t, someFindings)
	fieldsOf := func(head, bar string) string {
		var shown []string
		for _, f := range []string{"batch 1/40", "method:", "scope", "checks alert", " invalid"} {
			if strings.Contains(head, f) {
				shown = append(shown, f)
			}
		}
		if strings.Contains(head, "↑") {
			shown = append(shown, "goals in the header")
		}
		if strings.Contains(bar, "↑") {
			shown = append(shown, "goals in the tab bar")
		}
		return strings.Join(shown, ", ")
	}
	headsUnderM(c, h, func(options engine.Options, source string, width int, heads, bars []string) {
		first := fieldsOf(heads[0], bars[0])
		for k, method := range engine.MethodsFor(c.Session.Options)[1:] {
			if fields := fieldsOf(heads[k+1], bars[k+1]); fields != first {
				t.Errorf("%d columns, scope %s, source %q: under %s the header shows %q, under the first method %q:\n%s\n%s", width, options.Scope, source, method, fields, first, heads[k+1], bars[k+1])
			}
		}
	})
}

// headsUnderM calls check, for the sample's options and those with scope
// batch and normalisation off, a short source and a long one, and every
// width from 60 to 200 columns, with the header and tab bar drawn under
// each method m cycles to (engine.MethodsFor's order).
func headsUnderM(c *common.Common, h Header, check func(options engine.Options, source string, width int, heads, bars []string)) {
	changed := c.Session.Result.Options
	changed.Scope, changed.Normalize = engine.ScopeBatch, false
	for _, options := range []engine.Options{c.Session.Result.Options, changed} {
		c.Session.Result.Options = options
		h.widest = widestOf(c.Styles, c.Session)
		for _, source := range []string{"sample", "/data/runs/2025-06-01-grpo-qwen-7b-math/rollouts/step_000120_rank_003.jsonl"} {
			c.Session.Source = source
			for width := 60; width <= 200; width++ {
				var heads, bars []string
				for _, method := range engine.MethodsFor(c.Session.Options) {
					c.Session.Result.Options.Method = method
					head, bar := render(h, c, tabBar(width), width)
					heads, bars = append(heads, head), append(bars, bar)
				}
				c.Session.Result.Options.Method = options.Method
				check(options, source, width, heads, bars)
			}
		}
	}
}

// TestShortenPath: the source is cut at a separator, as many whole
// trailing components as fit; from its start when not even the last
// fits.
func TestShortenPath(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"sample", 10, "sample"},
		{"/work/main/sample_data/verl/", 28, "/work/main/sample_data/verl/"},
		{"/work/main/sample_data/verl/", 27, "…/main/sample_data/verl/"},
		{"/work/main/sample_data/verl/", 18, "…/verl/"},
		{"/work/main/sample_data/verl/", 7, "…/verl/"},
		{"/work/main/sample_data/verl/", 6, "…verl/"},
		{"/tmp/walk4-keep/halfbad.jsonl", 20, "…/halfbad.jsonl"},
		{"../sample_data/trl/completions", 17, "…/trl/completions"},
		{"../sample_data/trl/completions", 16, "…/completions"},
		{"abcdefghij", 5, "…ghij"},
	} {
		if got := shortenPath(tc.s, tc.width); got != tc.want || ansi.StringWidth(got) > tc.width {
			t.Errorf("shortenPath(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
	for s, want := range map[string]string{"sample": "sample", "/work/main/sample_data/verl/": "…/verl/", "/a/b": "…/b", "/abc": "/abc", "x/halfbad.jsonl": "x/halfbad.jsonl"} {
		if got := cutAtSeparator(s, 0); got != want {
			t.Errorf("cutAtSeparator(%q, 0) = %q, want %q", s, got, want)
		}
	}
}

// TestWidestMeasuredWhenItsInputsChange: Refresh measures the widths of
// the method and the settings at their widest (widestOf) only when what
// they are measured from changed: another batch shown keeps them; a
// method that m cycles to more (lexicographic, once the options give its
// priorities) and a new result (a recompute under scope batch) measure
// them again, as widestOf measures them afresh.
func TestWidestMeasuredWhenItsInputsChange(t *testing.T) {
	c, h := sampleHeader(t, nil)
	s := c.Session
	h.Refresh(c.Styles, s)
	kept := widths{method: -1} // no measure gives it
	h.widest = kept
	s.SetBatch(1)
	h.Refresh(c.Styles, s)
	if h.widest != kept {
		t.Errorf("another batch shown measured the widths again: %+v", h.widest)
	}
	s.Options.Priority = []string{s.Result.Objectives[0].Name}
	h.Refresh(c.Styles, s)
	if want := widestOf(c.Styles, s); h.widest != want {
		t.Errorf("with lexicographic's priorities, widths %+v, want %+v", h.widest, want)
	}
	h.widest = kept
	s.Options.Scope = engine.ScopeBatch
	s.Recompute()
	h.Refresh(c.Styles, s)
	if want := widestOf(c.Styles, s); h.widest != want {
		t.Errorf("a new result under scope batch: widths %+v, want %+v", h.widest, want)
	}
}

// BenchmarkRefresh measures the header's Refresh on another batch shown
// (a session change that keeps the result), on the sample; remeasured,
// the reference, measures the widths at their widest each time, as it
// once did.
func BenchmarkRefresh(b *testing.B) {
	s := uitest.SampleSession(b)
	st := common.NewStyles(true, true)
	for _, remeasure := range []bool{false, true} {
		b.Run(map[bool]string{false: "cached", true: "remeasured"}[remeasure], func(b *testing.B) {
			var h Header
			b.ReportAllocs()
			for b.Loop() {
				s.SetBatch(1 - s.Batch)
				if remeasure {
					h.widestFor = widestKey{}
				}
				h.Refresh(st, s)
			}
		})
	}
}

// TestFieldsStayUnderM: at every width from 60 to 200, with the default
// settings and changed ones, the fields after the method (the scope,
// the counts, the badge) start in the same column under every method m
// cycles through, with or without a normalisation, while the source is
// shown whole: the room kept for the longest method and the widest
// settings is right after them.
func TestFieldsStayUnderM(t *testing.T) {
	c, h := sampleHeader(t, someFindings)
	// columns are where the scope, the counts and the badge start, -1
	// for a field not shown.
	columns := func(head string) [3]int {
		var at [3]int
		for k, f := range []string{"scope", " valid", "  "} {
			i := strings.Index(head, f)
			if f == "  " {
				i = strings.LastIndex(head, f)
			}
			at[k] = -1
			if i >= 0 {
				at[k] = ansi.StringWidth(head[:i])
			}
		}
		return at
	}
	headsUnderM(c, h, func(options engine.Options, source string, width int, heads, _ []string) {
		if slices.ContainsFunc(heads, func(head string) bool { return !strings.HasPrefix(head, source+"  ") }) {
			return // the source cut takes the room kept
		}
		for _, head := range heads[1:] {
			if columns(head) != columns(heads[0]) {
				t.Errorf("%d columns, scope %s, source %q: the fields move under m:\n%s\n%s", width, options.Scope, source, heads[0], head)
				break
			}
		}
	})
}
