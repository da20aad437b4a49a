package compare

import (
	"context"
	"runtime/trace"
	"slices"
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/internal/testkit"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/internal/chart"
	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// benchGrid is the scatter's grid in a tab of 140x45, where the job
// counts the points.
func benchGrid(ranges [2][2]float64) chart.Grid { return newFrame(140, 45, ranges).Grid }

// BenchmarkCompare1M measures what the first visit of the Compare tab
// computes off the event loop on 1M trajectories in one batch, A pareto
// and B grpo, at the dashboard's collector pace: method B's result, the
// comparison shown first (compare), then its ranking (ranked).
func BenchmarkCompare1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	a := s.Result
	opts := a.Options
	opts.Method = engine.GRPO
	defer gcpace.Steady()()
	var resultB, comparison, ranking time.Duration
	for b.Loop() {
		start := time.Now()
		r := s.Evaluation.Compute(opts)
		computed := time.Now()
		buf := new(agreement.Buffers)
		v := compare(a, r, 0, engine.GRPO, known{}, buf, benchGrid)
		compared := time.Now()
		ranked(v, buf)
		resultB, comparison, ranking = resultB+computed.Sub(start), comparison+compared.Sub(computed), ranking+time.Since(compared)
	}
	b.ReportMetric(float64(resultB.Milliseconds())/float64(b.N), "ms-resultB")
	b.ReportMetric(float64(comparison.Milliseconds())/float64(b.N), "ms-compare")
	b.ReportMetric(float64(ranking.Milliseconds())/float64(b.N), "ms-rank")
}

// BenchmarkCompareSwitch1M measures what a switch of method A while the
// Compare tab is shown computes off the event loop on 1M trajectories in
// one batch, B grpo: the comparison of each of A absolute, relative and
// grpo (B itself) with B, each knowing the comparison before it, as the
// tab does.
func BenchmarkCompareSwitch1M(b *testing.B) {
	results, resultB, last, buf := switchBench(b)
	defer gcpace.Steady()()
	for b.Loop() {
		for _, m := range []engine.Method{engine.Absolute, engine.Relative, engine.GRPO} {
			last = ranked(compare(results[m], resultB, 0, engine.GRPO, last.known, buf, benchGrid), buf)
		}
	}
}

// BenchmarkRankSwitch1M measures the ranking job alone of a switch of
// method A while the Compare tab is shown, on 1M trajectories in one
// batch, B grpo: each of A absolute, relative and grpo (B itself) ranked
// knowing the comparison before it (B's side and collapse counts), the
// comparison of the values before it not timed, the arrays replaced
// given back as the tab gives them. cpu-ms/op is the
// process's CPU time over the rankings, cores its ratio to their wall
// time: how many cores the job keeps busy (on a machine loaded by other
// work, the trace's region "rank" tells it better: the goroutines the
// job keeps running).
func BenchmarkRankSwitch1M(b *testing.B) {
	results, resultB, last, buf := switchBench(b)
	defer gcpace.Steady()()
	b.ReportAllocs()
	var cpu, wall time.Duration
	for b.Loop() {
		for _, m := range []engine.Method{engine.Absolute, engine.Relative, engine.GRPO} {
			b.StopTimer()
			v := compare(results[m], resultB, 0, engine.GRPO, last.known, buf, benchGrid)
			buf.Recycle(nil, last.cmp.ByA, last.cmp.ByB)
			b.StartTimer()
			start, before := time.Now(), testkit.CPUTime()
			var next compared
			trace.WithRegion(context.Background(), "rank", func() { next = ranked(v, buf) })
			cpu, wall = cpu+testkit.CPUTime()-before, wall+time.Since(start)
			// What the tab gives back once the ranking is shown: the
			// replaced side of A.
			buf.Recycle(slices.DeleteFunc(last.sides[:], func(s *agreement.Side) bool { return slices.Contains(next.sides[:], s) }))
			last = next
		}
	}
	testkit.ReportCPU(b, cpu)
	b.ReportMetric(cpu.Seconds()/wall.Seconds(), "cores")
}

// switchBench is what a switch benchmark starts from: the results of A
// absolute, relative and grpo on 1M trajectories in one batch, B's
// (grpo), and the comparison of the session's result with B, ranked.
func switchBench(b *testing.B) (results map[engine.Method]*engine.Result, resultB *engine.Result, last compared, buf *agreement.Buffers) {
	s := uitest.SyntheticSession(b, 1_000_000)
	opts := s.Result.Options
	results = map[engine.Method]*engine.Result{}
	for _, m := range []engine.Method{engine.Absolute, engine.Relative, engine.GRPO} {
		opts.Method = m
		results[m] = s.Evaluation.Compute(opts)
	}
	resultB = results[engine.GRPO]
	buf = new(agreement.Buffers)
	return results, resultB, ranked(compare(s.Result, resultB, 0, engine.GRPO, known{}, buf, benchGrid), buf), buf
}

// BenchmarkSwitchPath1M measures what a switch of method A while the
// Compare tab is shown computes off the event loop after A's rewards, on
// 1M trajectories in one batch, B grpo: the comparison (compare, with the
// points counted on the grid) and its ranking, for each of A
// pareto-crowding, gdpo, rpp-baseline and rloo-whitened (the methods the
// dashboard script cycles through), each knowing the comparison before
// it, the arrays replaced given back as the tab gives them. cpu-ms/op is
// the process's CPU time over the four switches; cpu-ms-compare/op and
// cpu-ms-rank/op its two jobs' shares.
func BenchmarkSwitchPath1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	opts := s.Result.Options
	results := map[engine.Method]*engine.Result{}
	methods := []engine.Method{engine.GRPO}
	for _, m := range testkit.SwitchMethods {
		methods = append(methods, engine.Method(m))
	}
	for _, m := range methods {
		opts.Method = m
		results[m] = s.Evaluation.Compute(opts)
	}
	resultB := results[engine.GRPO]
	buf := new(agreement.Buffers)
	last := ranked(compare(s.Result, resultB, 0, engine.GRPO, known{}, buf, benchGrid), buf)
	defer gcpace.Steady()()
	b.ReportAllocs()
	var compared, ranking, rankingWall time.Duration
	for b.Loop() {
		for _, m := range methods[1:] {
			before := testkit.CPUTime()
			v := compare(results[m], resultB, 0, engine.GRPO, last.known, buf, benchGrid)
			buf.Recycle(nil, last.cmp.ByA, last.cmp.ByB)
			middle, start := testkit.CPUTime(), time.Now()
			next := ranked(v, buf)
			compared, ranking, rankingWall = compared+middle-before, ranking+testkit.CPUTime()-middle, rankingWall+time.Since(start)
			buf.Recycle(slices.DeleteFunc(last.sides[:], func(s *agreement.Side) bool { return slices.Contains(next.sides[:], s) }))
			last = next
		}
	}
	perOp := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 / float64(b.N) }
	testkit.ReportCPU(b, compared+ranking)
	b.ReportMetric(perOp(compared), "cpu-ms-compare/op")
	b.ReportMetric(perOp(ranking), "cpu-ms-rank/op")
	b.ReportMetric(ranking.Seconds()/rankingWall.Seconds(), "cores-rank")
}
