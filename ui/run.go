package ui

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/loaders"
)

// Input tells the dashboard what to open.
type Input struct {
	Source   string                                                          // "sample" or the file names, for the header
	Config   engine.Config                                                   // as configured, before InferObjectives
	Load     func(progress func(done, total int64)) (*loaders.Result, error) // reads the inputs; calls progress as bytes are read
	Warnings []string                                                        // shown in the status line
	Health   engine.HealthConfig                                             // the health checks' settings
	HVRef    []float64                                                       // the hypervolume reference, nil for the default
	// Follow, when not nil, reads the inputs instead of Load and follows
	// them (loaders.Follow): the dashboard shows the updates as they come
	// (live.go). The follower is stopped by the caller's context.
	Follow func(progress func(done, total int64)) (*loaders.Result, <-chan loaders.Update, error)
}

// Run opens the dashboard on in, full screen: a loading screen with a
// progress bar while in.Load reads, then the tabs. It returns when the user
// quits or ctx ends, with the error that stopped the load, if any (the
// loading screen shows it first). Colours follow the terminal's background
// and NO_COLOR.
func Run(ctx context.Context, in Input) error {
	return run(ctx, in)
}

// run is Run with more options for the program: tests give it an input
// and an output that are no terminal.
func run(ctx context.Context, in Input, opts ...tea.ProgramOption) error {
	m := newLoadingModel(in, os.Getenv("NO_COLOR") != "")
	final, err := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, opts...)...).Run()
	if err != nil {
		return err
	}
	if l, ok := final.(*loadingModel); ok {
		return l.err
	}
	return nil
}

// openSession builds the session the dashboard shows from what Load read:
// the computer for cfg, a pareto config's objectives inferred from the
// first trajectory, with the caller's warnings and the skipped lines as
// warnings. (The invalid trajectories are counted by the status line, from
// the current result.)
func openSession(source string, cfg engine.Config, res *loaders.Result, warnings []string) (*Session, error) {
	if len(res.Trajectories) == 0 {
		return nil, errors.New("no trajectories to show")
	}
	cfg = cfg.InferObjectives(&res.Trajectories[0])
	c, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	s := NewSession(source, res.Trajectories, c)
	s.Config = cfg
	s.Warnings = append(s.Warnings, warnings...)
	if w := duplicateWarning(res.Trajectories); w != "" {
		s.Warnings = append(s.Warnings, w)
	}
	if res.Skipped > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("skipped %d malformed lines (the first: %v)", res.Skipped, res.SkipReasons[0]))
	}
	return s, nil
}
