package engine_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
	"github.com/rewardlens/rewardlens/health"
)

// runTrajectories returns batches x perBatch trajectories of steps first..,
// 8 completions per prompt (the same 128 prompts every step), with three
// objectives a, b, c in their metadata.
func runTrajectories(rng *rand.Rand, first, batches, perBatch int) []scoring.Trajectory {
	ts := make([]scoring.Trajectory, 0, batches*perBatch)
	for b := first; b < first+batches; b++ {
		for i := range perBatch {
			ts = append(ts, scoring.Trajectory{
				ID:        fmt.Sprintf("s%d-%d", b, i),
				Batch:     int64(b),
				Group:     fmt.Sprintf("p%03d", i/8),
				StepCount: int64(rng.IntN(16)),
				Done:      true,
				Metadata:  map[string]any{"a": rng.Float64(), "b": rng.Float64(), "c": float64(rng.IntN(5))},
			})
		}
	}
	return ts
}

// The size of the run the append benchmarks follow.
const batches, perBatch = 1000, 1024

// followedRun returns the random source, and the Live and result (grpo,
// three objectives) of a run of batches x perBatch trajectories, as a
// follower holds them before the next batch comes.
func followedRun(b *testing.B) (*rand.Rand, *live.Evaluation, *engine.Result) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	c, err := engine.New(setup.Config{Method: string(engine.GRPO), Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a"}, {Name: "b", Expr: "b"}, {Name: "c", Expr: "c", Goal: "min"}}})
	if err != nil {
		b.Fatal(err)
	}
	ts := runTrajectories(rng, 0, batches, perBatch)
	ev := engine.Evaluate(c.Scorer, ts)
	res := ev.Compute(c.Options)
	l := live.New(c.Scorer, ev, ts)
	return rng, l, res
}

// BenchmarkAppendBatch follows a run of 1,000 batches x 1,024 trajectories
// and appends one more batch per iteration: Live.Update evaluates it and
// Recompute computes it (grpo, three objectives), reusing everything else;
// "trends-ms" adds what the dashboard then derives from the whole result
// (the trends of every batch and the health checks). The distribution of
// the appends' times (Update and Recompute) is reported too: run it with
// -benchtime=200x, say, for the 99th percentile to mean something.
func BenchmarkAppendBatch(b *testing.B) {
	rng, l, res := followedRun(b)
	points := diagnose.Trends(res, nil)
	health.Findings(res, points, health.Config{})
	next := batches
	var trends time.Duration
	var times []time.Duration
	for b.Loop() {
		b.StopTimer()
		batch := runTrajectories(rng, next, 1, perBatch)
		next++
		b.StartTimer()
		t0 := time.Now()
		prev := res
		res = l.Update(nil, batch).Recompute(prev)
		times = append(times, time.Since(t0))
		b.StopTimer()
		start := time.Now()
		points = diagnose.TrendsSince(res, prev, points, nil)
		health.Findings(res, points, health.Config{})
		trends += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(trends.Microseconds())/1e3/float64(b.N), "trends-ms/op")
	reportLatencies(b, times)
}

// reportLatencies reports the median, 90th and 99th percentiles and the
// maximum of times, in milliseconds (nearest rank).
func reportLatencies(b *testing.B, times []time.Duration) {
	times = slices.Sorted(slices.Values(times))
	for _, q := range []struct {
		name string
		p    float64
	}{{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"max", 1}} {
		k := max(int(math.Ceil(q.p*float64(len(times))))-1, 0)
		b.ReportMetric(float64(times[k].Microseconds())/1e3, q.name+"-ms")
	}
}

// BenchmarkAppendQuarterBatch is BenchmarkAppendBatch with each batch
// coming in four parts, as lines streamed while a step is written: the
// parts after the first join a batch already computed, whose old entries
// change, so the result's and the ranking's arrays are copied (the
// previous result must stay as it was), 32 bytes a trajectory. The parts
// come partGap apart, as a follower polling its files delivers them.
func BenchmarkAppendQuarterBatch(b *testing.B) {
	rng, l, res := followedRun(b)
	next, part := batches, 0
	var batch []scoring.Trajectory
	var times []time.Duration
	for b.Loop() {
		b.StopTimer()
		if part == 0 {
			batch = runTrajectories(rng, next, 1, perBatch)
			next++
		}
		time.Sleep(partGap)
		b.StartTimer()
		t0 := time.Now()
		res = l.Update(nil, batch[part*perBatch/4:(part+1)*perBatch/4]).Recompute(res)
		times = append(times, time.Since(t0))
		part = (part + 1) % 4
	}
	reportLatencies(b, times)
}

// partGap is the time between the parts of a batch.
const partGap = 20 * time.Millisecond
