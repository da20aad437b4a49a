package prompts

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	analysis "github.com/rewardlens/rewardlens/prompts"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// passes are the task metrics (a) of each prompt's two completions at
// steps 0, 1 and 2: hand-built histories of four statuses.
var passes = map[string][3][2]int{
	"never":     {{0, 0}, {0, 0}, {0, 0}},
	"always":    {{1, 1}, {1, 1}, {1, 1}},
	"learned":   {{0, 0}, {1, 0}, {1, 1}}, // solved first at step 1
	"forgotten": {{1, 1}, {0, 1}, {0, 0}}, // solved at 0 and 1
}

// handBuilt returns the session of passes, in the order written there by
// step, and the tab on it.
func handBuilt(t *testing.T) (*promptsTab, *session.Session) {
	t.Helper()
	var b strings.Builder
	for step := range 3 {
		for _, p := range []string{"never", "always", "learned", "forgotten"} {
			for c, a := range passes[p][step] {
				fmt.Fprintf(&b, `{"id":"%s-%d-%d","group":"%s","batch":%d,"metadata":{"a":%d,"b":%d}}`+"\n", p, step, c, p, step, a, c)
			}
		}
	}
	s := uitest.TextSession(t, b.String())
	return settledTab(s), s
}

// settledTab is the tab on s with its analysis made, as it is once its
// command has run.
func settledTab(s *session.Session) *promptsTab {
	tab := uitest.TabOn(s, New).(*promptsTab)
	tab.Settle()
	return tab
}

func (t *promptsTab) listed() []string {
	var keys []string
	for _, r := range t.rows {
		keys = append(keys, t.analysis.Prompts[r].Key)
	}
	return keys
}

func TestPromptsStatusesAndSort(t *testing.T) {
	tab, _ := handBuilt(t)
	if got, want := tab.listed(), []string{"never", "always", "learned", "forgotten"}; !slices.Equal(got, want) {
		t.Errorf("by status: %v, want %v", got, want)
	}
	view := uitest.Plain(tab)
	if !strings.Contains(view, "4 prompts never 1 always 1 learned 1 forgotten 1") {
		t.Errorf("no count per status:\n%s", view)
	}
	uitest.PressKeys(tab, "s") // first solved: never solved last
	if got, want := tab.listed(), []string{"always", "forgotten", "learned", "never"}; !slices.Equal(got, want) {
		t.Errorf("by first solved: %v, want %v", got, want)
	}
	uitest.PressKeys(tab, "s") // mean pass rate: 0, 3/6, 3/6, 1
	if got, want := tab.listed(), []string{"never", "forgotten", "learned", "always"}; !slices.Equal(got, want) {
		t.Errorf("by mean: %v, want %v", got, want)
	}
	uitest.PressKeys(tab, "s", "r")
	if got, want := tab.listed(), []string{"never", "learned", "forgotten", "always"}; !slices.Equal(got, want) {
		t.Errorf("by name, descending: %v, want %v", got, want)
	}
	if row := tab.row(slices.Index(tab.listed(), "learned")); !strings.Contains(ansi.Strip(row), "learned           1  0.50 ·▒█") {
		t.Errorf("learned's row %q: want status, first solved 1, mean 0.50 and cells 0, 1/2, 1", ansi.Strip(row))
	}
}

func TestPromptsFilter(t *testing.T) {
	tab, _ := handBuilt(t)
	uitest.PressKeys(tab, "/", "l", "e", "a", "r", "enter")
	if got := tab.listed(); !slices.Equal(got, []string{"learned"}) {
		t.Errorf("filter 'lear' lists %v, want [learned]", got)
	}
	if v := uitest.Plain(tab); !strings.HasPrefix(v, "1 of 4 prompts never 1 always 1 learned 1 forgotten 1") {
		t.Errorf("the filtered tab does not say how many it lists:\n%s", v)
	}
	if tab.CapturesKeys() {
		t.Error("the tab still captures keys after enter")
	}
	uitest.PressKeys(tab, "/", "esc")
	if got := tab.listed(); len(got) != 4 {
		t.Errorf("esc left %v listed, want all 4", got)
	}
	uitest.PressKeys(tab, "/", "n", "e", "v", "e", "r", "enter")
	if got := tab.listed(); !slices.Equal(got, []string{"never"}) {
		t.Errorf("filter by status 'never' lists %v", got)
	}
}

// TestPromptsFilterMatchesPartOfTheStatus: the filter matches the start
// of the status (and a part of the prompt), in any case: on the sample,
// "forg" and "FORG" list the prompts "forgotten" lists, whose names
// hold neither.
func TestPromptsFilterMatchesPartOfTheStatus(t *testing.T) {
	tab, _ := uitest.SampleTab(t, New)
	p := tab.(*promptsTab)
	p.Settle()
	filtered := func(text string) []string {
		uitest.PressKeys(tab, "/", "esc", "/")
		for _, r := range text {
			uitest.PressKeys(tab, string(r))
		}
		uitest.PressKeys(tab, "enter")
		return p.listed()
	}
	forgotten := filtered("forgotten")
	if len(forgotten) == 0 {
		t.Fatal("the sample has no forgotten prompt")
	}
	for _, text := range []string{"forg", "FORG"} {
		if got := filtered(text); !slices.Equal(got, forgotten) {
			t.Errorf("filter %q lists %v, want the forgotten %v", text, got, forgotten)
		}
	}
	// The start, not a part: "solved" leaves out the unsolved prompts.
	for _, tc := range []struct {
		status analysis.Status
		want   bool
	}{{analysis.Solved, true}, {analysis.Unsolved, false}} {
		if got := matches(&analysis.Prompt{Key: "p1", Status: tc.status}, "solved"); got != tc.want {
			t.Errorf("filter solved lists a %s prompt: %v, want %v", tc.status, got, tc.want)
		}
	}
}

func TestPromptsEnterOpensTheGroupAtTheChosenStep(t *testing.T) {
	tab, s := handBuilt(t)
	uitest.PressKeys(tab, "down", "down", "left") // learned, step 1
	cmds := uitest.PressKeys(tab, "enter")
	if len(cmds) != 1 {
		t.Fatalf("enter gave %d commands, want 1", len(cmds))
	}
	msg, ok := cmds[0]().(common.ShowGroupMsg)
	if !ok {
		t.Fatalf("enter sent %T, want common.ShowGroupMsg", cmds[0]())
	}
	b := &s.Result.Ranking.Batches[msg.Batch]
	if tr := s.Trajectories.At(msg.Trajectory); b.Step != 1 || tr.Group != "learned" || !slices.Contains(b.Members, msg.Trajectory) {
		t.Errorf("enter opens trajectory %s of step %d, want one of learned at step 1", tr.ID, b.Step)
	}
}

func TestGoldenPrompts(t *testing.T) {
	for _, size := range [][2]int{{60, 16}, {100, 30}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := uitest.SampleSession(t)
			tab := settledTab(s)
			tab.SetSize(size[0], size[1])
			golden.RequireEqual(t, uitest.Plain(tab))
		})
	}
}

// TestPromptsSayWhyThereAreNone: a prompt expression that a record cannot
// answer leaves the tab with its PATH:LINE error, and the session works on.
func TestPromptsSayWhyThereAreNone(t *testing.T) {
	res, err := loaders.Read(strings.NewReader(`{"group":"g","metadata":{"a":1,"b":0}}`+"\n"+`{"group":"g","metadata":{"a":0,"b":1}}`+"\n"), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := setup.Config{Method: "grpo", PromptBy: "metadata.question", Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "metadata.b"}}}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Prompts != nil || s.PromptsErr == nil {
		t.Fatalf("prompts %v, error %v: want none, and why", s.Prompts, s.PromptsErr)
	}
	if v := uitest.Plain(settledTab(s)); !strings.Contains(v, "run.jsonl:1: prompt_by") {
		t.Errorf("the tab does not say why there are no prompts:\n%s", v)
	}
}

// TestPromptsChartSpansTheSteps: the chart's x axis is the run's steps:
// of one step, that step alone is labelled (a 0..13 axis named steps that
// do not exist); of the sample's, no label lies a tick or more beyond the
// first or the last step, at every size.
func TestPromptsChartSpansTheSteps(t *testing.T) {
	labels := func(tab *promptsTab) []int {
		lines := strings.Split(strings.TrimRight(uitest.Plain(tab), "\n "), "\n")
		var steps []int
		for _, f := range strings.Fields(lines[len(lines)-1]) {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("the x axis' last line holds %q:\n%s", f, uitest.Plain(tab))
			}
			steps = append(steps, n)
		}
		return steps
	}
	for _, size := range [][2]int{{60, 16}, {100, 30}, {160, 48}} {
		one := settledTab(stepsSession(t, 1))
		one.SetSize(size[0], size[1])
		if got := labels(one); !slices.Equal(got, []int{0}) {
			t.Errorf("one step at %dx%d: the x axis reads %v, want [0]", size[0], size[1], got)
		}
		run := settledTab(uitest.SampleSession(t))
		run.SetSize(size[0], size[1])
		got := labels(run)
		first, last := int(run.steps[0]), int(run.steps[len(run.steps)-1])
		if len(got) < 2 || got[0] <= first-(got[1]-got[0]) || got[len(got)-1] >= last+(got[1]-got[0]) {
			t.Errorf("steps %d..%d at %dx%d: the x axis reads %v", first, last, size[0], size[1], got)
		}
	}
}

// TestPromptsPageKeys: pgdn and pgup move the cursor by the rows the
// heatmap shows, end and home to the last prompt and the first, each
// showing its prompt's last step, as the Groups tab's table does.
func TestPromptsPageKeys(t *testing.T) {
	tab := settledTab(uitest.SampleSession(t))
	tab.SetSize(100, 12)
	page := tab.heatRows()
	if len(tab.rows) < 2*page {
		t.Fatalf("%d prompts on pages of %d: too few to page", len(tab.rows), page)
	}
	for _, step := range []struct {
		key  string
		want int
	}{{"pgdown", page}, {"pgdown", 2 * page}, {"pgup", page}, {"end", len(tab.rows) - 1}, {"pgdown", len(tab.rows) - 1}, {"home", 0}, {"pgup", 0}} {
		tab.Update(uitest.KeyPress(step.key))
		if tab.cursor != step.want {
			t.Fatalf("%s: the cursor on row %d, want %d", step.key, tab.cursor, step.want)
		}
		if p := tab.selected(); tab.point != len(p.History)-1 {
			t.Errorf("%s: step %d of the prompt's %d chosen, want its last", step.key, tab.point, len(p.History))
		}
		if v := uitest.Plain(tab); !strings.Contains(v, tab.label(tab.selected())) {
			t.Errorf("%s: the selected prompt is not on screen:\n%s", step.key, v)
		}
	}
}

// TestPromptsStepLabelsSitOverTheirCells: at every width, the heatmap's
// title is "steps", apart from "mean" as the other titles are, and its steps are labelled on a
// line of their own, next to no other column's title: the first step's
// label starts over the heatmap's first cell and the last step's ends over
// its last cell, whether the heatmap has fewer cells than the width leaves
// (10 steps, 3 steps) or as many (the sample's 40 at narrow widths); two
// steps, whose labels do not fit apart over two cells, read "first–last".
func TestPromptsStepLabelsSitOverTheirCells(t *testing.T) {
	steps := func(n int) func(t *testing.T) *session.Session {
		return func(t *testing.T) *session.Session {
			var b strings.Builder
			for step := range n {
				for c := range 2 {
					fmt.Fprintf(&b, `{"id":"p-%d-%d","group":"p","batch":%d,"metadata":{"a":%d,"b":1}}`+"\n", step, c, step*100, c)
				}
			}
			return uitest.TextSession(t, b.String())
		}
	}
	runs := map[string]func(t *testing.T) *session.Session{
		"sample":   func(t *testing.T) *session.Session { return uitest.SampleSession(t) },
		"10 steps": steps(10),
		"3 steps":  func(t *testing.T) *session.Session { _, s := handBuilt(t); return s },
		"2 steps":  steps(2),
		"1 step":   steps(1),
	}
	for name, open := range runs {
		s := open(t)
		tab := settledTab(s)
		for width := 60; width <= 222; width += 9 { // from the dashboard's narrowest
			tab.SetSize(width, 30)
			lines := strings.Split(uitest.Plain(tab), "\n")
			title, labels, row := []rune(lines[1]), []rune(strings.TrimRight(lines[2], " ")), []rune(strings.TrimRight(lines[3], " "))
			at := tab.nameWidth() + statusWidth + solvedWidth + meanWidth + 4
			cells := min(tab.heatWidth(), len(tab.steps))
			first, last := fmt.Sprint(tab.steps[0]), fmt.Sprint(tab.steps[len(tab.steps)-1])
			if len(row) > at+cells {
				t.Fatalf("%s at %d: the row is wider than %d cells: %q", name, width, cells, string(row))
			}
			if got := strings.TrimRight(string(title[at-1:]), " "); strings.TrimSpace(got) != "steps" || !strings.HasPrefix(got, "  ") {
				t.Errorf("%s at %d: over the heatmap %q, want \"steps\" two spaces from \"mean\" at least\n%s", name, width, got, lines[1])
			}
			if strings.TrimSpace(string(labels[:at])) != "" {
				t.Errorf("%s at %d: the steps' line holds more than the steps\n%s", name, width, lines[2])
			}
			want := first + strings.Repeat(" ", max(cells-len(first)-len(last), 0)) + last
			switch {
			case len(tab.steps) == 1:
				want = first
			case cells < len(first)+1+len(last):
				want = first + "–" + last
			}
			if got := string(labels[at:]); got != want {
				t.Errorf("%s at %d: the steps read %q over %d cells, want %q\n%s\n%s", name, width, got, cells, want, lines[2], lines[3])
			}
		}
	}
}

// TestPromptsNamesGrowIntoTheHeatmapsSpareWidth: with 10 steps at 200
// cells the heatmap takes 10 cells, and prompts of 45 characters are shown
// whole in the width it leaves (the column stayed at 30); at 80 cells
// they are cut to fit.
func TestPromptsNamesGrowIntoTheHeatmapsSpareWidth(t *testing.T) {
	var b strings.Builder
	for step := range 10 {
		for p := range 3 {
			fmt.Fprintf(&b, `{"id":"p%d-%d","group":"question %d about the problem of the day here %d","batch":%d,"metadata":{"a":%d,"b":1}}`+"\n", p, step, p, p, step, p%2)
		}
	}
	tab := settledTab(uitest.TextSession(t, b.String()))
	tab.SetSize(200, 30)
	v := uitest.Plain(tab)
	if !strings.Contains(v, "question 1 about the problem of the day here 1 ") {
		t.Errorf("at 200 cells the prompts are cut beside a heatmap of 10 cells:\n%s", v)
	}
	tab.SetSize(80, 30)
	for _, l := range strings.Split(uitest.Plain(tab), "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("at 80 cells a line of %d: %q", ansi.StringWidth(l), l)
		}
	}
}

// TestPromptsColumnMeasuresEscapedPrompts: a prompt's line breaks are
// drawn as common.LineBreak, three cells each; with room for it, the
// prompt column is as wide as the prompt so drawn, which shows whole, not
// cut with "…".
func TestPromptsColumnMeasuresEscapedPrompts(t *testing.T) {
	prompts := []string{"alpha: the system turn\nthe user turn\nthe answer\nend alpha", "beta: the system turn\nthe user turn\nthe answer\nend beta"}
	var b strings.Builder
	for step := range 3 {
		for k, p := range prompts {
			fmt.Fprintf(&b, `{"id":"%d-%d","group":%q,"batch":%d,"metadata":{"a":%d,"b":0}}`+"\n", k, step, p, step, step%2)
		}
	}
	tab := settledTab(uitest.TextSession(t, b.String()))
	tab.SetSize(160, 12)
	v := uitest.Plain(tab)
	for _, p := range prompts {
		want := strings.ReplaceAll(p, "\n", common.LineBreak)
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want) + ` +forgotten `).MatchString(v) {
			t.Errorf("prompt %q not listed whole as %q:\n%s", p, want, v)
		}
	}
}

// TestGoldenPromptsByName: chat-template prompts "Question N" sorted by
// name, in the order of their numbers (as the Groups tab sorts), without
// the template's shared end, at 80x24 and 160x40.
func TestGoldenPromptsByName(t *testing.T) {
	var b strings.Builder
	for step := range 3 {
		for _, q := range []int{0, 100, 10, 2, 1, 11, 20} {
			prompt := fmt.Sprintf("<|im_start|>user\nQuestion %d<|im_end|>\n<|im_start|>assistant\n", q)
			fmt.Fprintf(&b, `{"id":"%d-%d","group":%q,"batch":%d,"metadata":{"a":%d,"b":0}}`+"\n", step, q, prompt, step, (q+step)%2)
		}
	}
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tab := settledTab(uitest.TextSession(t, b.String()))
			tab.SetSize(size[0], size[1])
			tab.list.SortColumn = byName
			tab.rebuild()
			v := uitest.Plain(tab)
			// Their shared start ("<|im_start|>user\nQuestion ") left out too.
			if got := regexp.MustCompile(`(?m)^…\d+…`).FindAllString(v, 7); !slices.Equal(got, []string{
				"…0…", "…1…", "…2…", "…10…", "…11…", "…20…", "…100…"}) {
				t.Errorf("by name, the prompts are listed %q", got)
			}
			if strings.Contains(v, "assistant") {
				t.Errorf("the template's shared end is shown:\n%s", v)
			}
			golden.RequireEqual(t, v)
		})
	}
}

// TestPromptsChartLabelsBothEnds: the pass-rate chart labels 0 and 1, the
// ends of a pass rate, at 80x24 (three rows) and 160x40.
func TestPromptsChartLabelsBothEnds(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {80, 16}, {160, 40}} {
		tab := settledTab(uitest.SampleSession(t))
		tab.SetSize(size[0], size[1])
		v := uitest.Plain(tab)
		for _, end := range []string{"0", "1"} {
			if !regexp.MustCompile(`(?m)^` + end + `(\.0+)?┤`).MatchString(v) {
				t.Errorf("at %dx%d the chart does not label %s:\n%s", size[0], size[1], end, v)
			}
		}
	}
}

// TestPromptsSaysWhichAreLeftOut: a prompt whose completions never have
// the task metric has no pass rate to list; the status line says it is
// left out, as the prompts command warns, rather than drop it silently.
func TestPromptsSaysWhichAreLeftOut(t *testing.T) {
	var b strings.Builder
	for step := range 2 {
		for c := range 2 {
			fmt.Fprintf(&b, `{"id":"s-%d-%d","group":"scored","batch":%d,"metadata":{"a":%d,"b":%d}}`+"\n", step, c, step, c, c)
			fmt.Fprintf(&b, `{"id":"n-%d-%d","group":"unscored","batch":%d,"metadata":{"a":null,"b":%d}}`+"\n", step, c, step, c)
		}
	}
	tab := settledTab(uitest.TextSession(t, b.String()))
	if got := tab.listed(); !slices.Equal(got, []string{"scored"}) || tab.analysis.WithoutMetric != 1 {
		t.Fatalf("listed %v, %d without the metric; want [scored], 1", got, tab.analysis.WithoutMetric)
	}
	if view := uitest.Plain(tab); !strings.Contains(view, "1 prompt (1 left out: no a at any step)") {
		t.Errorf("the status line does not say a prompt is left out:\n%s", view)
	}
}
