package compare

import (
	"testing"
	"time"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/gcpace"
	"github.com/rewardlens/rewardlens/ui/internal/uitest"
)

// BenchmarkCompare1M measures what the first visit of the Compare tab
// computes off the event loop on 1M trajectories in one batch, A pareto
// and B grpo, at the dashboard's collector pace: method B's result, then
// the comparison (compare).
func BenchmarkCompare1M(b *testing.B) {
	s := uitest.SyntheticSession(b, 1_000_000)
	a := s.Result
	opts := a.Options
	opts.Method = engine.GRPO
	defer gcpace.Steady()()
	var resultB, comparison time.Duration
	for b.Loop() {
		start := time.Now()
		r := s.Evaluation.Compute(opts)
		computed := time.Now()
		compare(a, r, 0, engine.GRPO, [2]collapseOf{})
		resultB, comparison = resultB+computed.Sub(start), comparison+time.Since(computed)
	}
	b.ReportMetric(float64(resultB.Milliseconds())/float64(b.N), "ms-resultB")
	b.ReportMetric(float64(comparison.Milliseconds())/float64(b.N), "ms-compare")
}
