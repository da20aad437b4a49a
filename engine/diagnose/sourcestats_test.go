package diagnose

import (
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/stats"
)

func TestSourceStatsSplit(t *testing.T) {
	ts := enginetest.SourceData(4, 60)
	c, err := engine.New(sourceConfig(engine.Absolute, engine.ScopeGroup))
	if err != nil {
		t.Fatal(err)
	}
	res := c.Compute(ts, engine.Absolute)
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		for _, ss := range SourceStatsOf(res, b) {
			var xs []float64
			for _, tr := range ts {
				if tr.Batch == b.Step && tr.Metadata["src"] == ss.Source {
					xs = append(xs, tr.Metadata["x"].(float64))
				}
			}
			names := []string{}
			for _, o := range ss.Objectives {
				names = append(names, o.Name)
			}
			want := map[string][]string{"a": {"x", "y"}, "b": {"x", "z"}}[ss.Source]
			if !slices.Equal(names, want) || ss.Trajectories != len(xs) || !near(ss.Objectives[0].Mean, stats.Mean(xs)) {
				t.Fatalf("batch %d source %s: objectives %v, %d trajectories, x mean %v; want %v, %d, %v", b.Step, ss.Source, names, ss.Trajectories, ss.Objectives[0].Mean, want, len(xs), stats.Mean(xs))
			}
			if ss.Source == "b" && ss.Objectives[0].Weight != 2 {
				t.Fatalf("source b's weight of x %v, want 2", ss.Objectives[0].Weight)
			}
		}
	}
}
