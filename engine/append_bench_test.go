package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// runTrajectories returns batches x perBatch trajectories of steps first..,
// 8 completions per prompt (the same 128 prompts every step), with three
// objectives a, b, c in their metadata.
func runTrajectories(rng *rand.Rand, first, batches, perBatch int) []Trajectory {
	ts := make([]Trajectory, 0, batches*perBatch)
	for b := first; b < first+batches; b++ {
		for i := range perBatch {
			ts = append(ts, Trajectory{
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

// followedRun returns the random source, the computer (grpo, three
// objectives) and the evaluation and result of a run of batches x perBatch
// trajectories, as a follower holds them before the next batch comes.
func followedRun(b *testing.B) (*rand.Rand, *RewardComputer, *Evaluation, *Result) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	c, err := New(Config{Method: string(GRPO), Objectives: []ObjectiveConfig{{Name: "a", Expr: "a"}, {Name: "b", Expr: "b"}, {Name: "c", Expr: "c", Goal: "min"}}})
	if err != nil {
		b.Fatal(err)
	}
	ev := Evaluate(c.Scorer, runTrajectories(rng, 0, batches, perBatch))
	return rng, c, ev, ev.Compute(c.Options)
}

// BenchmarkAppendBatch follows a run of 1,000 batches x 1,024 trajectories
// and appends one more batch per iteration: Append evaluates it and
// Recompute computes it (grpo, three objectives), reusing everything else;
// "trends-ms" adds what the dashboard then derives from the whole result
// (the trends of every batch and the health checks).
func BenchmarkAppendBatch(b *testing.B) {
	rng, c, ev, res := followedRun(b)
	points := res.Trends(nil)
	Health(res, points, HealthConfig{})
	next := batches
	var trends time.Duration
	for b.Loop() {
		b.StopTimer()
		batch := runTrajectories(rng, next, 1, perBatch)
		next++
		b.StartTimer()
		ev = ev.Append(c.Scorer, batch)
		prev := res
		res = ev.Recompute(prev)
		b.StopTimer()
		start := time.Now()
		points = res.TrendsSince(prev, points, nil)
		Health(res, points, HealthConfig{})
		trends += time.Since(start)
		b.StartTimer()
	}
	b.ReportMetric(float64(trends.Microseconds())/1e3/float64(b.N), "trends-ms/op")
}

// BenchmarkAppendQuarterBatch is BenchmarkAppendBatch with each batch
// coming in four parts, as lines streamed while a step is written: the
// parts after the first join a batch already computed, whose old entries
// change, so the result's and the ranking's arrays are copied (the
// previous result must stay as it was), 40 bytes a trajectory.
func BenchmarkAppendQuarterBatch(b *testing.B) {
	rng, c, ev, res := followedRun(b)
	next, part := batches, 0
	var batch []Trajectory
	for b.Loop() {
		if part == 0 {
			b.StopTimer()
			batch = runTrajectories(rng, next, 1, perBatch)
			next++
			b.StartTimer()
		}
		ev = ev.Append(c.Scorer, batch[part*perBatch/4:(part+1)*perBatch/4])
		res = ev.Recompute(res)
		part = (part + 1) % 4
	}
}
