// Command rewardlens computes and shows RL rewards: absolute, GRPO, RLOO,
// Pareto, Pareto with crowding and GDPO, over batches of trajectories.
//
//	rewardlens [flags] [FILE...]         the dashboard (the embedded sample without FILE)
//	rewardlens compute [flags] FILE...   rewards per trajectory, JSONL/CSV/JSON
//	rewardlens stats [flags] FILE...     per-batch statistics
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rewardlens/rewardlens/cmd"
	"github.com/rewardlens/rewardlens/internal/output"
)

// duplicateSignalInterval is how soon after the first signal another is
// the same interrupt delivered twice, not a second one: timeout(1) without
// --foreground sends its signal to the command and again to the command's
// process group, so the two arrive together.
const duplicateSignalInterval = 500 * time.Millisecond

// main ends the run's context on the first SIGINT or SIGTERM, which stops
// a load at its next read, an output before it is committed, and the
// dashboard with the terminal restored; a second signal, at least
// duplicateSignalInterval after the first, ends the process at once, as it
// would by default, leaving no temporary file behind.
func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go endOnSignals(signals, cancel, os.Exit)
	// A closed standard output (| head) is a write's EPIPE, not the
	// runtime's SIGPIPE exit: cmd.Main ends with 141 as that exit would,
	// or with a health ALERT's 3, said, which a pipeline must not lose.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	os.Exit(cmd.Main(ctx, os.Args[1:], cmd.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

// endOnSignals cancels the run with the first signal of signals, then
// calls exit with 128 + the signal's number on the first signal that comes
// duplicateSignalInterval or more after it; the ones before are ignored.
func endOnSignals(signals <-chan os.Signal, cancel context.CancelCauseFunc, exit func(int)) {
	sig := <-signals
	cancel(cmd.Interrupted{Signal: sig})
	first := time.Now()
	for sig = range signals {
		if time.Since(first) >= duplicateSignalInterval {
			break
		}
	}
	output.RemoveTemporaries()
	status := 130
	if s, ok := sig.(syscall.Signal); ok {
		status = 128 + int(s)
	}
	exit(status)
}
