package cmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui"
	"github.com/rewardlens/rewardlens/ui/session"
)

// TestDashboardConfigErrors: the settings the dashboard finds bad once
// the data is read (a config file's names of inferred objectives, its
// filter_groups) are said as stats says them: at their line in the file,
// by their key, exit status 2; a flag over the file's value is the flag's.
func TestDashboardConfigErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"data.jsonl": `{"group":"g","metadata":{"accuracy":1,"safety":0.5}}` + "\n" + `{"group":"g","metadata":{"accuracy":0,"safety":0.9}}` + "\n",
	})
	for _, c := range []struct {
		name, config string
		flags        []string
		want         string // PATH standing for the config's path
	}{
		{"weights", "method = \"grpo\"\nweights = {acuracy = 2}\n", nil,
			`PATH:2: weight: unknown objective "acuracy" (objectives: accuracy, safety)`},
		{"gate", "\n\ngate = [\"acuracy: true\"]\n", nil, `PATH:3: gate "acuracy: true": no objective "acuracy"; did you mean accuracy?`},
		{"filter_groups", "\nfilter_groups = \"acuracy\"\n", nil,
			`PATH:2: filter_groups "acuracy": not an objective; did you mean accuracy? (objectives: accuracy, safety)`},
		{"filter_groups with a dot", "\nfilter_groups = \"safty.max\"\n", nil,
			`PATH:2: filter_groups "safty.max": not an objective (objectives: accuracy, safety)`},
		{"a filter flag over the file's", "filter_groups = \"accuracy\"\n", []string{"--filter-groups", "acuracy"},
			`--filter-groups "acuracy": not an objective; did you mean accuracy? (objectives: accuracy, safety)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.toml")
			if err := os.WriteFile(path, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			var s settings
			flags := pflag.NewFlagSet("rewardlens", pflag.ContinueOnError)
			s.register(flags)
			if err := flags.Parse(append([]string{"--config", path}, c.flags...)); err != nil {
				t.Fatal(err)
			}
			cfg, err := s.config(flags, nil)
			if err != nil {
				t.Fatal(err)
			}
			// What the dashboard's loading ends with (ui/loading.go); Open
			// keeps the trajectories it read lean, so each reads its own.
			data, err := loaders.Load([]string{filepath.Join(dir, "data.jsonl")}, loaders.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ses, err := session.Open("data", cfg, data, nil)
			if err == nil {
				err = ses.SetFilterGroups(cfg.FilterGroups)
			}
			err = s.dashboardError(err)
			want := strings.ReplaceAll(c.want, "PATH", path)
			if err == nil || err.Error() != want || exitStatus(err) != exitBadInput {
				t.Errorf("error\n%v\nwant\n%s, exit status %d", err, want, exitBadInput)
			}
		})
	}
}

// TestDashboardLoadErrorIsBadInput: what stopped the dashboard's load
// (ui.LoadError: no trajectories, a directory without inputs) ends it
// with compute's status for the same inputs, 2, its message as it is.
func TestDashboardLoadErrorIsBadInput(t *testing.T) {
	var s settings
	load := errors.New("no trajectories in empty.jsonl")
	err := s.dashboardError(ui.LoadError{Err: load})
	if err == nil || err.Error() != load.Error() || exitStatus(err) != exitBadInput {
		t.Errorf("error %v, exit status %d; want %v, %d", err, exitStatus(err), load, exitBadInput)
	}
}

// TestDashboardShowsBadDataOnItsScreen: a binary file, which the
// layout's look at the first records finds bad before the load, is said
// where the load says an empty file: on the dashboard's loading screen
// (its load fails with the error), then status 2.
func TestDashboardShowsBadDataOnItsScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bin.jsonl")
	if err := os.WriteFile(path, []byte("{\"id\"\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	var loadErr error
	defer func(saved func(context.Context, ui.Input) error) { runUI = saved }(runUI)
	runUI = func(_ context.Context, in ui.Input) error {
		if in.Load == nil {
			return errors.New("no load")
		}
		_, loadErr = in.Load(func(done, total int64) {})
		return ui.LoadError{Err: loadErr}
	}
	_, errOut, code := run(t, "", path)
	want := path + ":1:6: binary data (byte 0x00)"
	if loadErr == nil || !strings.HasPrefix(loadErr.Error(), want) || code != exitBadInput {
		t.Errorf("the loading screen's error %v, status %d (stderr %q); want %s..., status %d", loadErr, code, errOut, want, exitBadInput)
	}
}
