package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui"
	"github.com/rewardlens/rewardlens/ui/session"
)

var (
	samplePath       = filepath.Join(repoRoot, "sample_data", "experiment.jsonl")
	sampleConfigPath = filepath.Join(repoRoot, "sample_data", "experiment.toml")
)

// TestStatsHealthGolden checks the health section of stats --health on the
// sample (the rest of the table is TestStatsGolden's) and its exit status:
// the sample's reward hacking raises ALERTs.
func TestStatsHealthGolden(t *testing.T) {
	out, errOut, code := run(t, "", "stats", "--health", "--config", sampleConfigPath, samplePath)
	if code != exitHealthAlert {
		t.Fatalf("status %d, want %d (stderr %q)", code, exitHealthAlert, errOut)
	}
	want := "rewardlens: health: 2 ALERTs: length_drift at step 26, correlation_flip (safety) at step 27"
	if !strings.Contains(errOut, want) {
		t.Errorf("stderr %q does not say %q", errOut, want)
	}
	_, health, ok := strings.Cut(out, "\nhealth: ")
	if !ok {
		t.Fatalf("no health section in:\n%s", out)
	}
	golden.RequireEqual(t, []byte("health: "+health))
}

// healthJSON is the "health" field of stats --format json.
type healthJSON struct {
	Baseline int        `json:"baseline"`
	HVRef    []*float64 `json:"hv_ref"`
	Trends   []struct {
		Batch         int64    `json:"batch"`
		Hypervolume   *float64 `json:"hypervolume"`
		MeanStepCount *float64 `json:"mean_step_count"`
	} `json:"trends"`
	Findings []struct {
		Check     string  `json:"check"`
		Level     string  `json:"level"`
		Step      int64   `json:"step"`
		Objective string  `json:"objective"`
		Value     float64 `json:"value"`
		Threshold float64 `json:"threshold"`
		// Provisional is why the finding may not stand.
		Provisional string `json:"provisional"`
	} `json:"findings"`
}

func statsHealth(t *testing.T, wantCode int, stdin string, args ...string) healthJSON {
	t.Helper()
	out, errOut, code := run(t, stdin, append([]string{"stats", "--health", "--format", "json"}, args...)...)
	if code != wantCode {
		t.Fatalf("status %d, want %d (stderr %q)", code, wantCode, errOut)
	}
	var r struct {
		Health *healthJSON `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Health == nil {
		t.Fatalf("no health field (%v) in:\n%s", err, out)
	}
	return *r.Health
}

func TestStatsHealthJSON(t *testing.T) {
	h := statsHealth(t, exitHealthAlert, "", "--config", sampleConfigPath, samplePath)
	if h.Baseline != 3 || len(h.Trends) != 40 || len(h.HVRef) != 3 || *h.HVRef[1] != 0.891 {
		t.Errorf("baseline %d, %d trends, reference %v", h.Baseline, len(h.Trends), h.HVRef)
	}
	var got []string
	for _, f := range h.Findings {
		got = append(got, fmt.Sprintf("%s %s %s %d", f.Level, f.Check, f.Objective, f.Step))
	}
	want := []string{"ALERT length_drift  26", "WARN correlation_flip safety 26", "ALERT correlation_flip safety 27", "WARN zero_spread  30"}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	// A given reference point: raw values, the length (minimised) at 2.
	given := statsHealth(t, exitHealthAlert, "", "--hv-ref", "0,0,2", "--config", sampleConfigPath, samplePath)
	if *given.HVRef[2] != 2 || !(*given.Trends[0].Hypervolume > *h.Trends[0].Hypervolume) {
		t.Errorf("with --hv-ref 0,0,2: reference %v, hypervolume %v (default %v)", given.HVRef, *given.Trends[0].Hypervolume, *h.Trends[0].Hypervolume)
	}
}

func TestStatsHealthFlags(t *testing.T) {
	// A longer baseline reaches into the hacking: the drift of the length
	// objective fires later, and at the named objective.
	h := statsHealth(t, exitHealthAlert, "", "--baseline", "5", "--health-length", "length", "--config", sampleConfigPath, samplePath)
	if f := h.Findings[0]; f.Check != "length_drift" || f.Objective != "length" || f.Step != 25 || f.Level != "WARN" {
		t.Errorf("first finding %+v, want the length's drift WARN at step 25", f)
	}
}

// healthyRun is 5 batches of 2 groups whose two objectives keep rising
// together with spread, at a constant step_count.
func healthyRun() string {
	var b strings.Builder
	for step := range 5 {
		for _, g := range []string{"x", "y"} {
			for i := range 4 {
				fmt.Fprintf(&b, `{"batch":%d,"group":"%s","step_count":5,"metadata":{"a":%d,"b":%g}}`+"\n", step, g, i, float64(i)+0.1*float64(step))
			}
		}
	}
	return b.String()
}

func TestStatsHealthy(t *testing.T) {
	out, errOut, code := run(t, healthyRun(), "stats", "--health", "-")
	if code != 0 || !strings.Contains(out, "findings: none, healthy") {
		t.Errorf("status %d (stderr %q), output:\n%s", code, errOut, out)
	}
	if h := statsHealth(t, 0, healthyRun(), "-"); h.Findings == nil || len(h.Findings) != 0 {
		t.Errorf("findings %v, want an empty list", h.Findings)
	}
}

func TestStatsHealthUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--hv-ref", "1,2", samplePath}, "--hv-ref: hypervolume reference: 2 values for 3 objectives (accuracy, safety, length)"},
		{[]string{"--hv-ref", "1,x,2", samplePath}, `invalid argument "1,x,2"`},
		{[]string{"--hv-ref", "1,NaN,2", samplePath}, "safety's value NaN is not a finite number"},
		{[]string{"--baseline", "0", samplePath}, "--baseline 0: want a number of batches >= 1"},
		{[]string{"--health-length", "size", samplePath}, `unknown objective "size" (objectives: accuracy, safety, length)`},
		// The task metric is an objective or an expression (--task-metric,
		// whose older name --health-task is).
		{[]string{"--health-task", "size", samplePath}, `task metric "size": no trajectory has it as a finite number; the records have accuracy, batch`},
		{[]string{"--task-metric", "accurcy", samplePath}, `task metric "accurcy": no trajectory has it as a finite number; did you mean accuracy?`},
		{[]string{"--task-metric", "accuracy", "--health-task", "safety", samplePath}, `--task-metric "accuracy" and --health-task "safety": give one`},
	} {
		args := append([]string{"stats", "--health", "--config", sampleConfigPath}, c.args...)
		_, errOut, code := run(t, "", args...)
		if code != exitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// sampleModel opens the dashboard's model on the sample with the config
// at configPath, as runDashboard does, at 120x40.
func sampleModel(t *testing.T, configPath string) *ui.Model {
	t.Helper()
	file, err := readConfig(configPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg := file.Config
	data, err := loaders.Load([]string{samplePath}, loaders.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = cfg.InferObjectives(&data.Trajectories[0]); err != nil {
		t.Fatal(err)
	}
	c, _, err := newComputer(cfg, &data.Trajectories[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	s := session.NewSession("sample", data.Trajectories, c)
	s.Config = cfg
	m := ui.NewModel(s, true)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return m
}

// press sends keys to the dashboard: runes, or ctrl+s.
func press(m *ui.Model, keys ...string) {
	for _, k := range keys {
		msg := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		switch k {
		case "ctrl+s":
			msg = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		}
		m.Update(msg)
		m.Settle() // the recompute a key started
	}
}

// TestDashboardExportMatchesCompute checks that e writes the current
// batch's lines of compute's output, byte for byte.
func TestDashboardExportMatchesCompute(t *testing.T) {
	out, errOut, code := run(t, "", "compute", "--method", "pareto-crowding", "--config", sampleConfigPath, samplePath)
	if code != 0 {
		t.Fatalf("compute: status %d, %s", code, errOut)
	}
	var want strings.Builder
	for line := range strings.Lines(out) {
		if strings.Contains(line, `,"batch":5,`) {
			want.WriteString(line)
		}
	}
	m := sampleModel(t, sampleConfigPath)
	t.Chdir(t.TempDir())
	press(m, "]", "]", "]", "]", "]", "m", "e") // step 5 (with an invalid row), method pareto-crowding
	got, err := os.ReadFile("rewardlens-step5-pareto-crowding.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() || strings.Count(want.String(), "\n") != 128 {
		t.Errorf("export differs from compute's 128 lines of batch 5:\n%s\nwant:\n%s", got, want.String())
	}
}

// TestDashboardSettingsRoundTrip checks that ctrl+s saves settings that
// --config loads back into the same options, objectives and rewards, and
// that stats reads without a warning.
func TestDashboardSettingsRoundTrip(t *testing.T) {
	svrl := filepath.Join(t.TempDir(), "svrl.toml")
	if err := os.WriteFile(svrl, []byte("computer = \"svrl\"\nmethod = \"grpo\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sample, err := os.ReadFile(sampleConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	grpo := filepath.Join(t.TempDir(), "grpo.toml")
	if err := os.WriteFile(grpo, bytes.Replace(sample, []byte(`method = "pareto"`), []byte(`method = "grpo"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := filepath.Abs(samplePath) // read from the directory ctrl+s saves in
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, config string
		keys         []string
	}{
		// pareto -> pareto-crowding -> gdpo, scope batch, no normalisation,
		// safety's weight up.
		{"pareto", sampleConfigPath, []string{"m", "m", "g", "n", "w", "down", "+", "esc"}},
		// The verification weight and the task's, then rloo.
		{"svrl", svrl, []string{"w", "down", "+", "up", "-", "esc", "m"}},
		// grpo scaled by the group's std, the batch's, then not scaled:
		// scale none, not scale group with normalize false.
		{"grpo unscaled", grpo, []string{"n", "n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := sampleModel(t, c.config)
			t.Chdir(t.TempDir())
			press(m, append(c.keys, "ctrl+s")...)
			file, err := readConfig("rewardlens-settings.toml")
			if err != nil {
				t.Fatal(err)
			}
			cfg := file.Config
			loaded, err := engine.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s := m.Session()
			if s.Options.Weights == nil && s.Options.Normalize || s.Options.Method == engine.Pareto {
				t.Fatalf("the keys did not change the settings: %+v", s.Options)
			}
			want := s.Options
			want.Weights = nil
			if !want.Normalize {
				want.Scale = engine.ScaleNone
			}
			if !reflect.DeepEqual(loaded.Options, want) {
				t.Errorf("options %+v, want %+v", loaded.Options, want)
			}
			if _, errOut, code := run(t, "", "stats", "--config", "rewardlens-settings.toml", data); code != 0 || strings.Contains(errOut, "warning") {
				t.Errorf("stats with the saved settings: status %d, stderr %q", code, errOut)
			}
			if got := loaded.Scorer.Objectives(); !slices.Equal(got, s.Result.Objectives) {
				t.Errorf("objectives %+v, want %+v", got, s.Result.Objectives)
			}
			rewards := engine.Evaluate(loaded.Scorer, s.Trajectories.Slice()).Compute(loaded.Options).Rewards
			if !slices.EqualFunc(rewards, s.Result.Rewards, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
				t.Error("the saved settings give other rewards")
			}
		})
	}
}

// TestStatsHealthAlertOutlivesAFailedWrite writes the report of a run
// that raises ALERTs to a full device: the write error and the ALERTs are
// both told, and the status is still the ALERT's, 3, which a pipeline
// watching the run reads.
func TestStatsHealthAlertOutlivesAFailedWrite(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	_, errOut, code := run(t, "", "stats", "--health", "--out", "/dev/full", "--config", sampleConfigPath, samplePath)
	if code != exitHealthAlert {
		t.Fatalf("status %d, want %d (stderr %q)", code, exitHealthAlert, errOut)
	}
	for _, want := range []string{"write /dev/full: no space left on device", "health: 2 ALERTs: length_drift at step 26"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
		}
	}
	// Without --health, the failed write is the status: 1.
	if _, errOut, code := run(t, "", "stats", "--out", "/dev/full", "--config", sampleConfigPath, samplePath); code != exitFailure {
		t.Errorf("without --health: status %d, want %d (stderr %q)", code, exitFailure, errOut)
	}
}
