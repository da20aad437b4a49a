package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/components/statusline"
	"github.com/rewardlens/rewardlens/ui/session"
)

// trainerText is two groups of scores 1, 3 and 5, 5, logged as TRL's
// scale_rewards="batch" gives them: -+1 / (sqrt(11/3) + 1e-4) and 0 (the
// batch's sample std is sqrt(11/3)); then a third group of one row,
// invalid (no x), which changes neither.
func trainerText() string {
	a := strconv.FormatFloat(1/(math.Sqrt(11.0/3)+1e-4), 'g', -1, 64)
	return `{"group":"g","batch":0,"metadata":{"x":1,"adv":-` + a + `}}
{"group":"g","batch":0,"metadata":{"x":3,"adv":` + a + `}}
{"group":"h","batch":0,"metadata":{"x":5,"adv":0}}
{"group":"h","batch":0,"metadata":{"x":5,"adv":0}}
{"group":"odd\u001b[2J","batch":0,"metadata":{"y":5}}
`
}

func trainerSession(t *testing.T, match bool) *session.Session {
	t.Helper()
	res, err := loaders.Read(strings.NewReader(trainerText()), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	one := 1.0
	cfg := setup.Config{
		Objectives:      []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x", Weight: &one}},
		LoggedAdvantage: "metadata.adv",
		MatchLogged:     &match,
		EqualGroups:     true,
	}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStatusLineTrainerChecks checks that the dashboard warns, in its
// status line, of the rows that differ from the logged advantage (the
// method on screen being pareto) with the flags that reproduce them, and
// of the groups of unequal size, escaped; and that --match-logged opens
// it computed with the settings found.
func TestStatusLineTrainerChecks(t *testing.T) {
	s := trainerSession(t, false)
	if s.Options.Method != engine.Pareto {
		t.Fatalf("method %s", s.Options.Method)
	}
	var l statusline.Line
	l.Refresh(s)
	got := l.View(common.NewStyles(true, true), 2000)
	for _, want := range []string{
		"2 of 4 rows differ from the logged advantage by more than 0.0001 (max |diff| 0.185) under grpo, scale group, epsilon 0.0001; `--method grpo --scale batch` reproduces it to ",
		`step 0: groups of unequal size: 2 of 3 groups have 2 trajectories, "odd\x1b[2J" 1`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("status line\n%q\nlacks\n%q", got, want)
		}
	}
	if strings.Contains(got, "warning: ") {
		t.Errorf("a warning of the status line, all warnings, says warning: %q", got)
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("an escape sequence reaches the terminal: %q", got)
	}

	s = trainerSession(t, true)
	if s.Options.Method != engine.GRPO || s.Options.Scale != engine.ScaleBatch || s.Result.Options.Scale != engine.ScaleBatch {
		t.Errorf("--match-logged: options %+v, result's %+v", s.Options, s.Result.Options)
	}
	l = statusline.Line{}
	l.Refresh(s)
	if got := l.View(common.NewStyles(true, true), 2000); !strings.Contains(got, "--match-logged: `--method grpo --scale batch` (grpo, scale batch, epsilon 0.0001) reproduces the logged advantage to ") {
		t.Errorf("status line %q", got)
	}
}

// TestLoggedWarningSearchedAgain: once the settings on screen change (a
// weight, the method, the scale), the result's health job checks the rows
// against the log again with the search compute does, so the warning
// still names the settings that reproduce the log, from those on screen
// (README: the dashboard warns "with the settings that reproduce the
// log"). It only counted the rows and named their steps.
func TestLoggedWarningSearchedAgain(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*engine.Options)
		want   string
	}{
		{"scale none", func(o *engine.Options) { o.Scale = engine.ScaleNone },
			"under grpo, scale none; `--method grpo --scale batch` reproduces it to "},
		{"rloo", func(o *engine.Options) { o.Method = engine.RLOO },
			"under rloo; `--method grpo --scale batch` reproduces it to "},
		{"weight 0.5, scale none", func(o *engine.Options) { o.Weights, o.Scale = []float64{0.5}, engine.ScaleNone },
			"under grpo, scale none; `--method grpo --scale batch --weight x=1` reproduces it to "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := trainerSession(t, false)
			tc.change(&s.Options)
			s.Recompute()
			j := s.HealthJob()
			j.Run()
			if !s.HealthDone(j) {
				t.Fatal("the health job is not of the result shown")
			}
			if got := s.LoggedWarning(); !strings.Contains(got, tc.want) || !strings.HasSuffix(got, " (--match-logged applies it)") {
				t.Errorf("warning %q lacks %q", got, tc.want)
			}
		})
	}
}

// TestStatusLineStepsDiffer: a log whose step 0 is TRL's scale batch and
// step 1 the settings as given: the status line names step 0 and the flags
// that reproduce it, as compute's warning does, not a closest setting.
func TestStatusLineStepsDiffer(t *testing.T) {
	group := strconv.FormatFloat(1/(math.Sqrt2+1e-4), 'g', -1, 64)
	text := strings.Replace(trainerText(), `{"group":"odd\u001b[2J","batch":0,"metadata":{"y":5}}`+"\n", "", 1) +
		`{"group":"g","batch":1,"metadata":{"x":1,"adv":-` + group + `}}
{"group":"g","batch":1,"metadata":{"x":3,"adv":` + group + `}}
{"group":"h","batch":1,"metadata":{"x":5,"adv":0}}
{"group":"h","batch":1,"metadata":{"x":5,"adv":0}}
`
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	one, match := 1.0, false
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x", Weight: &one}}, LoggedAdvantage: "metadata.adv", MatchLogged: &match}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	var l statusline.Line
	l.Refresh(s)
	got := l.View(common.NewStyles(true, true), 2000)
	if !strings.Contains(got, "under grpo, scale group, epsilon 0.0001, in step 0 only; no one setting of the ") ||
		!strings.Contains(got, " tried reproduces every step: `--method grpo --scale batch` reproduces step 0 to ") || strings.Contains(got, "closest") {
		t.Errorf("status line %q", got)
	}
}

// TestStatusLineLoggedNotCompared: the rows whose logged advantage is not
// a number, or NaN or infinite, are counted in the status line (and ?'s
// list) beside the trainer check's warnings, with the first's place and
// value escaped, as stats says them; a null one is absent, not counted.
// Neither was said in the dashboard.
func TestStatusLineLoggedNotCompared(t *testing.T) {
	text := `{"group":"g","batch":0,"metadata":{"x":1,"adv":"x\u001b[2J"}}
{"group":"g","batch":0,"metadata":{"x":3,"adv":NaN}}
{"group":"g","batch":0,"metadata":{"x":2,"adv":null}}
{"group":"h","batch":0,"metadata":{"x":5,"adv":0}}
{"group":"h","batch":0,"metadata":{"x":4,"adv":Infinity}}
`
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	one := 1.0
	cfg := setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x", Weight: &one}}, LoggedAdvantage: "metadata.adv"}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	var l statusline.Line
	l.Refresh(s)
	got := l.View(common.NewStyles(true, true), 4000)
	for _, want := range []string{
		`1 row's logged advantage is not a number (the first: run.jsonl:1: "x\x1b[2J"): read as absent, it is not compared with the rewards`,
		`2 rows' logged advantage is NaN or infinite (the first: run.jsonl:2: NaN): they are not compared with the rewards`,
	} {
		if !strings.Contains(got, want) || !slices.Contains(l.Warnings(), want) {
			t.Errorf("status line\n%q\nor ?'s list %q lacks\n%q", got, l.Warnings(), want)
		}
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("an escape sequence reaches the terminal: %q", got)
	}
}

// TestMatchLoggedNotFoundSaidOnce: with --match-logged and no setting
// that reproduces the log, the status line says the disagreement once
// (--match-logged's note), not again once the health is computed.
func TestMatchLoggedNotFoundSaidOnce(t *testing.T) {
	text := `{"group":"g","batch":0,"metadata":{"x":1,"adv":0.3}}
{"group":"g","batch":0,"metadata":{"x":3,"adv":0.9}}
{"group":"h","batch":0,"metadata":{"x":5,"adv":-0.2}}
{"group":"h","batch":0,"metadata":{"x":4,"adv":0.7}}
`
	res, err := loaders.Read(strings.NewReader(text), "run.jsonl", 0, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	match := true
	cfg := setup.Config{Method: "grpo", Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "metadata.x"}}, LoggedAdvantage: "metadata.adv", MatchLogged: &match}
	s, err := session.Open("run.jsonl", cfg, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := settledModel(s)
	said := 0
	for _, w := range m.status.Warnings() {
		if strings.Contains(w, "logged advantage") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the disagreement said %d times: %q", said, m.status.Warnings())
	}
}
