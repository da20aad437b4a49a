package ui

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/session"
)

// writeRun appends batches [first, first+n) of a run to w: 1,024
// trajectories a batch, 8 per prompt, shaped like the sample experiment's
// lines (three metadata objectives, a short response).
func writeRun(w *bufio.Writer, rng *rand.Rand, first, n int) {
	for b := first; b < first+n; b++ {
		for i := range 1024 {
			fmt.Fprintf(w, `{"id":"s%d-p%03d-c%d","batch":%d,"group":"p%03d","step_count":%d,"done":true,"response":"... The answer is %d.","metadata":{"accuracy":%d,"safety":%.3f,"response_length":%d}}`+"\n",
				b, i/8, i%8, b, i/8, rng.IntN(12), rng.IntN(100), rng.IntN(2), rng.Float64(), 100+rng.IntN(900))
		}
	}
}

// peakRSS returns the process's peak resident set size in MiB (Linux), 0
// when unknown.
func peakRSS() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkFollow1M follows a run of 1,000 batches x 1,024 trajectories
// (1M, about 190 MB of JSONL) to its end in the dashboard, as
// `rewardlens --follow` does, then appends one batch per iteration to the
// file: the time measured is the dashboard's handling of the update that
// brings it (Append, Recompute of that batch, trends and health, the
// header, status and active tab refreshed, and the next frame drawn).
// "peak-RSS-MiB" is the process's peak resident set size, loading
// included; "load-s" the first reading and computing (the process's
// time per op mostly waits for the follower to see the batch).
func BenchmarkFollow1M(b *testing.B) { benchmarkFollow1M(b, setup.Config{}) }

// BenchmarkFollow1MEqualGroups is BenchmarkFollow1M in a layout whose
// groups are all of one size (verl's, setup.Config.EqualGroups): the
// status line checks the groups' sizes of every batch after each update.
func BenchmarkFollow1MEqualGroups(b *testing.B) {
	benchmarkFollow1M(b, setup.Config{EqualGroups: true})
}

// BenchmarkFollow1MLogged is BenchmarkFollow1M with a logged advantage
// (the safety objective's value, which no reward reproduces), the
// dashboard settled after the load (its health known, so that each update
// computes the trends and the health, and counts again the rows that
// differ from the log over the run).
func BenchmarkFollow1MLogged(b *testing.B) {
	benchmarkFollow1MSettled(b, setup.Config{LoggedAdvantage: "safety"}, true)
}

// benchmarkFollow1M is BenchmarkFollow1M with cfg.
func benchmarkFollow1M(b *testing.B, cfg setup.Config) { benchmarkFollow1MSettled(b, cfg, false) }

// benchmarkFollow1MSettled is benchmarkFollow1M, the dashboard settled
// after the load (Settle) when settled.
func benchmarkFollow1MSettled(b *testing.B, cfg setup.Config, settled bool) {
	path := filepath.Join(b.TempDir(), "run.jsonl")
	rng := rand.New(rand.NewPCG(3, 4))
	appendBatches(b, path, rng, 0, 1000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	in := Input{Source: path, Config: cfg, Follow: func(hooks StreamHooks) (*loaders.Result, <-chan loaders.Update, error) {
		return loaders.Follow(ctx, []string{path}, loaders.FollowOptions{Options: loaders.Options{Pick: hooks.Pick}, Poll: 10 * time.Millisecond, Each: hooks.Each})
	}}
	lm := newLoadingModel(in, true)
	lm.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	next, _ := lm.Update(lm.load())
	m, ok := next.(*Model)
	if !ok {
		b.Fatalf("the load failed: %v", lm.err)
	}
	if settled {
		m.Settle()
	}
	m.Session().Findings()
	m.View()
	load := time.Since(start)
	batch := 1000
	var times []time.Duration // per appended batch
	for b.Loop() {
		appendBatches(b, path, rng, batch, 1)
		batch++
		// The batch may come in several updates: each is timed.
		var handling time.Duration
		for got := 0; got < 1024; {
			msg := m.live.wait()().(liveMsg)
			got += len(msg.u.Trajectories)
			t0 := time.Now()
			m.Update(msg)
			m.View()
			handling += time.Since(t0)
		}
		times = append(times, handling)
		if got := len(m.Session().Result.Ranking.Batches); got != batch {
			b.Fatalf("%d batches shown, want %d", got, batch)
		}
	}
	// The median is the usual cost; the maximum is the update that finds
	// the arrays full and moves them to larger ones (amortised: every 25%
	// of growth or so).
	b.Logf("update times: %v", times)
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "median-update-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1e3, "max-update-ms")
	b.ReportMetric(peakRSS(), "peak-RSS-MiB")
	b.ReportMetric(load.Seconds(), "load-s")
	checkLiveResult(b, m.Session())
}

// checkLiveResult fails b unless the live result's last batch is what
// computing it from scratch gives.
func checkLiveResult(b *testing.B, s *session.Session) {
	last := s.Result.Ranking.Batches[len(s.Result.Ranking.Batches)-1]
	var ts []scoring.Trajectory
	for _, i := range last.Members {
		t := *s.Trajectories.At(i)
		if t.Lean {
			full, err := loaders.Reread(&t, nil)
			if err != nil {
				b.Fatal(err)
			}
			t = full
		}
		ts = append(ts, t)
	}
	want := engine.Evaluate(s.Computer.Scorer, ts).Compute(s.Result.Options)
	for j, i := range last.Members {
		if s.Result.Rewards[i] != want.Rewards[j] {
			b.Fatalf("reward %d of the last batch: %v, want %v", j, s.Result.Rewards[i], want.Rewards[j])
		}
	}
}

// appendBatches appends n batches from first to the file path.
func appendBatches(b *testing.B, path string, rng *rand.Rand, first, n int) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	writeRun(w, rng, first, n)
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}
