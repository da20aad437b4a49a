package ui

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/sample_data/sampletest"
	"github.com/rewardlens/rewardlens/ui/common"
	"github.com/rewardlens/rewardlens/ui/session"
)

// sourcesModel is the dashboard on the sample split into two sources by
// its prompt groups, as --source-by and [sources.NAME] give them: the
// agentic prompts p11..p15 scored by accuracy and safety, the others
// (reasoning, met first) by accuracy and length; edit, if any, changes
// the config first.
func sourcesModel(tb testing.TB, width, height int, edit ...func(*setup.Config)) *Model {
	tb.Helper()
	cfg, res := sampletest.Read(tb)
	objectives := map[string]setup.ObjectiveConfig{}
	for _, o := range cfg.Objectives {
		objectives[o.Name] = o
	}
	cfg.Objectives = nil
	cfg.SourceBy = `group in ["p11", "p12", "p13", "p14", "p15"] ? "agentic" : "reasoning"`
	cfg.Sources = map[string]setup.SourceConfig{
		"agentic":   {Objectives: []setup.ObjectiveConfig{objectives["accuracy"], objectives["safety"]}},
		"reasoning": {Objectives: []setup.ObjectiveConfig{objectives["accuracy"], objectives["length"]}},
	}
	for _, e := range edit {
		e(&cfg)
	}
	s, err := session.Open("sample", cfg, res, nil)
	if err != nil {
		tb.Fatal(err)
	}
	m := NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	m.Settle()
	return m
}

// body returns the screen under the header and the tab bar.
func body(m *Model) string {
	lines := strings.Split(screen(m), "\n")
	return strings.Join(lines[2:], "\n")
}

// TestObjectivesBySource: s on the Objectives tab shows one source's
// statistics over its own objectives (engine's SourceBatchStats), then
// the other's, then all again.
func TestObjectivesBySource(t *testing.T) {
	m := sourcesModel(t, 200, 60)
	press(m, "3")
	if v := body(m); !strings.Contains(v, "source all sources (s)") || !strings.Contains(v, "safety") {
		t.Fatalf("the tab does not start on all sources:\n%s", v)
	}
	s := m.Session()
	for src, absent := range []string{"safety", "length"} {
		press(m, "s")
		want := diagnose.SourceBatchStats(s.Result, s.CurrentBatch(), src)
		v := body(m)
		title := fmt.Sprintf("%d valid trajectories · source %s (s)", want.Trajectories-want.Invalid, s.Evaluation.SourceNames[src])
		if !strings.Contains(v, title) {
			t.Errorf("source %d: the title lacks %q:\n%s", src, title, v)
		}
		if strings.Contains(v, absent) {
			t.Errorf("source %s shows %s, not one of its objectives:\n%s", s.Evaluation.SourceNames[src], absent, v)
		}
		if mean := want.Objectives[1].Mean; !showsMean(v, want.Objectives[1].Name, mean) {
			t.Errorf("source %d: the table lacks %s's mean %v:\n%s", src, want.Objectives[1].Name, mean, v)
		}
	}
	press(m, "s")
	if v := body(m); !strings.Contains(v, "source all sources (s)") {
		t.Errorf("s after the last source does not come back to all:\n%s", v)
	}
}

// TestObjectivesWeightBySource: an objective the sources weigh
// differently has no one weight over all the sources ("by source"); a
// source's own view gives its weight (2 for agentic, the sample's for
// reasoning).
func TestObjectivesWeightBySource(t *testing.T) {
	var sampleWeight float64 // the sample's weight of accuracy, which reasoning keeps
	// Tall enough for the batch's 128 rows.
	m := sourcesModel(t, 200, 150, func(cfg *setup.Config) {
		sampleWeight = *cfg.Sources["reasoning"].Objectives[0].Weight
		cfg.Sources["agentic"] = setup.SourceConfig{Objectives: cfg.Sources["agentic"].Objectives, Weights: map[string]float64{"accuracy": 2}}
	})
	press(m, "3")
	row := func(name string) string {
		for _, line := range strings.Split(body(m), "\n") {
			if f := strings.Fields(line); len(f) > 2 && f[0] == name {
				return line
			}
		}
		t.Fatalf("no row of %s:\n%s", name, body(m))
		return ""
	}
	if r := row("accuracy"); !strings.Contains(r, "by source") {
		t.Errorf("all sources: accuracy weighs 1 and 2, its row says otherwise:\n%s", r)
	}
	for range m.Session().Evaluation.SourceNames {
		press(m, "s")
		want := fmt.Sprintf("%.2f", sampleWeight)
		if strings.Contains(body(m), "source agentic (s)") {
			want = "2.00"
		}
		if f := strings.Fields(row("accuracy")); len(f) < 3 || f[2] != want {
			t.Errorf("a source's own weight of accuracy: row %v, want weight %s", f, want)
		}
	}
}

// TestStepsBySource: s on the Steps tab charts one source's trends
// (engine's SourceTrends), without the other source's objectives and the
// hypervolume.
func TestStepsBySource(t *testing.T) {
	m := sourcesModel(t, 200, 60)
	press(m, "6", "s")
	s := m.Session()
	trends := diagnose.SourceTrends(s.Result, 0)
	v := body(m)
	if !strings.Contains(v, "source reasoning (s)") {
		t.Fatalf("the legend does not name the source:\n%s", v)
	}
	want := fmt.Sprintf("accuracy mean (max) · ◆ step 0: %s", common.FormatValue(trends[0].Objectives[0].Mean))
	if !strings.Contains(v, want) {
		t.Errorf("the accuracy chart lacks %q:\n%s", want, v)
	}
	for _, absent := range []string{"safety mean", "hypervolume"} {
		if strings.Contains(v, absent) {
			t.Errorf("the reasoning source's charts have %q", absent)
		}
	}
	if all := s.Trends(); common.FormatValue(all[0].Objectives[0].Mean) == common.FormatValue(trends[0].Objectives[0].Mean) {
		t.Fatal("the source's accuracy mean equals the run's: the test tells nothing")
	}
}

// TestGroupsBySource: with sources the Groups tab has a source column,
// sorts by it source by source, and its filter matches a source's name.
func TestGroupsBySource(t *testing.T) {
	m := sourcesModel(t, 200, 60)
	press(m, "2")
	v := body(m)
	if !strings.Contains(v, "source") || !strings.Contains(v, "agentic") || !strings.Contains(v, "reasoning") {
		t.Fatalf("no source column:\n%s", v)
	}
	press(m, "/")
	typeText(m, "agentic")
	press(m, "enter")
	if v := body(m); !strings.Contains(v, "5 groups") || strings.Contains(v, "reasoning") {
		t.Errorf("the filter agentic does not keep the 5 agentic groups:\n%s", v)
	}
	if v := body(newTestModel(t, 200, 60)); strings.Contains(strings.SplitN(v, "\n", 3)[1], "source") {
		t.Error("without sources the Groups tab has a source column")
	}
}

// TestGoldenSources keeps the Groups, Objectives and Steps tabs split by
// source, and the Trajectories tab, a group and a trajectory with
// sources, at every golden size.
func TestGoldenSources(t *testing.T) {
	for _, v := range []struct {
		name string
		keys []string
	}{
		{"groups", []string{"2", "s"}},
		{"objectives", []string{"3", "s", "s"}},
		// On all sources, an objective's statistics, histogram and
		// correlations are over the trajectories whose source has it.
		{"objectives-all", []string{"3"}},
		{"steps", []string{"6", "s"}},
		// An objective the row's source lacks shows "-" (the 0 the engine
		// holds is no value of it): in the table, a group, a trajectory.
		{"trajectories", []string{"5"}},
		{"group", []string{"2", "enter"}},
		{"trajectory", []string{"5", "enter"}},
		// The Pareto tab draws the points having both axes' objectives
		// (accuracy and safety: the agentic ones), and says how many it
		// leaves out; on safety and length, which no source has both of,
		// none.
		{"pareto", []string{"4"}},
		{"pareto-no-pair", []string{"4", "x"}},
	} {
		for _, size := range goldenSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, size[0], size[1]), func(t *testing.T) {
				m := sourcesModel(t, size[0], size[1])
				press(m, v.keys...)
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}

// showsMean reports whether the Objectives table in view gives objective
// name the mean mean, as its row's format rounds it.
func showsMean(view, name string, mean float64) bool {
	for _, l := range strings.Split(view, "\n") {
		if f := strings.Fields(l); len(f) > 4 && f[0] == name {
			shown, err := strconv.ParseFloat(f[4], 64) // objective goal weight count mean
			_, fraction, _ := strings.Cut(f[4], ".")
			return err == nil && math.Abs(shown-mean) <= math.Pow(10, -float64(len(fraction)))/2
		}
	}
	return false
}

// TestTrajectoriesSortAnotherSourcesObjectiveLast: sorted by safety, the
// rows whose source lacks it (shown -) come after every row that has it,
// as a NaN sorts, not among them as the 0s the engine holds would.
func TestTrajectoriesSortAnotherSourcesObjectiveLast(t *testing.T) {
	// Safety centred on 0.95, of both signs: the engine's 0 would sort
	// between them.
	// Tall enough for the batch's 128 rows.
	m := sourcesModel(t, 200, 150, func(cfg *setup.Config) {
		agentic := cfg.Sources["agentic"]
		agentic.Objectives = slices.Clone(agentic.Objectives)
		agentic.Objectives[1].Expr = "(" + agentic.Objectives[1].Expr + ") - 0.95"
		cfg.Sources["agentic"] = agentic
	})
	press(m, "5")
	for range 12 {
		if strings.Contains(body(m), "sorted by safety") {
			break
		}
		press(m, "s")
	}
	press(m, "pgup", "pgup", "pgup") // the selection kept its row: to the top
	lines := strings.Split(body(m), "\n")
	if !strings.Contains(lines[0], "sorted by safety ▼") {
		t.Fatalf("not sorted by safety:\n%s", body(m))
	}
	column := slices.Index(strings.Fields(lines[1]), "safety")
	var shown []string
	for _, l := range lines[2:] {
		if f := strings.Fields(l); len(f) > column && strings.HasPrefix(f[0], "s00-") {
			shown = append(shown, f[column])
		}
	}
	first := slices.Index(shown, common.NoObjective)
	if len(shown) != 128 || first <= 0 || slices.ContainsFunc(shown[first:], func(v string) bool { return v != common.NoObjective }) {
		t.Errorf("safety cells in order %q: want the values, then only -", shown)
	}
}

// sourceLessModel is sourcesModel with a source "code" that no trajectory
// has, whose objective tests no source met has, and accuracy weighed 2
// by agentic (1 by reasoning).
func sourceLessModel(tb testing.TB, width, height int) *Model {
	return sourcesModel(tb, width, height, func(cfg *setup.Config) {
		accuracy := cfg.Sources["agentic"].Objectives[0]
		cfg.Sources["agentic"] = setup.SourceConfig{Objectives: cfg.Sources["agentic"].Objectives, Weights: map[string]float64{"accuracy": 2}}
		cfg.Sources["code"] = setup.SourceConfig{Objectives: []setup.ObjectiveConfig{{Name: "tests", Expr: accuracy.Expr}}}
	})
}

// TestWeightsEditorBySource: with sources, the weights editor shows each
// objective's weight as the sources give it: "by source" for accuracy,
// which they weigh differently, and "no source" for tests, which no
// source met has (not the top-level weight of either, which scores no
// trajectory); so does the Objectives tab on all sources, where tests
// was "by source" as if sources weighed it; at each golden size.
func TestWeightsEditorBySource(t *testing.T) {
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := sourceLessModel(t, size[0], size[1])
			k := slices.IndexFunc(m.Session().Evaluation.Objectives, func(o scoring.Objective) bool { return o.Name == "tests" })
			press(m, "w")
			if line := strings.Split(screen(m), "\n")[2]; !strings.Contains(line, "[accuracy by source]") {
				t.Errorf("the weights line does not say that the sources weigh accuracy differently:\n%s", line)
			}
			for range k {
				press(m, "down")
			}
			if line := strings.Split(screen(m), "\n")[2]; !strings.Contains(line, "[tests no source]") {
				t.Errorf("the weights line does not say that no source has tests:\n%s", line)
			}
			golden.RequireEqual(t, screen(m))
			press(m, "3")
			found := false
			for _, line := range strings.Split(body(m), "\n") {
				if f := strings.Fields(line); len(f) > 3 && f[0] == "tests" { // the table's row, before the correlations'
					found = true
					if f[2]+" "+f[3] != common.NoSourceWeight {
						t.Errorf("the Objectives tab's row of tests does not say no source weighs it:\n%s", line)
					}
					break
				}
			}
			if !found && size[1] >= 40 {
				t.Errorf("no row of tests:\n%s", body(m))
			}
		})
	}
}
