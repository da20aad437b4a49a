package ui

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	sampledata "github.com/rewardlens/rewardlens/sample_data"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// typeText sends text to m rune by rune, a space as "space".
func typeText(m *Model, text string) {
	for _, r := range text {
		if r == ' ' {
			press(m, "space")
		} else {
			press(m, string(r))
		}
	}
}

// sameResult fails t unless a and b show the same validity, violations,
// ranks, scores and rewards on every batch.
func sameResult(t *testing.T, what string, a, b *Model) {
	t.Helper()
	ra, rb := a.Session().Result, b.Session().Result
	ra.Finish()
	rb.Finish()
	eq := func(x, y []float64) bool {
		return slices.EqualFunc(x, y, func(p, q float64) bool { return p == q || (math.IsNaN(p) && math.IsNaN(q)) })
	}
	ea, eb := ra.Evaluation, rb.Evaluation
	if !slices.Equal(ea.Valid, eb.Valid) || !slices.Equal(ea.Causes, eb.Causes) || !eq(ea.Violation, eb.Violation) ||
		!slices.Equal(ea.GateShut, eb.GateShut) || !slices.Equal(ra.Ranking.Ranks, rb.Ranking.Ranks) ||
		!eq(ra.Scores, rb.Scores) || !eq(ra.Rewards, rb.Rewards) {
		t.Fatalf("%s: the result differs from the one computed with the flags from the start", what)
	}
}

// TestEditorConstraintsAndGates: a constraint, a gate and lambda typed in
// the weights editor give the result that --constraint, --gate and
// --penalty give from the start, under the scalar and the ranking methods;
// removing them gives the result without; ctrl+s's config carries them.
func TestEditorConstraintsAndGates(t *testing.T) {
	m := constrainedModel(t, 120, 40, nil, nil)
	press(m, "w", "c")
	typeText(m, "safety >= 0.9")
	press(m, "enter", "a")
	typeText(m, "length: accuracy > 0")
	press(m, "enter", "p")
	typeText(m, "2.5")
	press(m, "enter")
	want := constrainedModel(t, 120, 40, []string{"safety >= 0.9"}, []string{"length: accuracy > 0"})
	want.Session().Options.Penalty = 2.5
	for _, method := range []engine.Method{engine.Pareto, engine.GRPO} {
		setMethod(t, m, method)
		want.Session().Options.Method = method
		want.Session().Recompute()
		if m.Session().Result.Options.Penalty != 2.5 {
			t.Fatalf("p 2.5 gave penalty %v", m.Session().Result.Options.Penalty)
		}
		sameResult(t, "edited "+string(method), m, want)
	}
	v := screen(m)
	for _, text := range []string{"[safety >= 0.9]", "length: accuracy > 0", "λ (p) 2.5", "feasible"} {
		if !strings.Contains(v, text) {
			t.Errorf("the screen lacks %q:\n%s", text, v)
		}
	}
	cfg := m.Session().SettingsConfig()
	if !slices.Equal(cfg.Constraints, []string{"safety >= 0.9"}) || !slices.Equal(cfg.Gates, []string{"length: accuracy > 0"}) || cfg.Penalty == nil || *cfg.Penalty != 2.5 {
		t.Errorf("the saved config has %q %q %v", cfg.Constraints, cfg.Gates, cfg.Penalty)
	}
	// Edit the constraint (selected first), then remove both.
	press(m, "enter", "backspace", "backspace", "backspace")
	typeText(m, "0.5")
	press(m, "enter")
	if got := m.Session().Config.Constraints; !slices.Equal(got, []string{"safety >= 0.5"}) {
		t.Fatalf("enter on the constraint then 0.5 gave %q", got)
	}
	press(m, "x", "x")
	none := constrainedModel(t, 120, 40, nil, nil)
	none.Session().Options.Penalty, none.Session().Options.Method = 2.5, engine.GRPO
	none.Session().Recompute()
	sameResult(t, "removed", m, none)
	if s := m.Session(); len(s.Config.Constraints)+len(s.Config.Gates) != 0 || s.Evaluation.HasConstraints() {
		t.Errorf("x x left %q %q", s.Config.Constraints, s.Config.Gates)
	}
}

// TestEditorRefusesWithTheCLIErrors: a constraint that is not a boolean,
// a gate of no objective and a bad lambda are refused with the CLI's
// errors, shown in the editor, the text kept for fixing; nothing changes,
// and typed keys (q) do not act.
func TestEditorRefusesWithTheCLIErrors(t *testing.T) {
	for _, tc := range []struct {
		key, text, want string
	}{
		{"c", "safety + 1", `constraint "safety + 1" is not a boolean`},
		{"a", "safty: accuracy > 0", "did you mean safety?"},
		{"p", "-1", `penalty "-1": must be a finite number >= 0`},
		{"c", "quality >= (", "line 1, column 12: unexpected token EOF"},
	} {
		m := newTestModel(t, 200, 40)
		before := m.Session().Result
		press(m, "w", tc.key)
		typeText(m, tc.text)
		press(m, "enter")
		if v := screen(m); !strings.Contains(v, tc.want) {
			t.Errorf("%s %q: the editor lacks %q:\n%s", tc.key, tc.text, tc.want, v)
		}
		if !m.weights.structure.Typing() || !strings.HasSuffix(m.weights.structure.Input(), tc.text) {
			t.Errorf("%s %q: the text was not kept for fixing", tc.key, tc.text)
		}
		if m.Session().Result != before || m.Session().Evaluation.HasConstraints() {
			t.Errorf("%s %q: a refused change changed the result", tc.key, tc.text)
		}
		press(m, "esc")
		if m.weights.structure.Typing() || strings.Contains(screen(m), tc.want) {
			t.Errorf("%s %q: esc left the input or the error", tc.key, tc.text)
		}
	}
}

// TestEditorRereadsLeanTrajectories: on trajectories loaded lean from a
// file, a constraint over a field that is no objective (max_steps) reads
// them again, says so while it does, and gives the result of the flag
// from the start; over objectives and step_count only, it reads nothing.
// A file changed since it was loaded is refused with the reason.
func TestEditorRereadsLeanTrajectories(t *testing.T) {
	data, err := sampledata.FS.ReadFile(sampledata.ExperimentPath)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(constraints []string) *Model {
		cfg, _ := sampletest.Read(t)
		cfg.Constraints = constraints
		res, err := loaders.Load([]string{path}, loaders.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := session.Open("run", cfg, res, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Trajectories.At(0).Lean {
			t.Fatal("the trajectories were not kept lean")
		}
		m := NewModel(s, true)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
		m.Settle()
		return m
	}
	m := open(nil)
	press(m, "w", "c")
	typeText(m, "step_count < max_steps - 4")
	m.Update(keyMsg("enter"))
	job := m.weights.structure.Job()
	if job == nil || job.Rereads != m.Session().Trajectories.Len() {
		t.Fatalf("the job does not read all %d trajectories again", m.Session().Trajectories.Len())
	}
	if v := screen(m); !strings.Contains(v, "reading 5120 trajectories again") {
		t.Errorf("the editor does not say it reads them again:\n%s", v)
	}
	// At 80 columns the saying shortens, leaving the selected constraint
	// room for all but its end.
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if line := structureLineOf(m); !strings.Contains(line, "[step_count < max_steps -…]") || !strings.Contains(line, "λ (p) 1  rereading…") {
		t.Errorf("at 80 columns, reading again, the structure line is:\n%s", line)
	}
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	settle(m)
	sameResult(t, "reread", m, open([]string{"step_count < max_steps - 4"}))
	lean := open(nil)
	press(lean, "w", "c")
	typeText(lean, "safety > 0.5 && step_count > 2")
	lean.Update(keyMsg("enter"))
	if job := lean.weights.structure.Job(); job == nil || job.Rereads != 0 {
		t.Fatal("a constraint over objectives and step_count reads the trajectories again")
	}
	settle(lean)
	sameResult(t, "lean", lean, open([]string{"safety > 0.5 && step_count > 2"}))

	// The file changes: the next reread is refused, the result kept.
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"id":"s00-p00-c0"`, `"id":"changed-00"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	before := m.Session().Result
	press(m, "c")
	typeText(m, "initial_budget > 0")
	press(m, "enter")
	if v := screen(m); !strings.Contains(v, "changed since it was loaded") {
		t.Errorf("a changed file is not refused with the reason:\n%s", v)
	}
	if m.Session().Result != before || len(m.Session().Config.Constraints) != 1 {
		t.Error("a refused reread changed the result")
	}
}

// keyMsg is the key press k, for an Update without settling.
func keyMsg(k string) tea.Msg { return uitest.KeyPress(k) }

// TestGoldenStructureEditor keeps the weights editor with a constraint and
// a gate (the gate selected), and with a refused constraint's error, at
// every golden size.
func TestGoldenStructureEditor(t *testing.T) {
	for _, v := range []struct {
		name string
		keys []string
		text string
	}{
		{"list", []string{"w", "right"}, ""},
		{"error", []string{"w", "c"}, "safety + 1"},
	} {
		for _, size := range goldenSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, size[0], size[1]), func(t *testing.T) {
				m := constrainedModel(t, size[0], size[1], []string{"safety >= 0.9"}, []string{"length: accuracy > 0"})
				press(m, v.keys...)
				if v.text != "" {
					typeText(m, v.text)
					press(m, "enter")
				}
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}

// TestEditorEveryTrajectoryInfeasible: a constraint that no trajectory
// meets is applied, with the warning that the ranks go by violation
// alone in the status line, as the CLI warns.
func TestEditorEveryTrajectoryInfeasible(t *testing.T) {
	m := newTestModel(t, 200, 40)
	press(m, "w", "c")
	typeText(m, "safety > 2")
	press(m, "enter")
	if !m.Session().Result.Evaluation.HasConstraints() {
		t.Fatal("the constraint was not applied")
	}
	if v := screen(m); !strings.Contains(v, "breaks a constraint (safety > 2): pareto ranks go by violation alone") {
		t.Errorf("no warning that every trajectory is infeasible:\n%s", v)
	}
}

// TestEditorRefusesWhileFollowing: following a run, the editor refuses
// to change the constraints, rather than evaluate new batches with other
// constraints than the old ones: c and a say why at once, opening no
// text input, and neither the footer, the structure line nor ? offers
// them; p (the penalty) still is.
func TestEditorRefusesWhileFollowing(t *testing.T) {
	for _, k := range []string{"c", "a"} {
		m, _ := newLiveModel(t)
		press(m, "w")
		v := screen(m)
		footer := v[strings.LastIndex(v, "\n")+1:]
		if strings.Contains(footer, "c/a") || strings.Contains(v, "constraints (c)") || strings.Contains(v, "gates (a)") ||
			!strings.Contains(footer, "p λ") {
			t.Errorf("following, the editor offers c/a, or not p:\n%s", v)
		}
		press(m, k)
		if m.weights.structure.Typing() {
			t.Errorf("%s opened the text input while following", k)
		}
		if v := screen(m); !strings.Contains(v, "cannot change while following a run") || m.Session().Evaluation.HasConstraints() {
			t.Errorf("%s: no reason given at once while following:\n%s", k, v)
		}
		press(m, "?")
		help := strings.Join(strings.Fields(screen(m)), " ")
		if strings.Contains(help, "add a constraint") || strings.Contains(help, "add a gate") {
			t.Errorf("following, ? offers c/a:\n%s", screen(m))
		}
	}
}

// TestEditorRefusesNoValidTrajectory: a constraint on a field no record
// has would leave no trajectory valid, where the CLI exits: it is refused
// with the cause, the result kept.
func TestEditorRefusesNoValidTrajectory(t *testing.T) {
	m := newTestModel(t, 200, 40)
	before := m.Session().Result
	press(m, "w", "c")
	typeText(m, "nosuchfield > 1")
	press(m, "enter")
	if v := screen(m); !strings.Contains(v, "refused: ") || !strings.Contains(v, "nosuchfield") {
		t.Errorf("no refusal naming the cause:\n%s", v)
	}
	if m.Session().Result != before || m.Session().Evaluation.HasConstraints() || len(m.Session().Config.Constraints) != 0 {
		t.Error("a change leaving no valid trajectory was applied")
	}
	if !m.weights.structure.Typing() || m.weights.structure.Input() != "nosuchfield > 1" {
		t.Error("the refused constraint's text is not back in the input")
	}
}

// TestEditorJobBesideTheEventLoop runs a structure job (reading the
// trajectories again) on its own goroutine while keys move through the
// tabs and batches, as a program runs it: under -race, a data race between
// them fails the test.
func TestEditorJobBesideTheEventLoop(t *testing.T) {
	data, err := sampledata.FS.ReadFile(sampledata.ExperimentPath)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _ := sampletest.Read(t)
	res, err := loaders.Load([]string{path}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open("run", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Settle()
	press(m, "w", "c")
	typeText(m, "step_count < max_steps - 4")
	_, cmd := m.Update(uitest.KeyPress("enter"))
	if cmd == nil {
		t.Fatal("enter started no job")
	}
	done := make(chan tea.Msg)
	go func() { done <- m.weights.structure.Next()() }()
	for _, k := range []string{"2", "]", "5", "enter", "esc", "3", "6", "]", "1"} {
		m.Update(uitest.KeyPress(k))
		m.View()
	}
	m.Update(<-done)
	m.Settle()
	if !m.Session().Result.Evaluation.HasConstraints() {
		t.Fatal("the job's constraint was not applied")
	}
}

// TestEditorConstraintTypo: a constraint or gate reading a field no record
// has is refused with the CLI's error, which names the field meant.
func TestEditorConstraintTypo(t *testing.T) {
	for _, tc := range []struct{ key, text, want string }{
		{"c", "safty >= 0.8", "constraint safty >= 0.8: missing in 5117 trajectories; the first record of each input has no field safty; did you mean safety?"},
		{"a", "accuracy: safty >= 0.8", "gate accuracy: safty >= 0.8: evaluation error in 5117 trajectories (the first: invalid operation: <nil> >= float64); the first record of each input has no field safty; did you mean safety?"},
	} {
		m := newTestModel(t, 400, 40)
		press(m, "w", tc.key)
		typeText(m, tc.text)
		press(m, "enter")
		if v := screen(m); !strings.Contains(v, "refused: all 5120 trajectories are invalid: "+tc.want) {
			t.Errorf("%s %q: the refusal does not say %q:\n%s", tc.key, tc.text, tc.want, v)
		}
	}
}

// TestEditorRefusalShownWhole: a refused constraint's message, longer
// than two lines, is shown whole, wrapped, at 80 and 120 cells (it was cut
// after two lines, before the objectives' causes); at 60x16, cut to 4
// lines (a quarter of the rows) ending with an ellipsis.
func TestEditorRefusalShownWhole(t *testing.T) {
	const end = "also objective accuracy = metadata.accuracy: absent or null in 3 trajectories"
	for _, size := range [][2]int{{80, 24}, {120, 40}, {60, 16}} {
		m := newTestModel(t, size[0], size[1])
		press(m, "w", "c")
		typeText(m, "bogus >= 1")
		press(m, "enter")
		lines := strings.Split(screen(m), "\n")
		var refusal []string
		for k, l := range lines {
			if strings.HasPrefix(l, "refused: ") {
				for _, r := range lines[k:] {
					if strings.HasPrefix(r, "Rewards: ") {
						break
					}
					refusal = append(refusal, strings.TrimRight(r, " "))
				}
			}
		}
		text := strings.Join(refusal, " ")
		switch {
		case size[0] == 60 && (len(refusal) != 4 || !strings.HasSuffix(text, "…")):
			t.Errorf("at %dx%d the refusal is not 4 lines ending with …:\n%s", size[0], size[1], strings.Join(refusal, "\n"))
		case size[0] > 60 && !strings.HasSuffix(text, end):
			t.Errorf("at %dx%d the refusal is not shown whole:\n%s", size[0], size[1], strings.Join(lines, "\n"))
		}
	}
}

// TestEditorSelectsWhatIsAddedAfterRemovingAll: the last constraint
// removed, the next one added is selected, as the first was: the line's
// "enter edit" works and the help lists enter, as they agree (with
// nothing selected neither offers it).
func TestEditorSelectsWhatIsAddedAfterRemovingAll(t *testing.T) {
	m := newTestModel(t, 200, 60)
	press(m, "w", "c")
	typeText(m, "safety >= 0.9")
	press(m, "enter", "x", "c")
	typeText(m, "safety >= 0.8")
	press(m, "enter")
	v := screen(m)
	if !strings.Contains(v, "[safety >= 0.8]") || !strings.Contains(v, "enter edit") {
		t.Fatalf("the constraint added after removing the last is not selected, or enter not offered:\n%s", v)
	}
	press(m, "?")
	if v := screen(m); !strings.Contains(v, "edit the constraint or gate") {
		t.Errorf("the line offers enter but the help does not list it:\n%s", v)
	}
	press(m, "?", "enter")
	if v := screen(m); !strings.Contains(v, "constraint> safety >= 0.8") {
		t.Errorf("enter does not edit the constraint the line offers it for:\n%s", v)
	}
}

// TestEditorPaste: a constraint pasted into the structure line's text
// input is typed, not handed to the tab under it.
func TestEditorPaste(t *testing.T) {
	m := constrainedModel(t, 120, 40, nil, nil)
	press(m, "w", "c")
	m.Update(tea.PasteMsg{Content: "safety >= 0.9"})
	settle(m)
	press(m, "enter")
	if got := m.Session().Config.Constraints; !slices.Equal(got, []string{"safety >= 0.9"}) {
		t.Errorf("pasted safety >= 0.9: constraints %q", got)
	}
}

// TestPenaltyInputShowsItsValue: p opens lambda's input with its value,
// kept when nothing is typed, as the placeholder, whole (2.5, not 2).
func TestPenaltyInputShowsItsValue(t *testing.T) {
	m := constrainedModel(t, 120, 40, []string{"safety >= 0.9"}, nil)
	m.Session().Options.Penalty = 2.5
	press(m, "w", "p")
	if v := screen(m); !strings.Contains(v, "> 2.5") {
		t.Errorf("the penalty's input does not show 2.5:\n%s", v)
	}
}

// walkConstraints are the researcher's constraints and gate on the sample:
// at 80 columns they do not fit on the structure line together.
var (
	walkConstraints = []string{"safety >= 0.8", "length <= 0.8", "safety + accuracy >= 0.9 || length == 1"}
	walkGates       = []string{"length: accuracy == 1"}
)

// bracketed finds the selected item on the structure line.
var bracketed = regexp.MustCompile(`\[([^\]]*)\]`)

// structureLineOf is the screen's structure line, "" when none.
func structureLineOf(m *Model) string {
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.HasPrefix(l, "constraints") {
			return l
		}
	}
	return ""
}

// TestStructureLineShowsTheSelected: at every size, whichever constraint
// or gate ←/→ selects is shown in brackets, with the labels of c, a and p
// and the keys' hint (or where the help lists them); x removes the one
// shown.
func TestStructureLineShowsTheSelected(t *testing.T) {
	items := append(slices.Clone(walkConstraints), walkGates...)
	for _, size := range [][2]int{{80, 24}, {100, 30}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := constrainedModel(t, size[0], size[1], walkConstraints, walkGates)
			press(m, "w")
			for k := range 2 * len(items) {
				selected := items[k%len(items)]
				line := structureLineOf(m)
				for _, text := range []string{"constraints (c)", "gates (a)", "λ (p) 1"} {
					if !strings.Contains(line, text) {
						t.Errorf("with %q selected the line lacks %q:\n%s", selected, text, line)
					}
				}
				// Whole, or cut when wider than the line leaves it.
				shown := bracketed.FindStringSubmatch(line)
				if shown == nil || shown[1] != selected && !(strings.HasSuffix(shown[1], "…") && strings.HasPrefix(selected, strings.TrimSuffix(shown[1], "…"))) {
					t.Errorf("with %q selected the line shows %q:\n%s", selected, shown, line)
				}
				if !strings.Contains(line, "←/→ select · enter edit · x remove") && !strings.HasSuffix(strings.TrimRight(line, " "), "? for keys") {
					t.Errorf("the line lacks the keys' hint:\n%s", line)
				}
				press(m, "right")
			}
			press(m, "right", "right", "right") // the gate
			shown := structureLineOf(m)
			press(m, "x")
			settle(m)
			if cfg := m.Session().Config; len(cfg.Gates) != 0 || !slices.Equal(cfg.Constraints, walkConstraints) {
				t.Errorf("x with the line\n%s\nleft constraints %q and gates %q", shown, cfg.Constraints, cfg.Gates)
			}
		})
	}
}

// TestStructureLineCutsALongSelected: a constraint wider than the line is
// cut in its brackets, lambda and the others' counts still shown.
func TestStructureLineCutsALongSelected(t *testing.T) {
	long := "safety + accuracy + length >= 0.9 || length == 1 && accuracy >= 0.5 && safety > 0.25"
	m := constrainedModel(t, 80, 24, []string{"safety >= 0.8", long}, walkGates)
	press(m, "w", "right")
	line := structureLineOf(m)
	for _, text := range []string{"constraints (c) ←1 [safety + accuracy", "…]  gates (a) 1→  λ (p) 1  ? for keys"} {
		if !strings.Contains(line, text) {
			t.Errorf("the line lacks %q:\n%s", text, line)
		}
	}
}

// TestGoldenStructureLineScrolled keeps the researcher's walk, w → → →
// (the gate selected), at 80x24, 100x30 and 140x45.
func TestGoldenStructureLineScrolled(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {100, 30}, {140, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := constrainedModel(t, size[0], size[1], walkConstraints, walkGates)
			press(m, "w", "right", "right", "right")
			golden.RequireEqual(t, screen(m))
		})
	}
}
