package compare

import (
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/agreement"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// BenchmarkCompare1M measures the Compare tab's computation off the event
// loop on 1M trajectories in one batch, A pareto and B grpo, with the
// dashboard's collector pace.
func BenchmarkCompare1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	a := s.Result
	opts := a.Options
	opts.Method = engine.GRPO
	r := s.Evaluation.Compute(opts)
	defer gcpace.Steady()() // as the dashboard collects
	var tb, tc, tcol, tcl time.Duration
	for b.Loop() {
		t := time.Now()
		s.Evaluation.Compute(opts)
		t0 := time.Now()
		tb += t0.Sub(t)
		c := agreement.CompareRewards(a, r, 0)
		t1 := time.Now()
		diagnose.Collapse(a, &a.Ranking.Batches[0])
		diagnose.Collapse(r, &r.Ranking.Batches[0])
		t2 := time.Now()
		v := compared{cmp: c}
		v.classify()
		tc, tcol, tcl = tc+t1.Sub(t0), tcol+t2.Sub(t1), tcl+time.Since(t2)
	}
	n := float64(b.N) * 1e6
	b.ReportMetric(float64(tb)/n, "ms-resultB")
	b.ReportMetric(float64(tc)/n, "ms-agreement")
	b.ReportMetric(float64(tcol)/n, "ms-collapse")
	b.ReportMetric(float64(tcl)/n, "ms-classify")
}
