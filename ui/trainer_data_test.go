package ui

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// The trainers' fixtures, as the CLI opens them: sampletest's configs are
// those its layouts give them (cmd's TestLayoutConfigs).
var (
	verlFixture = filepath.Join("..", "sample_data", "verl")
	trlFixture  = filepath.Join("..", "sample_data", "trl", "completions")
)

// streamedInput returns the dashboard's input on the files at paths with
// cfg, read as the CLI reads them: streamed, with cfg's record fields, the
// trajectories kept lean where they can be read again.
func streamedInput(t *testing.T, cfg setup.Config, layout string, paths ...string) Input {
	t.Helper()
	fields, err := scoring.NewRecordFields(cfg.GroupBy, cfg.BatchBy, cfg.IDBy)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Source: strings.Join(paths, ", "), Config: cfg, Layout: layout,
		Stream: func(hooks StreamHooks) (*loaders.Result, error) {
			opts := loaders.Options{Fields: fields, Progress: hooks.Progress, Pick: hooks.Pick}
			return loaders.Stream(paths, opts, hooks.Each)
		}}
}

// checkScreen fails t unless the screen, its lines' trailing blanks
// trimmed, holds every want and none of unwanted; it returns whether it
// did, for a test that cannot go on otherwise.
func checkScreen(t *testing.T, what, view string, want, unwanted []string) bool {
	t.Helper()
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	view = strings.Join(lines, "\n")
	ok := true
	for _, w := range want {
		if !strings.Contains(view, w) {
			t.Errorf("%s does not show %q:\n%s", what, w, view)
			ok = false
		}
	}
	for _, u := range unwanted {
		if strings.Contains(view, u) {
			t.Errorf("%s shows %q:\n%s", what, u, view)
			ok = false
		}
	}
	return ok
}

// TestVerlDashboard opens verl's rollout dumps as the CLI does: with
// grpo and verl's settings in the status line, one row per prompt in the
// Groups tab telling them apart (not the chat template they all start
// with), each completion's text (verl's output) in the group and in the
// detail, the whole prompt there, and no trajectory taken for changed
// when read again. A method switch takes the settings it does not use
// off the status line.
func TestVerlDashboard(t *testing.T) {
	app := loadModel(t, streamedInput(t, sampletest.VerlConfig(), sampletest.VerlLayout, verlFixture), 120)
	checkLean(t, app.Session())
	view := screen(app)
	checkScreen(t, "the dashboard", view, []string{"method: grpo"}, nil)
	// The sample's step 3 has groups of unequal size, whose warning takes
	// half of a 120-column status line: the settings show on a wider one.
	if line := app.status.View(app.common.Styles, 400); !strings.Contains(line, "; grpo: epsilon 1e-06, a group of one: score") {
		t.Errorf("the status line does not give verl's settings: %q", line)
	}

	press(app, "2")
	view = screen(app)
	golden.RequireEqual(t, view)
	checkScreen(t, "the Groups tab", view, []string{
		"\n…7 * 8?…", "\n…12 + 30?…", "\n…81 / 9?…",
	}, []string{"system\\nYou are"})

	press(app, "enter")
	view = screen(app)
	t.Run("group", func(t *testing.T) { golden.RequireEqual(t, view) })
	checkScreen(t, "the group", view, []string{
		"prompt  system\n", "What is 7 * 8? Let's think step by step", "Let me work it out, attempt 1. ↵ Answer: 56",
	}, []string{"cannot read it again", "changed since"})

	press(app, "enter")
	view = screen(app)
	t.Run("completion", func(t *testing.T) { golden.RequireEqual(t, view) })
	checkScreen(t, "the completion", view, []string{"prompt\nsystem\nYou are a helpful assistant.\nuser\nWhat is 7 * 8?", "response\nLet me work it out, attempt 1.\nAnswer: 56"},
		[]string{"(no response)", "changed since", "output  "})

	press(app, "esc", "esc", "4")
	checkScreen(t, "the Pareto tab", screen(app), []string{"group      …", "ranks within group …"}, []string{"system\\nYou are"})

	press(app, "m", "m") // grpo, rloo, then pareto
	checkScreen(t, "the dashboard on pareto", screen(app), []string{"method: pareto"}, []string{"epsilon"})
}

// TestTRLDashboard opens TRL's completions as the CLI does: grpo, the
// prompts told apart, and each completion's text (TRL's completion) in
// the group and in the detail.
func TestTRLDashboard(t *testing.T) {
	app := loadModel(t, streamedInput(t, sampletest.TRLConfig(), sampletest.TRLLayout, trlFixture), 120)
	press(app, "2")
	view := screen(app)
	golden.RequireEqual(t, view)
	checkScreen(t, "the Groups tab", view, []string{"method: grpo", "\n…Factor x^2 - 1.…", "\n…Solve x + 3 = 5.…"}, nil)

	press(app, "enter")
	view = screen(app)
	t.Run("group", func(t *testing.T) { golden.RequireEqual(t, view) })
	checkScreen(t, "the group", view, []string{"prompt  <|im_start|>user\n", "<think>Attempt 1.</think>", "grpo                     logged"}, nil)

	press(app, "enter")
	view = screen(app)
	t.Run("completion", func(t *testing.T) { golden.RequireEqual(t, view) })
	checkScreen(t, "the completion", view, []string{"prompt\n<|im_start|>user\nFactor x^2 - 1.", "response\n<think>Attempt 1.</think> The answer follows."},
		[]string{"(no response)", "completion  "})
}

// TestBatchByWithoutIDRereads: plain records batched by an expression
// (over a batch field of their own), without an id, are named
// BATCH:POSITION; their group and detail read them again without taking
// them for changed.
func TestBatchByWithoutIDRereads(t *testing.T) {
	var b strings.Builder
	for i := range 8 {
		b.WriteString(`{"batch":7,"group":"g` + string(rune('0'+i%2)) + `","response":"answer ` + string(rune('0'+i)) + `","metadata":{"step":` + string(rune('1'+i/4)) + `,"acc":` + string(rune('0'+i%3)) + `}}` + "\n")
	}
	path := writeLeanFile(t, b.String())
	cfg := setup.Config{BatchBy: "metadata.step", Objectives: []setup.ObjectiveConfig{{Name: "acc", Expr: "metadata.acc"}}}
	app := loadModel(t, streamedInput(t, cfg, "", path), 120)
	checkLean(t, app.Session())
	press(app, "2", "enter")
	checkScreen(t, "the group", screen(app), []string{"1:0", "answer 0"}, []string{"cannot read it again", "changed since"})
	press(app, "enter")
	checkScreen(t, "the completion", screen(app), []string{"response\nanswer"}, []string{"changed since"})
}

// TestGroupLongSharedPrompt: a prompt too long for the group's view,
// whose start every prompt of the batch shares (a long system prompt),
// shows what tells it apart; the completion's view shows it whole.
func TestGroupLongSharedPrompt(t *testing.T) {
	system := "system\n" + strings.Repeat("Follow the rules of the house, line after line.\n", 20) + "user\n"
	var ts []scoring.Trajectory
	for i := range 4 {
		question := []string{"What is 7 * 8?", "What is 12 + 30?"}[i%2]
		ts = append(ts, scoring.Trajectory{ID: string(rune('a' + i)), Group: system + question + "\nassistant\n", Done: true,
			Response: []byte(`"answer"`), Metadata: map[string]any{"x": float64(i)}})
	}
	s, err := session.Open("long", setup.Config{}, &loaders.Result{Trajectories: ts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, "2", "enter")
	checkScreen(t, "the group", screen(m), []string{"prompt  …7 * 8?…\n"}, []string{"Follow the rules"})
	press(m, "enter")
	checkScreen(t, "the completion", screen(m), []string{"group       system\\nFollow the rules"}, nil)
}

// TestGroupsByOtherThanPrompt: grouped by a field that is not the prompt
// (verl's uid), the Groups tab and the group's view still show each
// group's prompt (the layout's prompt field, read again from a lean
// member), not the key; the completion's escape sequence is shown as
// text.
func TestGroupsByOtherThanPrompt(t *testing.T) {
	var b strings.Builder
	for i := range 8 {
		q := []string{"What is 7 * 8?", "What is 12 + 30?"}[i%2]
		fmt.Fprintf(&b, `{"input":"system\nYou are a helpful assistant.\nuser\n%s\nassistant\n","output":"attempt %d \u001b[31mred","score":%d,"step":1,"uid":"uid-%d"}`+"\n", q, i, i%3, i%2)
	}
	path := writeLeanFile(t, b.String())
	cfg := sampletest.VerlConfig()
	cfg.GroupBy = "uid"
	app := loadModel(t, streamedInput(t, cfg, "", path), 120)
	checkLean(t, app.Session())
	press(app, "2")
	checkScreen(t, "the Groups tab", screen(app), []string{"\n…7 * 8?", "\n…12 + 30?"}, []string{"uid-"})
	press(app, "enter")
	checkScreen(t, "the group", screen(app), []string{"prompt  system\n        You are a helpful assistant.", "What is 7 * 8?", `attempt 0 \x1b[31mred`}, []string{"uid-"})
	press(app, "enter")
	checkScreen(t, "the completion", screen(app), []string{"response\nattempt ", `\x1b[31mred`}, nil)
	if strings.Contains(app.View().Content, "\x1b[31m") {
		t.Error("the completion's escape sequence reaches the terminal")
	}
}

// TestVerlDashboardProgram drives the dashboard on verl's dumps as a
// program, from its loading screen: it opens with grpo, the Groups tab
// tells the prompts apart, and a group shows its completions' text.
func TestVerlDashboardProgram(t *testing.T) {
	tm := teatest.NewTestModel(t, newLoadingModel(streamedInput(t, sampletest.VerlConfig(), sampletest.VerlLayout, verlFixture), true),
		teatest.WithInitialTermSize(120, 40))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(10*time.Second))
	}
	waitFor("method: grpo")
	tm.Send(uitest.KeyPress("2"))
	waitFor("…81 / 9?…")
	tm.Send(uitest.KeyPress("enter"))
	waitFor("attempt 1. ↵ Answer: 56")
	tm.Send(uitest.KeyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// TestVerlGroupsOfOneHaveSignal: verl's grpo gives a group of one
// trajectory s / (1 + eps) (--group-of-one score, the verl layout's), a
// signal: on the sample's step 3, whose two groups of one are rewarded
// -1 and +1, the Groups tab counts no group without signal and marks
// neither "none"; under pareto, or the default (a group of one rewarded
// 0), both are.
func TestVerlGroupsOfOneHaveSignal(t *testing.T) {
	app := loadModel(t, streamedInput(t, sampletest.VerlConfig(), sampletest.VerlLayout, verlFixture), 120)
	press(app, "]", "]", "2")
	checkScreen(t, "step 3's groups under verl's settings", screen(app), []string{"step 3"}, []string{"zero spread"})
	// The table's "none", which the status line's warning does not say.
	checkScreen(t, "step 3's groups' table under verl's settings", bodyOf(screen(app)), nil, []string{" none "})
	press(app, "m", "m") // rloo, which rewards them too, then pareto, which does not
	checkScreen(t, "step 3's groups under pareto", screen(app), []string{"2 without GRPO signal (zero spread)", " none "}, nil)
	cfg := sampletest.VerlConfig()
	cfg.GroupOfOne = string(engine.GroupOfOneZero)
	app = loadModel(t, streamedInput(t, cfg, sampletest.VerlLayout, verlFixture), 120)
	press(app, "]", "]", "2")
	checkScreen(t, "step 3's groups with a group of one rewarded 0", screen(app), []string{"2 without GRPO signal (zero spread)", " none "}, nil)
}

// TestCutWarningsShowWhole: TRL's scale_rewards="batch" run read with
// the layout's defaults (scale group) warns that the rewards differ from
// the logged advantage, and which flags reproduce it: at 120 columns the
// status line cuts it before the flags and says ? shows it all, and ?
// gives it whole.
func TestCutWarningsShowWhole(t *testing.T) {
	dir := filepath.Join("..", "cmd", "testdata", "trl", "scale_batch", "completions")
	cfg, sentence, _, err := layouts.Apply(context.Background(), setup.Config{}, []string{dir}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	app := loadModel(t, streamedInput(t, cfg, sentence, dir), 120)
	lines := strings.Split(screen(app), "\n")
	status := strings.TrimRight(lines[len(lines)-2], " ")
	if !strings.Contains(status, "⚠ 16 of 16 rows differ") || !strings.HasSuffix(status, "(? shows all)") || strings.Contains(status, "--scale batch") {
		t.Fatalf("the status line %q: want the warning cut, saying ? shows it all", status)
	}
	press(app, "?")
	view := strings.Join(strings.Fields(strings.ReplaceAll(screen(app), "│", " ")), " ") // the overlay wraps it, in its box
	if !strings.Contains(view, "Warnings") || !strings.Contains(view, "`--scale batch` reproduces it") {
		t.Errorf("? does not give the warning whole:\n%s", screen(app))
	}
	// How the inputs were read, which the line cut to half its width, too.
	if !strings.Contains(view, "Inputs "+strings.Join(strings.Fields(sentence), " ")) {
		t.Errorf("? does not give how the inputs were read (%q) whole:\n%s", sentence, screen(app))
	}
}

// TestVerlV1PromptEnd: verl's V1 dumps (grouped by uid) show each prompt
// on Groups and Prompts without the template's end they all share,
// "\nassistant\n", a whole line though shorter than other shared ends
// must be to be left out.
func TestVerlV1PromptEnd(t *testing.T) {
	dir := filepath.Join("..", "cmd", "testdata", "verl", "v1_uid", "dump")
	cfg, sentence, _, err := layouts.Apply(context.Background(), setup.Config{}, []string{dir}, loaders.Options{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	app := loadModel(t, streamedInput(t, cfg, sentence, dir), 120)
	press(app, "2")
	checkScreen(t, "the Groups tab", screen(app), []string{"\n…Name a prime.…", "…What is 6 * 7?…"}, []string{"assistant ↵"})
	press(app, "8")
	checkScreen(t, "the Prompts tab", screen(app), []string{"\n…Name a prime.…", "\n…What is 2 ** 10?…"}, []string{"assistant ↵"})
}
