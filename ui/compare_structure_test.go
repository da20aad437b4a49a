package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// structureStep is a change typed in the weights editor (open) and the
// constraints, gates and lambda it leaves.
type structureStep struct {
	what               string
	keys               []string
	text               string
	constraints, gates []string
	penalty            float64
}

// structureSteps add, edit and remove a constraint and a gate, lambda 5
// first so that the constraint's violation weighs.
var structureSteps = []structureStep{
	{"lambda 5", []string{"p"}, "5", nil, nil, 5},
	{"constraint added", []string{"c"}, "safety >= 0.95", []string{"safety >= 0.95"}, nil, 5},
	{"constraint edited", []string{"enter", "backspace", "backspace"}, "9", []string{"safety >= 0.9"}, nil, 5},
	{"gate added", []string{"a"}, "length: accuracy > 0", []string{"safety >= 0.9"}, []string{"length: accuracy > 0"}, 5},
	{"gate edited", []string{"right", "enter", "backspace"}, "0.5", []string{"safety >= 0.9"}, []string{"length: accuracy > 0.5"}, 5},
	{"constraint removed", []string{"left", "x"}, "", nil, []string{"length: accuracy > 0.5"}, 5},
	{"gate removed", []string{"x"}, "", nil, nil, 5},
}

// grpoUnder returns the sample computed by the engine with method grpo,
// lambda penalty, and the constraints and gates given as --constraint and
// --gate give them, from a session opened with them.
func grpoUnder(t *testing.T, opts engine.Options, constraints, gates []string, penalty float64) *engine.Result {
	t.Helper()
	cfg, res := sampletest.Read(t)
	cfg.Constraints, cfg.Gates = constraints, gates
	s, err := session.Open("sample", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts.Method, opts.Penalty = engine.GRPO, penalty
	want := s.Evaluation.Compute(opts)
	want.Finish()
	return want
}

// TestCompareBUnderTheStructure: method B's result (grpo, beside pareto)
// is computed under the constraints, gates and lambda the weights editor
// adds, edits and removes, as A's is, on each tab that shows B: its
// rewards are the engine's under the same settings, on every batch, and
// so are B's column of the Groups tab (Session.RewardB), the Trajectories
// tab's column as drawn and the Compare tab's Spearman.
func TestCompareBUnderTheStructure(t *testing.T) {
	for _, tab := range []string{"Compare", "Trajectories", "Groups"} {
		t.Run(tab, func(t *testing.T) { checkBUnderTheStructure(t, tab) })
	}
}

// checkBUnderTheStructure takes the structure steps with the tab titled
// tab shown, and checks B's result after each.
func checkBUnderTheStructure(t *testing.T, tab string) {
	m := newTestModel(t, 120, 40)
	selectTabTitled(t, m, tab)
	press(m, "w")
	s := m.Session()
	if s.Options.Method != engine.Pareto || s.CompareMethod != engine.GRPO {
		t.Fatalf("the sample compares %s with %s, want pareto with grpo", s.Options.Method, s.CompareMethod)
	}
	for _, step := range structureSteps {
		press(m, step.keys...)
		typeText(m, step.text)
		if step.text != "" {
			press(m, "enter")
		}
		what := step.what
		if !slices.Equal(s.Config.Constraints, step.constraints) || !slices.Equal(s.Config.Gates, step.gates) || s.Result.Options.Penalty != step.penalty {
			t.Fatalf("%s: the session has constraints %q, gates %q, lambda %v", what, s.Config.Constraints, s.Config.Gates, s.Result.Options.Penalty)
		}
		want := grpoUnder(t, s.Result.Options, step.constraints, step.gates, step.penalty)
		b := s.CompareResult()
		if b == nil {
			t.Fatalf("%s: method B's result was not computed", what)
		}
		b.Finish()
		if !slices.EqualFunc(b.Rewards, want.Rewards, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }) {
			t.Fatalf("%s: B's rewards are not the engine's under the same settings", what)
		}
		for _, i := range s.CurrentBatch().Members {
			if r, ok := s.RewardB(i); !ok || r != want.ShownReward(i) {
				t.Fatalf("%s: B's reward of trajectory %d is %v (%v), want %v", what, i, r, ok, want.ShownReward(i))
			}
		}
		switch v := screen(m); tab {
		case "Compare":
			spearman := "Spearman ρ    " + common.FormatValue(agreement.CompareRewards(s.Result, want, s.Batch).Spearman)
			if !strings.Contains(v, spearman) {
				t.Fatalf("%s: the tab lacks %q:\n%s", what, spearman, v)
			}
		case "Trajectories":
			checkColumnB(t, what, s, want, v)
		}
	}
}

// checkColumnB fails t unless each row the Trajectories tab's screen v
// lists shows, in B's column (grpo, right-aligned under its title),
// want's reward of that trajectory to the digits shown.
func checkColumnB(t *testing.T, what string, s *session.Session, want *engine.Result, v string) {
	t.Helper()
	lines := strings.Split(v, "\n")
	head := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "id ") })
	at := -1
	if head >= 0 {
		at = strings.Index(lines[head], " grpo ")
	}
	if at < 0 {
		t.Fatalf("%s: no column grpo:\n%s", what, v)
	}
	end := utf8.RuneCountInString(lines[head][:at+len(" grpo")])
	index := map[string]int{}
	for _, i := range s.CurrentBatch().Members {
		index[s.Trajectories.At(i).ID] = i
	}
	rows := 0
	for _, line := range lines[head+1:] {
		i, ok := index[strings.Fields(line + " ")[0]]
		if !ok {
			continue
		}
		cells := strings.Fields(string([]rune(line)[:end]))
		cell := cells[len(cells)-1]
		got, err := strconv.ParseFloat(cell, 64)
		digits := 0
		if dot := strings.IndexByte(cell, '.'); dot >= 0 {
			digits = len(cell) - dot - 1
		}
		if r := want.ShownReward(i); err != nil || math.Abs(got-r) > 0.5*math.Pow(10, -float64(digits))+1e-12 {
			t.Fatalf("%s: the row of %s shows %s under grpo, want %v:\n%s", what, s.Trajectories.At(i).ID, cell, r, v)
		}
		rows++
	}
	if rows == 0 {
		t.Fatalf("%s: no row listed:\n%s", what, v)
	}
}

// TestCompareBUnderTheGroupFilter: f, the group filter's toggle, changes
// the evaluation and not the options: method B's result (pareto, beside
// grpo) follows it, on each tab that shows B, with the filter off and on
// again.
func TestCompareBUnderTheGroupFilter(t *testing.T) {
	for _, tab := range []string{"Compare", "Trajectories", "Groups"} {
		m := filterModel(t)
		selectTabTitled(t, m, tab)
		s := m.Session()
		if s.CompareMethod != engine.Pareto {
			t.Fatalf("B is %s, want pareto", s.CompareMethod)
		}
		for _, on := range []bool{false, true} {
			press(m, "f")
			if s.Filter.On != on {
				t.Fatalf("%s: f left the filter on %v", tab, s.Filter.On)
			}
			opts := s.Result.Options
			opts.Method = engine.Pareto
			want := s.Evaluation.Compute(opts)
			want.Finish()
			b := s.CompareResult()
			if b == nil {
				t.Fatalf("%s, filter on %v: method B's result was not computed", tab, on)
			}
			b.Finish()
			if !slices.EqualFunc(b.Rewards, want.Rewards, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }) {
				t.Fatalf("%s, filter on %v: B's rewards %v, want %v", tab, on, b.Rewards, want.Rewards)
			}
			for i := range s.Evaluation.Valid {
				if r, ok := s.RewardB(i); !ok || r != want.ShownReward(i) {
					t.Fatalf("%s, filter on %v: B's reward of trajectory %d is %v (%v), want %v", tab, on, i, r, ok, want.ShownReward(i))
				}
			}
		}
	}
}
