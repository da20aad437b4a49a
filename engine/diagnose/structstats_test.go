package diagnose

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

func TestCollapseByHand(t *testing.T) {
	// Absolute, weights 1 and 1 on a (max) and c (max): g0's (1,2) and
	// (2,1) both score 3 (collapsed); g1 holds one vector twice (not
	// counted); g2's (1,1) and (2,2) score 2 and 4.
	one := 1.0
	c, err := engine.New(setup.Config{Method: string(engine.Absolute), Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a", Weight: &one}, {Name: "c", Expr: "c", Weight: &one}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := []scoring.Trajectory{
		enginetest.Traj(0, "g0", "a", 1.0, "c", 2.0), enginetest.Traj(0, "g0", "a", 2.0, "c", 1.0),
		enginetest.Traj(0, "g1", "a", 1.0, "c", 1.0), enginetest.Traj(0, "g1", "a", 1.0, "c", 1.0),
		enginetest.Traj(0, "g2", "a", 1.0, "c", 1.0), enginetest.Traj(0, "g2", "a", 2.0, "c", 2.0),
	}
	res := c.Compute(ts, engine.Absolute)
	st := Stats(res)[0]
	if share, groups := Collapse(res, &res.Ranking.Batches[0]); share != 0.5 || groups != 2 {
		t.Fatalf("collapse %v of %d groups, want 0.5 of 2", share, groups)
	}
	if st.Feasible != 1 || st.ConstraintFeasible != nil {
		t.Fatalf("feasible share %v %v without constraints, want 1 and nil", st.Feasible, st.ConstraintFeasible)
	}
}

func TestFeasibleShares(t *testing.T) {
	ts := enginetest.StructureData(9, 80)
	res := evaluateWith(structureComputer(t, setup.Config{Constraints: enginetest.StructureConstraints}), ts).Compute(engine.DefaultOptions())
	for _, st := range Stats(res) {
		var n, feasible float64
		held := make([]float64, 3)
		for _, tr := range ts {
			if tr.Batch != st.Step {
				continue
			}
			n++
			a, b, flag := tr.Metadata["a"].(float64), tr.Metadata["b"].(float64), tr.Metadata["flag"].(bool)
			for c, ok := range []bool{a >= 2, b < 2, flag} {
				if ok {
					held[c]++
				}
			}
			if _, f := enginetest.RefViolation(&tr); f {
				feasible++
			}
		}
		if !near(st.Feasible, feasible/n) {
			t.Fatalf("batch %d: feasible %v, want %v", st.Step, st.Feasible, feasible/n)
		}
		for c := range held {
			if !near(st.ConstraintFeasible[c], held[c]/n) {
				t.Fatalf("batch %d constraint %d: feasible %v, want %v", st.Step, c, st.ConstraintFeasible[c], held[c]/n)
			}
		}
	}
}

// Collapse counts what a pair-by-pair count does, on groups of 2 to 80
// members (compared pair by pair up to pairwiseMax, along their sorted
// rewards above), objectives of four values each in half the groups
// (distinct vectors tied often) and of sums all distinct in the others,
// under methods that tie them or not; more groups than two of the chunks
// Collapse counts on each core.
func TestCollapseAgainstPairs(t *testing.T) {
	one := 1.0
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a", Weight: &one}, {Name: "c", Expr: "c", Weight: &one}}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 5))
	var ts []scoring.Trajectory
	for g := range 2*collapseChunk + 60 {
		size := 2 + rng.IntN(pairwiseMax+10)
		if g%7 == 0 {
			size = 1 // no pair
		}
		for range size {
			a, c := float64(rng.IntN(4)), float64(rng.IntN(4))
			if g%2 == 1 { // distinct sums, distinct vectors repeated
				c = float64(rng.IntN(3)) * 0.1234567
			}
			ts = append(ts, enginetest.Traj(0, fmt.Sprintf("g%d", g), "a", a, "c", c))
		}
	}
	for _, method := range []engine.Method{engine.Absolute, engine.GRPO, engine.Pareto} {
		res := c.Compute(ts, method)
		ev := res.Evaluation
		row := func(i int) []float64 { return ev.Values[i*ev.M : (i+1)*ev.M] }
		collapsed, groups := 0, 0
		for _, g := range res.Ranking.Batches[0].Groups {
			distinct, tied := false, false
			for _, i := range g.Members {
				for _, j := range g.Members {
					if i < j && ev.Valid[i] && ev.Valid[j] && !slices.Equal(row(i), row(j)) {
						distinct = true
						tied = tied || res.Rewards[i] == res.Rewards[j]
					}
				}
			}
			if distinct {
				groups++
				if tied {
					collapsed++
				}
			}
		}
		share, gotGroups := Collapse(res, &res.Ranking.Batches[0])
		if gotGroups != groups || share != float64(collapsed)/float64(groups) {
			t.Errorf("%s: Collapse %v of %d groups, pair by pair %d of %d", method, share, gotGroups, collapsed, groups)
		}
		if collapsed == 0 || collapsed == groups {
			t.Errorf("%s: %d of %d groups collapsed: the data test only one way", method, collapsed, groups)
		}
	}
}

// CountsOf are StatsOf's counts, the same for every result of an
// evaluation (they are kept per evaluation): on batches holding invalid
// trajectories (an objective not a number), trajectories the group filter
// dropped and constraints, counted by hand.
func TestCountsOfAreStatsCounts(t *testing.T) {
	ts := enginetest.StructureData(3, 200)
	invalid := map[int64]int{}
	for i := range ts {
		if i%9 == 0 {
			ts[i].Metadata["a"] = "not a number"
			invalid[ts[i].Batch]++
		}
	}
	ev := evaluateWith(structureComputer(t, setup.Config{Constraints: enginetest.StructureConstraints}), ts)
	dropped := map[int64]int{}
	ev = ev.Without(func(i int) bool {
		if i%4 == 1 {
			dropped[ts[i].Batch]++
			return true
		}
		return false
	})
	other := engine.DefaultOptions()
	other.Method = engine.Absolute
	for _, opts := range []engine.Options{engine.DefaultOptions(), other} {
		res := ev.Compute(opts)
		for bi := range res.Ranking.Batches {
			b := &res.Ranking.Batches[bi]
			counts := CountsOf(res, b)
			if counts.Invalid != invalid[b.Step] || counts.Dropped != dropped[b.Step] || counts.Trajectories != len(b.Members) {
				t.Fatalf("%s batch %d: %d trajectories, %d invalid, %d dropped; want %d, %d, %d", opts.Method, b.Step,
					counts.Trajectories, counts.Invalid, counts.Dropped, len(b.Members), invalid[b.Step], dropped[b.Step])
			}
			if got, want := fmt.Sprint(counts), fmt.Sprint(StatsOf(res, b).Counts); got != want {
				t.Fatalf("%s batch %d: counts %s, statistics' counts %s", opts.Method, b.Step, got, want)
			}
		}
	}
}
