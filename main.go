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
)

// main ends the run's context on the first SIGINT or SIGTERM, which stops
// a load at its next read and the dashboard with the terminal restored;
// a second signal ends the process at once, as it would by default.
func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-signals
		signal.Stop(signals)
		cancel(cmd.Interrupted{Signal: sig})
	}()
	os.Exit(cmd.Main(ctx, os.Args[1:], cmd.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
