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

	"github.com/rewardlens/rewardlens/cmd"
	"github.com/rewardlens/rewardlens/internal/output"
)

// main ends the run's context on the first SIGINT or SIGTERM, which stops
// a load at its next read, an output before it is committed, and the
// dashboard with the terminal restored; a second signal ends the process
// at once, as it would by default, leaving no temporary file behind.
func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-signals
		cancel(cmd.Interrupted{Signal: sig})
		sig = <-signals
		output.RemoveTemporaries()
		status := 130
		if s, ok := sig.(syscall.Signal); ok {
			status = 128 + int(s)
		}
		os.Exit(status)
	}()
	os.Exit(cmd.Main(ctx, os.Args[1:], cmd.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
