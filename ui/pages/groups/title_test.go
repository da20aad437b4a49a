package groups

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/layouts/layoutstest"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestGroupViewTitlesOpenInstructSlot: open-instruct groups a step's rows
// by prompt_idx, the prompt's slot in the step's batch (sample_idx //
// num_samples_per_prompt), and its traces hold no prompt text: the group
// view titles the key it shows prompt_idx, not prompt, and says what it
// is after it (on a line of its own, cut, where the line is too narrow).
func TestGroupViewTitlesOpenInstructSlot(t *testing.T) {
	run := layoutstest.OpenInstruct(t)
	read, err := loaders.Load([]string{run.Path}, loaders.Options{Fields: run.Fields})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(run.Path, run.Config, read, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := uitest.TabOn(s, New)
	tab.SetSize(140, 10)
	uitest.PressKeys(tab, "down", "enter") // slot 1 of step 1
	const note = "(a slot of the step's batch (sample_idx // num_samples_per_prompt), not a prompt: each step draws new prompts)"
	wide := uitest.Plain(tab)
	if first, _, _ := strings.Cut(wide, "\n"); strings.TrimRight(first, " ") != "prompt_idx  1  "+note {
		t.Errorf("the group's title %q, want %q", first, "prompt_idx  1  "+note)
	}
	tab.SetSize(80, 10)
	narrow := uitest.Plain(tab)
	if lines := strings.Split(narrow, "\n"); strings.TrimRight(lines[0], " ") != "prompt_idx  1" || !strings.HasPrefix(lines[1], "            a slot of the step's batch") {
		t.Errorf("at 80 columns, the title %q and the note %q", lines[0], lines[1])
	}
	golden.RequireEqual(t, []byte(wide+"\n"+narrow))
}

// TestGroupTitle: the group view's title is the prompt where it shows
// one, else the field the records are grouped by, else group.
func TestGroupTitle(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  setup.Config
		want string
	}{
		{"plain records, their group", setup.Config{}, "prompt"},
		{"verl, its input read again", setup.Config{GroupBy: `split(uid, "_")[0]`, PromptField: "input"}, "prompt"},
		{"TRL, its prompt", setup.Config{GroupBy: "prompt", PromptField: "prompt"}, "prompt"},
		{"open-instruct, its slot", setup.Config{GroupBy: "prompt_idx"}, "prompt_idx"},
		{"--group-by an expression", setup.Config{GroupBy: `"p" + string(metadata.k)`}, "group"},
		{"--group-by a long field name", setup.Config{GroupBy: strings.Repeat("k", maxGroupTitle+1)}, "group"},
	} {
		if got := groupTitle(tc.cfg); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestGroupViewOfTheAbsentGroup: the trajectories without a group are one
// group, whose key "" the view says rather than shows as nothing.
func TestGroupViewOfTheAbsentGroup(t *testing.T) {
	s := uitest.TextSession(t, `{"id":"t0","batch":0,"metadata":{"a":1,"b":0}}
{"id":"t1","batch":0,"metadata":{"a":0,"b":1}}
`)
	tab := uitest.TabOn(s, New)
	tab.SetSize(100, 6)
	uitest.PressKeys(tab, "enter")
	view := uitest.Plain(tab)
	const want = "group  " + absentGroupText
	if first, _, _ := strings.Cut(view, "\n"); strings.TrimRight(first, " ") != want {
		t.Errorf("the group's title %q, want %q", first, want)
	}
	golden.RequireEqual(t, []byte(view))
}

// TestGroupViewOfTheEmptyValue: records grouped by --group-by whose value
// is empty (an empty prompt) are the group of the empty value, not the
// trajectories without a group.
func TestGroupViewOfTheEmptyValue(t *testing.T) {
	s := uitest.TextSessionWith(t, `{"id":"t0","batch":0,"prompt":"","metadata":{"a":1,"b":0}}
{"id":"t1","batch":0,"prompt":"","metadata":{"a":0,"b":1}}
`, setup.Config{GroupBy: "prompt", PromptField: "prompt"})
	tab := uitest.TabOn(s, New)
	tab.SetSize(100, 6)
	uitest.PressKeys(tab, "enter")
	first, _, _ := strings.Cut(uitest.Plain(tab), "\n")
	if want := "prompt  " + emptyValueText; strings.TrimRight(first, " ") != want {
		t.Errorf("the group's title %q, want %q", first, want)
	}
}
