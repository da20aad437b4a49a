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

// CountsOf counts by hand: on batches holding invalid trajectories (an
// objective not a number), trajectories the group filter dropped and
// constraints, the same for every result of the evaluation (they are
// kept per evaluation), and counted anew for a batch that grew (following
// appends to a batch) after its first part was counted.
func TestCountsOfByHand(t *testing.T) {
	ts := enginetest.StructureData(3, 200)
	for i := range ts {
		if i%9 == 0 {
			ts[i].Metadata["a"] = "not a number"
		}
	}
	ev := evaluateWith(structureComputer(t, setup.Config{Constraints: enginetest.StructureConstraints}), ts)
	ev = ev.Without(func(i int) bool { return i%4 == 1 })
	want := func(members []int) Counts {
		c := Counts{Trajectories: len(members)}
		var held [3]float64
		feasible, n := 0.0, 0.0
		for _, i := range members {
			switch {
			case i%9 == 0:
				c.Invalid++
			case i%4 == 1:
				c.Dropped++
			default:
				n++
				a, b, flag := ts[i].Metadata["a"].(float64), ts[i].Metadata["b"].(float64), ts[i].Metadata["flag"].(bool)
				for k, ok := range []bool{a >= 2, b < 2, flag} {
					if ok {
						held[k]++
					}
				}
				if _, f := enginetest.RefViolation(&ts[i]); f {
					feasible++
				}
			}
		}
		c.Feasible = feasible / n
		c.ConstraintFeasible = []float64{held[0] / n, held[1] / n, held[2] / n}
		return c
	}
	check := func(what string, res *engine.Result, b *engine.Batch) {
		t.Helper()
		got, want := CountsOf(res, b), want(b.Members)
		want.Step = b.Step
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s batch %d: counts %+v, want %+v", what, b.Step, got, want)
		}
		if st := StatsOf(res, b); fmt.Sprint(st.Counts) != fmt.Sprint(want) {
			t.Fatalf("%s batch %d: the statistics' counts %+v, want %+v", what, b.Step, st.Counts, want)
		}
	}
	other := engine.DefaultOptions()
	other.Method = engine.Absolute
	for _, opts := range []engine.Options{engine.DefaultOptions(), other} {
		res := ev.Compute(opts)
		for bi := range res.Ranking.Batches {
			b := &res.Ranking.Batches[bi]
			if bi == 0 && opts.Method == other.Method {
				part := engine.Batch{Step: b.Step, Members: b.Members[:len(b.Members)/2]}
				check("first part of", res, &part)
			}
			check(string(opts.Method), res, b)
		}
	}
}
