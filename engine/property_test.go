package engine

import (
	"fmt"
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/pareto"
)

// TestComputeInvariants checks, for every method and option on random
// data, what the spec promises whatever the numbers: a finite reward for
// every trajectory, ranks consistent with dominance within each comparison
// group, and invalid trajectories at their group's valid mean.
func TestComputeInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	objs := []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "y", Expr: "y", Goal: "min"}, {Name: "z", Expr: "metadata.z"}}
	for trial := 0; trial < 60; trial++ {
		ts := enginetest.RandomTrajectories(rng, rng.IntN(60))
		for _, method := range AllMethods() {
			for _, scope := range Scopes {
				for _, scale := range Scales {
					for _, normalize := range []bool{true, false} {
						c, err := New(setup.Config{Objectives: objs, Method: string(method), Scope: string(scope), Scale: string(scale), Normalize: &normalize, Priority: lexicographicPriority(method, objs)})
						if err != nil {
							t.Fatal(err)
						}
						checkInvariants(t, c.Compute(ts, method))
					}
				}
			}
		}
	}
}

func checkInvariants(t *testing.T, res *Result) {
	t.Helper()
	where := fmt.Sprintf("%s scope %s scale %s normalize %v", res.Options.Method, res.Options.Scope, res.Options.Scale, res.Options.Normalize)
	if len(res.Rewards) != res.Evaluation.N() {
		t.Fatalf("%s: %d rewards for %d trajectories", where, len(res.Rewards), res.Evaluation.N())
	}
	for i, r := range res.Rewards {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			t.Fatalf("%s: reward[%d] = %v", where, i, r)
		}
	}
	for _, b := range res.Ranking.Batches {
		for _, g := range b.Groups {
			var validSum float64
			var nValid int
			for _, i := range g.Members {
				if res.Evaluation.Valid[i] {
					validSum += res.Rewards[i]
					nValid++
				}
				for _, j := range g.Members {
					if res.Evaluation.Valid[i] && res.Evaluation.Valid[j] && pareto.Dominates(oriented(res, i), oriented(res, j)) && res.Ranking.Ranks[i] >= res.Ranking.Ranks[j] {
						t.Fatalf("%s: %d dominates %d but ranks %d >= %d", where, i, j, res.Ranking.Ranks[i], res.Ranking.Ranks[j])
					}
				}
			}
			for _, i := range g.Members {
				if res.Evaluation.Valid[i] {
					continue
				}
				want := 0.0
				if nValid > 0 {
					want = validSum / float64(nValid)
				}
				if !near(res.Rewards[i], want) || res.Ranking.Ranks[i] != -1 {
					t.Fatalf("%s: invalid %d has reward %v rank %d, want %v and -1", where, i, res.Rewards[i], res.Ranking.Ranks[i], want)
				}
			}
		}
	}
}

func oriented(res *Result, i int) []float64 {
	out := make([]float64, res.Evaluation.M)
	for k, o := range res.Objectives {
		out[k] = o.Orient(res.Evaluation.Row(i)[k])
	}
	return out
}

// lexicographicPriority is the priority the tests that run every method
// give lexicographic: the objectives in their order; nil for the others.
func lexicographicPriority(method Method, objs []setup.ObjectiveConfig) []string {
	if method != Lexicographic {
		return nil
	}
	var names []string
	for _, o := range objs {
		names = append(names, o.Name)
	}
	return names
}
