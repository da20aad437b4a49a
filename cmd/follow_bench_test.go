package cmd

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/internal/testkit"
)

// burstLines writes the data of scripts/bench-follow.sh (seed_pareto.py
// gen: groups of 8, two objectives, steps of perStep lines) to dir:
// first.jsonl holds step 0, burst.jsonl the n lines of steps 1 to last,
// closing.jsonl one line of step last+1, which ends step last.
func burstLines(b *testing.B, dir string, n, perStep int) (last int) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var first, burst, closing strings.Builder
	for i := range n + perStep + 1 {
		out, step := &burst, (i-perStep)/perStep+1
		switch {
		case i < perStep:
			out, step = &first, 0
		case i >= n+perStep:
			out, step = &closing, (n+perStep-1)/perStep+1
		}
		fmt.Fprintf(out, `{"id": "t%d", "batch": %d, "group": "g%d", "step_count": %d, "response": "The answer is %d.", "metadata": {"o1": %v, "o2": %v}}`+"\n",
			i, step, i/8, 1+rng.IntN(15), i%97, rng.Float64(), rng.Float64())
	}
	for name, text := range map[string]string{"first": first.String(), "burst": burst.String(), "closing": closing.String()} {
		if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return (n + perStep - 1) / perStep
}

const (
	benchBurstLines = 400_000
	benchBurstStep  = 1024
)

// BenchmarkStatsFollowBurst is scripts/bench-follow.sh's burst in the
// process: stats --follow on a file of one step, the time from the
// append of 400k lines to the line of their last step. Against
// BenchmarkStatsBurst (stats on the same lines), with -cpuprofile, it
// tells where the follower's time goes.
func BenchmarkStatsFollowBurst(b *testing.B) {
	dir := b.TempDir()
	last := burstLines(b, dir, benchBurstLines, benchBurstStep)
	first, err := os.ReadFile(filepath.Join(dir, "first.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var cpu time.Duration
	for i := range b.N {
		b.StopTimer()
		path := filepath.Join(dir, fmt.Sprintf("run%d", i), "run.jsonl")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, first, 0o644); err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut testkit.SyncBuffer
		done := make(chan int, 1)
		go func() {
			done <- Main(ctx, []string{"stats", "--follow", path}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
		}()
		awaitOutput(b, &out, "step 0 ")
		file, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		cpu0 := testkit.CPUTime()
		// Copied from the files, as cat does, so that the burst's text
		// is not held in the heap the follower's collector paces.
		for _, name := range []string{"burst.jsonl", "closing.jsonl"} {
			appendFile(b, file, filepath.Join(dir, name))
		}
		awaitOutput(b, &out, fmt.Sprintf("step %d ", last))
		b.StopTimer()
		cpu += testkit.CPUTime() - cpu0
		file.Close()
		cancel()
		<-done
		if strings.Contains(errOut.String(), "error") {
			b.Fatalf("stderr: %s", errOut.String())
		}
		if err := os.RemoveAll(filepath.Dir(path)); err != nil {
			b.Fatal(err)
		}
	}
	testkit.ReportCPU(b, cpu)
}

// BenchmarkStatsBurst is stats on BenchmarkStatsFollowBurst's burst.
func BenchmarkStatsBurst(b *testing.B) {
	dir := b.TempDir()
	burstLines(b, dir, benchBurstLines, benchBurstStep)
	path := filepath.Join(dir, "burst.jsonl")
	b.ResetTimer()
	cpu0 := testkit.CPUTime()
	for range b.N {
		var out, errOut strings.Builder
		if code := Main(context.Background(), []string{"stats", path}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}); code != 0 {
			b.Fatalf("status %d: %s", code, errOut.String())
		}
	}
	testkit.ReportCPU(b, testkit.CPUTime()-cpu0)
}

// appendFile appends the file at path to to.
func appendFile(b *testing.B, to *os.File, path string) {
	b.Helper()
	from, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer from.Close()
	if _, err := io.Copy(to, from); err != nil {
		b.Fatal(err)
	}
}

// awaitOutput waits until out holds want, polling as bench-follow.sh
// does.
func awaitOutput(b *testing.B, out *testkit.SyncBuffer, want string) {
	b.Helper()
	for deadline := time.Now().Add(5 * time.Minute); !strings.Contains(out.String(), want); {
		if time.Now().After(deadline) {
			b.Fatalf("no %q in the output", want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
