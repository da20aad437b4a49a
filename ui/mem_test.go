package ui

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/loaders"
)

// TestMemLoad loads the file $REWARDLENS_MEM_FILE as the dashboard's
// loading screen does, in the mode $REWARDLENS_MEM_MODE ("load", the
// default: Input.Load; "stream": Input.Stream; or "follow": Input.Follow,
// the follower stopped once the session is built), and prints the time,
// the process's peak resident set size and the heap the session keeps. It
// is skipped without the file: scripts/mem-1gib.sh runs it, one process
// per measure.
func TestMemLoad(t *testing.T) {
	path := os.Getenv("REWARDLENS_MEM_FILE")
	if path == "" {
		t.Skip("REWARDLENS_MEM_FILE is not set")
	}
	mode := os.Getenv("REWARDLENS_MEM_MODE")
	in := Input{Source: path, Load: func(progress func(done, total int64)) (*loaders.Result, error) {
		return loaders.Load([]string{path}, loaders.Options{Progress: progress})
	}}
	switch mode {
	case "", "load":
	case "stream":
		in.Stream = func(hooks StreamHooks) (*loaders.Result, error) {
			return loaders.Stream([]string{path}, loaders.Options{Progress: hooks.Progress, Pick: hooks.Pick}, hooks.Each)
		}
	case "follow":
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		in.Follow = func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
			return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Progress: hooks.Progress, Pick: hooks.Pick}, Each: hooks.Each})
		}
	default:
		t.Fatalf("unknown mode %q", mode)
	}
	start := time.Now()
	msg := newLoadingModel(in, true).load().(loadedMsg)
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	elapsed := time.Since(start)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("mode=%s trajectories=%d load-s=%.1f peak-RSS-MiB=%.0f heap-kept-MiB=%.0f\n",
		mode, msg.session.Trajectories.Len(), elapsed.Seconds(), peakRSS(), float64(ms.HeapAlloc)/(1<<20))
	runtime.KeepAlive(msg.session)
}
