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

	"github.com/rewardlens/rewardlens/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
