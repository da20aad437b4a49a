package session_test

import (
	"fmt"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/loaders"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
	"github.com/rewardlens/rewardlens/ui/session"
)

// BenchmarkFollowFiltered1M times what the dashboard does of an update
// while following with the group filter on (on accuracy): a new batch of
// 1,024 trajectories in groups of 8 onto the run of
// BenchmarkPromptsFirstFrame1M (2^20 trajectories over 500 steps), the
// newest batch then shown. loop is what the event loop does; total adds
// what the health job does in the background for the trends when the
// update did not bring them up to date.
func BenchmarkFollowFiltered1M(b *testing.B) { benchmarkFollow(b, "accuracy", "") }

// BenchmarkFollow1M is BenchmarkFollowFiltered1M without the filter.
func BenchmarkFollow1M(b *testing.B) { benchmarkFollow(b, "", "") }

// BenchmarkFollowUnfinished1M is BenchmarkFollow1M with the updates read
// of a file that ends in an unfinished line, as while a run writes it:
// the follower notes it before and after each update (ui/live.go), for
// the health graded provisionally and the log's checks.
func BenchmarkFollowUnfinished1M(b *testing.B) { benchmarkFollow(b, "", "run.jsonl") }

// benchmarkFollow is BenchmarkFollowFiltered1M with the filter on
// objective ("" for none), the updates read of the file unfinished, said
// to end in an unfinished line ("" for none).
func benchmarkFollow(b *testing.B, objective, unfinished string) {
	ts, cfg := uitest.PromptRun()
	c, err := engine.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	s := session.NewSession("bench", ts, c)
	ts = nil
	if err := s.SetFilterGroups(objective); err != nil {
		b.Fatal(err)
	}
	health := func() {
		if !s.HealthReady() {
			j := s.HealthJob()
			j.Run()
			s.HealthDone(j)
		}
	}
	health()
	var unfinishedLines []string
	if unfinished != "" {
		unfinishedLines = []string{unfinished}
	}
	live := live.NewOf(c.Scorer, s.Unfiltered(), func(i int) string { return s.Trajectories.At(i).Source })
	step := int64(500)
	update := func() loaders.Update {
		u := loaders.Update{Trajectories: make([]scoring.Trajectory, 1024)}
		for i := range u.Trajectories {
			acc := float64((i*2654435761)>>7%10) / 10
			u.Trajectories[i] = scoring.Trajectory{LoaderState: scoring.LoaderState{Source: unfinished}, ID: fmt.Sprint(step, "-", i), Batch: step, Group: fmt.Sprintf("prompt %05d", i/8), Done: true,
				Metadata: map[string]any{"accuracy": float64(int(acc + 0.5)), "x": acc}}
		}
		step++
		return u
	}
	for _, total := range []bool{false, true} {
		name := "loop"
		if total {
			name = "total"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				u := update()
				b.StartTimer()
				s.SetStillWritten(unfinishedLines)
				s.ApplyUpdate(live, u)
				s.SetUnfinishedLines(unfinishedLines)
				s.SetBatch(len(s.Result.Ranking.Batches) - 1)
				if !total {
					b.StopTimer()
				}
				health()
				b.StartTimer()
			}
		})
	}
}
