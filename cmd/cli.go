// Package cmd is rewardlens' command line: the dashboard (no subcommand),
// `compute` and `stats`, their shared settings flags and config file.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/loaders"
)

// Exit statuses.
const (
	exitOK       = 0
	exitFailure  = 1 // anything unexpected: a write error, a terminal error
	exitBadInput = 2 // bad usage or bad input
	// exitBrokenPipe is the status when the reader of standard output
	// or of an --out pipe closed it early: 128 + SIGPIPE, what the
	// runtime's SIGPIPE would give (main asks for EPIPE instead, to say
	// an ALERT first).
	exitBrokenPipe = 141
)

// stickyWriter is standard output keeping the first error of its writes,
// failing the ones after: a path that drops a write's error (cobra's help
// into a closed pipe) still ends as a failed write does.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// usageError marks an error as the user's: bad flags or arguments.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// IO is where a run reads and writes.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Main runs rewardlens with args (without the program name) and returns the
// exit status.
func Main(ctx context.Context, args []string, stdio IO) int {
	stdout := &stickyWriter{w: stdio.Stdout}
	stdio.Stdout = stdout
	root := newRootCommand(stdio)
	root.SetArgs(args)
	root.SetIn(stdio.Stdin)
	root.SetOut(stdio.Stdout)
	root.SetErr(stdio.Stderr)
	err := root.ExecuteContext(ctx)
	if err == nil && stdout.err != nil {
		err = stdout.err // a write whose error its path dropped (cobra's help)
	}
	if err == nil {
		return exitOK
	}
	if status, ok := reportInterrupted(ctx, err, stdio.Stderr); ok {
		return status
	}
	if errors.Is(err, syscall.EPIPE) && !errors.As(err, new(healthAlert)) {
		return exitBrokenPipe // the reader has all it wants (head): no error of ours
	}
	fmt.Fprintf(stdio.Stderr, "rewardlens: %s\n", textsafe.Line(err.Error()))
	return exitStatus(err)
}

// exitStatus is 2 for the user's mistakes (usage, input, settings), 3 for
// a health ALERT and 1 for anything else.
func exitStatus(err error) int {
	var (
		usage   usageError
		line    *loaders.LineError
		compile *scoring.CompileError
		input   inputError
		alert   healthAlert
	)
	switch {
	case errors.As(err, &usage), errors.As(err, &line), errors.As(err, &compile), errors.As(err, &input):
		return exitBadInput
	case errors.As(err, &alert):
		return exitHealthAlert
	}
	return exitFailure
}

// inputError marks an error about the inputs or the settings.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func newRootCommand(stdio IO) *cobra.Command {
	var (
		s      settings
		health healthFlags
		follow bool
	)
	root := &cobra.Command{
		Use:   "rewardlens [flags] [FILE...]",
		Short: "Inspect and compute RL rewards: absolute, GRPO, RLOO, Pareto, GDPO",
		Long: "rewardlens turns batches of trajectories into rewards (" + names(engine.AllMethods()) + `)
and shows them.

With no subcommand it opens the dashboard on the given files, or on the
embedded sample experiment when no file is given.`,
		Example: `  rewardlens                                   # the dashboard on the sample
  rewardlens --method grpo rollouts.jsonl      # the dashboard on your data
  rewardlens --follow runs/today/              # ... following the run live
  rewardlens compute --method pareto --out rewards.jsonl rollouts.jsonl
  rewardlens stats --format json rollouts.jsonl`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Without this, cobra takes a root command's first file for an
		// unknown subcommand.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDashboard(cmd.Context(), cmd, &s, &health, follow, args)
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	s.register(root.PersistentFlags())
	health.register(root.Flags(), false)
	root.Flags().BoolVarP(&follow, "follow", "f", false, "keep watching the files and directories: new batches appear as training writes them")
	s.registerCompletions(root)
	root.AddCommand(newComputeCommand(&s, stdio), newStatsCommand(&s, stdio), newPromptsCommand(&s, stdio))
	return root
}

// stdinOf returns the reader "-" means.
func stdinOf(stdio IO) io.Reader {
	if stdio.Stdin == nil {
		return os.Stdin
	}
	return stdio.Stdin
}
