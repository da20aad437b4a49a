package cmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestSavedSettingsReproduceTheDashboard: the settings the dashboard
// saves (ctrl+s) make compute --config give, over the same inputs, the
// rewards of the dashboard's export (e), byte for byte, and the grouping
// its read-as line says, for each layout the repo knows: TRL (a prompt in
// two slots of a batch, a prompt drawn twice in a row, the usual groups),
// verl, open-instruct and plain records; with the group filter of
// --filter-groups on, and turned off (f).
func TestSavedSettingsReproduceTheDashboard(t *testing.T) {
	abs := func(parts ...string) string {
		p, err := filepath.Abs(filepath.Join(parts...))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name      string
		args      []string
		filterOff bool
	}{
		{"trl, a prompt in two slots", []string{"--match-logged", abs("testdata", "trl", "duplicate_prompt", "completions")}, false},
		{"trl, a prompt drawn twice in a row", []string{abs("testdata", "trl", "one_prompt_16", "completions")}, false},
		{"trl", []string{abs(trlDir)}, false},
		{"verl", []string{abs(verlDir)}, false},
		{"open-instruct", []string{abs(openInstructDir, "standard")}, false},
		{"plain", []string{"--method", "grpo", abs(example("grpo.jsonl"))}, false},
		{"verl, the group filter on", []string{"--filter-groups", "score", abs(verlDir)}, false},
		{"verl, the group filter turned off", []string{"--filter-groups", "score", abs(verlDir)}, true},
	} {
		for _, change := range settingChanges {
			t.Run(c.name+", "+change.name, func(t *testing.T) {
				ses, readAs := dashboardSession(t, c.args)
				if c.filterOff {
					ev, kept := ses.Filtered(false)
					ses.SetFiltered(false, ses.Unfiltered(), ev, kept, ev.Prepare(ses.Options, nil))
				}
				if change.set != nil {
					ses.Options.Weights = ses.Weights()
					change.set(&ses.Options)
					ses.Recompute()
				}
				checkSavedSettings(t, ses, readAs, c.args[len(c.args)-1:])
			})
		}
	}
}

// settingChanges are what the dashboard's keys change of the settings
// (m, g, n, the weights editor's w, + and o), each tried over each
// layout's run as opened.
var settingChanges = []struct {
	name string
	set  func(*engine.Options)
}{
	{"as opened", nil},
	{"rloo over the batch", func(o *engine.Options) { o.Method, o.Scope = engine.RLOO, engine.ScopeBatch }},
	{"absolute over the batch", func(o *engine.Options) { o.Method, o.Scope = engine.Absolute, engine.ScopeBatch }},
	{"normalisation off", func(o *engine.Options) { o.Normalize = false }},
	{"pareto-crowding over ranked objectives", func(o *engine.Options) {
		o.Method, o.NormalizeObjectives = engine.ParetoCrowding, engine.NormRank
	}},
	{"a weight changed", func(o *engine.Options) { o.Weights[0] += 0.35 }},
}

// checkSavedSettings saves ses's settings and exports its batch in a
// directory of its own, and checks that compute --config over inputs
// writes the export's records and says its grouping (readAs's).
func checkSavedSettings(t *testing.T, ses *session.Session, readAs string, inputs []string) {
	t.Helper()
	t.Chdir(t.TempDir())
	var saver session.SettingsSaver
	if _, err := saver.Save(ses); err != nil {
		t.Fatal(err)
	}
	wrote, err := ses.ExportJob().Run()
	if err != nil {
		t.Fatal(err)
	}
	exported, err := os.ReadFile(strings.SplitN(strings.TrimPrefix(wrote, "wrote "), ":", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", append([]string{"compute", "--config", session.SettingsFile}, inputs...)...)
	if code != 0 {
		t.Fatalf("compute --config: status %d, stderr %s", code, errOut)
	}
	lines := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		lines[idOf(t, line)] = line
	}
	for _, line := range strings.Split(strings.TrimSpace(string(exported)), "\n") {
		if got := lines[idOf(t, line)]; got != line {
			t.Errorf("compute --config gives\n%s\nwhere the dashboard exported\n%s", got, line)
		}
	}
	if group := groupSaid.FindString(readAs); !strings.Contains(errOut, group) {
		t.Errorf("the dashboard reads the input as %q, compute --config does not:\n%s", group, errOut)
	}
	if t.Failed() {
		t.Logf("the saved settings:\n%s", savedSettings(t))
	}
}

// groupSaid is the grouping a read-as line says.
var groupSaid = regexp.MustCompile(`group = [^(,;]*(\([^)]*\))?`)

// dashboardSession returns the session the dashboard opens with args
// (runDashboard's settings, ui's loading) and its read-as line.
func dashboardSession(t *testing.T, args []string) (*session.Session, string) {
	t.Helper()
	var s settings
	flags := pflag.NewFlagSet("rewardlens", pflag.ContinueOnError)
	s.register(flags)
	if err := flags.Parse(args); err != nil {
		t.Fatal(err)
	}
	cfg, opts, readAs, _, err := s.resolve(context.Background(), flags, nil, flags.Args(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := loaders.Load(flags.Args(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ses, err := session.Open(strings.Join(flags.Args(), ", "), cfg, data, nil)
	if err == nil {
		err = ses.SetFilterGroups(cfg.FilterGroups)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ses, readAs
}

// idOf is the id of a JSONL record compute writes.
func idOf(t *testing.T, line string) string {
	t.Helper()
	var r record
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	return r.ID
}

func savedSettings(t *testing.T) string {
	b, err := os.ReadFile(session.SettingsFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestConfigGroupRunsOverTheLayout: a config's group_runs is the TRL
// layout's grouping, without group_by as with it: the layout does not
// read num_generations over it.
func TestConfigGroupRunsOverTheLayout(t *testing.T) {
	input := filepath.Join("testdata", "trl", "duplicate_prompt", "completions")
	for _, config := range []string{"group_runs = 2\n", "group_by = \"prompt\"\ngroup_runs = 2\n"} {
		path := filepath.Join(t.TempDir(), "runs.toml")
		if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errOut, code := run(t, "", "compute", "--config", path, input)
		if want := "group = prompt (its consecutive rows, 2 at most: num_generations)"; code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("config\n%s: status %d, stderr\n%s\nwant it to say %q", config, code, errOut, want)
		}
	}
}
