package diagnose

import (
	"math"
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

// TestBatchStatsLeaveOutOtherSourcesObjectives checks that an objective's
// statistics over a batch range over the rows whose source has it: y
// (source a's only) summarises as source a's y does, z as source b's, x
// over both; a pair's correlation is over the rows having both (x and y:
// source a's), NaN for y and z, which no row has together. The engine
// holds 0 for another source's objective, which is no value of it.
func TestBatchStatsLeaveOutOtherSourcesObjectives(t *testing.T) {
	c, err := engine.New(sourceConfig(engine.GRPO, engine.ScopeGroup))
	if err != nil {
		t.Fatal(err)
	}
	res := c.Compute(enginetest.SourceData(7, 80), engine.GRPO)
	names := []string{}
	for _, o := range res.Objectives {
		names = append(names, o.Name)
	}
	if !slices.Equal(names, []string{"x", "y", "z"}) {
		t.Fatalf("objectives %v, want x y z", names)
	}
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		st := StatsOf(res, b)
		srcIndex := map[string]int{}
		for src, name := range res.Evaluation.SourceNames {
			srcIndex[name] = src
		}
		a := SourceBatchStats(res, b, srcIndex["a"])
		bs := SourceBatchStats(res, b, srcIndex["b"])
		if !sameSummary(st.Objectives[1].Summary, a.Objectives[1].Summary) || st.Objectives[1].Missing != 0 {
			t.Errorf("batch %d: y %+v (missing %d), want source a's %+v", b.Step, st.Objectives[1].Summary, st.Objectives[1].Missing, a.Objectives[1].Summary)
		}
		if !sameSummary(st.Objectives[2].Summary, bs.Objectives[1].Summary) {
			t.Errorf("batch %d: z %+v, want source b's %+v", b.Step, st.Objectives[2].Summary, bs.Objectives[1].Summary)
		}
		if st.Objectives[0].Count != a.Objectives[0].Count+bs.Objectives[0].Count {
			t.Errorf("batch %d: x counts %d, want %d + %d", b.Step, st.Objectives[0].Count, a.Objectives[0].Count, bs.Objectives[0].Count)
		}
		if !sameNumber(st.Correlation[0][1], a.Correlation[0][1]) || !math.IsNaN(st.Correlation[1][2]) {
			t.Errorf("batch %d: corr(x, y) %v, want source a's %v; corr(y, z) %v, want NaN", b.Step, st.Correlation[0][1], a.Correlation[0][1], st.Correlation[1][2])
		}
	}
}

// TestProjectLeavesOutOtherSourcesObjectives: a trajectory whose source
// lacks an axis's objective has no point on it (its 0 is no value), and
// is counted per axis; on x and y (a's objectives) only a's trajectories
// are drawn, on y and z (no source has both) none.
func TestProjectLeavesOutOtherSourcesObjectives(t *testing.T) {
	c, err := engine.New(sourceConfig(engine.GRPO, engine.ScopeGroup))
	if err != nil {
		t.Fatal(err)
	}
	ts := enginetest.SourceData(7, 80)
	res := c.Compute(ts, engine.GRPO)
	b := &res.Ranking.Batches[0]
	var ofA, ofB []int
	for _, i := range b.Members {
		if res.Evaluation.SourceOf(i) == "a" {
			ofA = append(ofA, i)
		} else {
			ofB = append(ofB, i)
		}
	}
	p := Project(res, 0, 0, 1) // x, y
	if !slices.Equal(p.Index, ofA) || p.NoX != 0 || p.NoY != len(ofB) || p.Lacking != len(ofB) || p.Hidden != 0 {
		t.Errorf("x, y: points %v, no x %d, no y %d, lacking %d, hidden %d; want source a's %v and %d without y", p.Index, p.NoX, p.NoY, p.Lacking, p.Hidden, ofA, len(ofB))
	}
	p = Project(res, 0, 1, 2) // y, z
	if len(p.Index) != 0 || p.NoX != len(ofB) || p.NoY != len(ofA) || p.Lacking != len(b.Members) {
		t.Errorf("y, z: points %v, no x %d, no y %d, lacking %d; want none, %d, %d, %d", p.Index, p.NoX, p.NoY, p.Lacking, len(ofB), len(ofA), len(b.Members))
	}
}
