package cmd

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/internal/configfile"
	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/layouts"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/prompts"
	sampledata "github.com/rewardlens/rewardlens/sample_data"
	"github.com/rewardlens/rewardlens/ui"
	"github.com/rewardlens/rewardlens/ui/session"
)

// runDashboard opens the dashboard on the files, or on the embedded sample
// experiment (with its config) when there are none; with follow, it follows
// the files until the dashboard quits.
func runDashboard(ctx context.Context, cmd *cobra.Command, s *settings, health *healthFlags, follow bool, args []string) error {
	if follow && len(args) == 0 {
		return usagef("--follow: give the files or directories to follow")
	}
	if follow && s.maxRows > 0 {
		return usagef("--max-rows is not for --follow, which reads on as the run writes")
	}
	var fallback *setup.Config
	source := strings.Join(args, ", ")
	if len(args) == 0 {
		sampleCfg, err := sampleConfig()
		if err != nil {
			return err
		}
		fallback, source = &sampleCfg, "sample"
	}
	resolve, followLog := s.resolve, io.Writer(nil) // followLog: where the waits are said
	if follow {
		resolve, followLog = s.resolveFollowed, cmd.ErrOrStderr()
	}
	cfg, opts, layout, rowsCheck, err := resolve(ctx, cmd.Flags(), fallback, args, cmd.InOrStdin(), followLog)
	if lineErr := (*loaders.LineError)(nil); errors.As(err, &lineErr) {
		// The layout's look at the first records found the data bad (a
		// binary file, a malformed first line): said where the load says
		// what it finds, on the loading screen.
		return s.dashboardError(runUI(ctx, ui.Input{Source: source, Load: func(func(done, total int64)) (*loaders.Result, error) { return nil, err }}))
	}
	if err != nil {
		return err
	}
	s.sayWarnings(cmd.ErrOrStderr())
	healthCfg, err := health.healthConfig()
	if err != nil {
		return err
	}
	sessions := layouts.NewVerlSessions(cfg)
	in := ui.Input{
		Source: source,
		Config: cfg,
		Layout: layout,
		Health: healthCfg,
		HVRef:  health.hvRef,
		LayoutWarnings: func(rowCap scoring.RowCap, linesLeftOut map[int64]string) func(*engine.Result, []int) []string {
			return sessions.With(rowsCheck.With(layouts.StepWarnings(cfg, rowCap, linesLeftOut)))
		},
		LayoutWarningsRead: layouts.WarningsRead(cfg),
	}
	if note := layouts.RunNoteOf(cfg); note != nil {
		in.RunNote = &session.RunNote{Judge: note.Judge}
	}
	if len(args) == 0 {
		in.Load = loadSample
	} else {
		// Files are evaluated as they are read and kept lean: a large
		// input's responses and metadata are never all in memory.
		in.Stream = func(hooks ui.StreamHooks) (*loaders.Result, error) {
			opts.Progress, opts.Pick = hooks.Progress, hooks.Pick
			return loaders.Stream(args, opts, checkedEach(rowsCheck, sessions, hooks.Each))
		}
	}
	if follow {
		// The follower stops when the dashboard quits.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		// The first reading streams too.
		in.Follow = func(hooks ui.StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
			fo := loaders.FollowOptions{Options: opts, Each: checkedEach(rowsCheck, sessions, hooks.Each), UnendedWait: unendedWait, Apart: layouts.FollowApart(cfg, opts)}
			fo.Progress, fo.Pick = hooks.Progress, hooks.Pick
			first, updates, err := loaders.Follow(ctx, args, fo)
			if err != nil {
				return first, updates, err
			}
			return first, checkedUpdates(ctx, sessions, updates), nil
		}
	}
	// Once loaded, the dashboard holds its data for long: the collector
	// is paced for that until it quits; when following, by phase, as
	// stats --follow is (less CPU per line followed).
	restoreGC := func() {}
	pace := gcpace.Steady
	if in.Follow != nil {
		pace = gcpace.Following
	}
	in.Opened = func() { restoreGC = pace() }
	defer func() { restoreGC() }()
	return s.dashboardError(runUI(ctx, in))
}

// checkedEach is each, which takes the rows a load reads, adding them to
// check and sessions first (layouts.RowsCheck, layouts.VerlSessions: their
// warnings are then of the rows read, none read again); each itself when
// there is nothing to check.
func checkedEach(check *layouts.RowsCheck, sessions *layouts.VerlSessions, each func([]scoring.Trajectory) error) func([]scoring.Trajectory) error {
	if check == nil && sessions == nil {
		return each
	}
	return func(ts []scoring.Trajectory) error {
		check.Add(ts)
		sessions.Add(ts)
		return each(ts)
	}
}

// checkedUpdates is updates, each passed on once its rows are added to
// sessions (layouts.VerlSessions), as checkedEach adds the first
// reading's: the dashboard applies the updates in its own loop. A file
// read again forgets its sessions when its new rows come, as the
// dashboard keeps an emptied file's rows until then (ui's refilled).
// Once ctx is done (the dashboard quit) the updates are taken and
// dropped until the follower closes them. sessions nil: updates itself.
func checkedUpdates(ctx context.Context, sessions *layouts.VerlSessions, updates <-chan loaders.Update) <-chan loaders.Update {
	if sessions == nil {
		return updates
	}
	checked := make(chan loaders.Update)
	go func() {
		defer close(checked)
		var emptied []string
		for u := range updates {
			reloaded := append(emptied, u.Reloaded...)
			emptied = nil
			for _, path := range reloaded {
				switch {
				case slices.ContainsFunc(u.Trajectories, func(t scoring.Trajectory) bool { return t.Source == path }):
					sessions.Forget([]string{path})
				case !slices.Contains(emptied, path):
					emptied = append(emptied, path)
				}
			}
			sessions.Add(u.Trajectories)
			select {
			case checked <- u:
			case <-ctx.Done():
				u.Recycle()
			}
		}
	}()
	return checked
}

// runUI is ui.Run, a variable for the tests, which have no terminal.
var runUI = ui.Run

// dashboardError is the error the dashboard ended with, err, as the CLI
// says it: settings known to be bad once the data is read (--filter-groups,
// the objectives) are the user's (exit status 2), and the config file's
// at their line; so is what stopped the load (ui.LoadError: the inputs').
func (s *settings) dashboardError(err error) error {
	var (
		settings     session.SettingsError
		notObjective *prompts.NotAnObjectiveError
	)
	switch {
	case errors.As(err, &notObjective):
		return s.file.filterObjectiveError(err)
	case errors.As(err, &settings):
		if settings.Config != nil {
			if fileErr := s.file.checkValues(*settings.Config); fileErr != nil {
				return fileErr
			}
		}
		return inputError{err}
	case errors.As(err, new(ui.LoadError)):
		return inputError{err} // what compute says of the same inputs
	}
	return err
}

// sampleConfig reads the sample experiment's embedded config.
func sampleConfig() (setup.Config, error) {
	text, err := fs.ReadFile(sampledata.FS, sampledata.ConfigPath)
	if err != nil {
		return setup.Config{}, err
	}
	f, err := configfile.Parse(sampledata.ConfigPath, string(text))
	if err != nil {
		return setup.Config{}, inputError{err}
	}
	return f.Config, nil
}

// loadSample reads the embedded sample experiment.
func loadSample(progress func(done, total int64)) (*loaders.Result, error) {
	f, err := sampledata.FS.Open(sampledata.ExperimentPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	res, err := loaders.Read(f, sampledata.ExperimentPath, 0, loaders.Options{})
	if err == nil {
		progress(st.Size(), st.Size())
	}
	return res, err
}
