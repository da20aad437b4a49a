package engine

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/scoring"
)

// sum32Reference is sum_k w_k x_k in float32 arithmetic, each product and
// each sum computed exactly (math/big) and rounded once to float32, to
// nearest even: what torch's float32 tensors give, found without Go's
// float32 arithmetic.
func sum32Reference(w, x []float64) float64 {
	var s float32
	for k := range w {
		p := new(big.Float).SetPrec(200).Mul(big.NewFloat(float64(float32(w[k]))), big.NewFloat(float64(float32(x[k]))))
		pf, _ := p.Float32()
		sum, _ := new(big.Float).SetPrec(200).Add(big.NewFloat(float64(s)), big.NewFloat(float64(pf))).Float32()
		s = sum
	}
	return float64(s)
}

// tiesData draws groups of three rows of m reward functions r0, r1, ...:
// float32 values of a few decimals, as TRL writes them, the group's first
// row repeated last; rows[g] are group g's two distinct rows. The scorer
// maximises each reward, and weights are drawn for them.
func tiesData(t *testing.T, m, groups int) (scorer *scoring.ParetoScorer, ts []scoring.Trajectory, rows [][][]float64, weights []float64) {
	t.Helper()
	levels := []float64{0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9, 1}
	weightLevels := []float64{1, 0.5, 0.3, 0.7, 2, 0.1, -0.5}
	rng := rand.New(rand.NewPCG(uint64(m), 32))
	var objs []scoring.ObjectiveExpr
	for k := range m {
		name := fmt.Sprintf("r%d", k)
		objs = append(objs, scoring.ObjectiveExpr{Name: name, Expr: "metadata." + name, Goal: scoring.Maximize, Weight: 1})
	}
	scorer, err := scoring.NewParetoScorer(objs)
	if err != nil {
		t.Fatal(err)
	}
	weights = make([]float64, m)
	for k := range weights {
		weights[k] = weightLevels[rng.IntN(len(weightLevels))]
	}
	rows = make([][][]float64, groups)
	for g := range groups {
		rows[g] = make([][]float64, 2)
		for r := range rows[g] {
			kv := []any{}
			for k := range m {
				x := float64(float32(levels[rng.IntN(len(levels))]))
				rows[g][r] = append(rows[g][r], x)
				kv = append(kv, objs[k].Name, x)
			}
			ts = append(ts, enginetest.Traj(0, strconv.Itoa(g), kv...))
		}
		ts = append(ts, ts[len(ts)-2])
	}
	return scorer, ts, rows, weights
}

// float32GRPO is TRL's grpo with weights, the score summed in float32.
func float32GRPO(weights []float64) Options {
	return Options{Method: GRPO, Scope: ScopeGroup, Scale: ScaleGroup, Normalize: true, Weights: weights, ScorePrecision: ScoreFloat32}
}

// checkScores32 fails unless every score of res is the float32
// arithmetic's of its row (tiesData).
func checkScores32(t *testing.T, res *Result, rows [][][]float64, weights []float64) {
	t.Helper()
	for i := range res.Scores {
		g, r := i/3, []int{0, 1, 0}[i%3]
		if want := sum32Reference(weights, rows[g][r]); res.Scores[i] != want {
			t.Fatalf("group %d row %d: score %v, float32 arithmetic %v", g, i%3, res.Scores[i], want)
		}
	}
}

// TestScore32Ties draws groups of rewards of two and of three reward
// functions (tiesData) with random weights. Under ScoreFloat32 each score
// is the float32 arithmetic's (sum32Reference), a group has zero spread
// exactly when its two rows tie in it, and grpo then rewards the group 0;
// the float64 sums' verdict differs on some groups (else the draw would
// test nothing).
func TestScore32Ties(t *testing.T) {
	for _, m := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d objectives", m), func(t *testing.T) {
			const groups = 4000
			scorer, ts, rows, weights := tiesData(t, m, groups)
			res := Evaluate(scorer, ts).Compute(float32GRPO(weights))
			checkScores32(t, res, rows, weights)
			ties, disagree := 0, 0
			for _, b := range res.Ranking.Batches {
				for _, grp := range b.Groups {
					g, err := strconv.Atoi(grp.Key)
					if err != nil {
						t.Fatal(err)
					}
					tie := sum32Reference(weights, rows[g][0]) == sum32Reference(weights, rows[g][1])
					if got := res.zeroSpread(grp.Members); got != tie {
						t.Errorf("group %d (%v, %v; weights %v): zero spread %v, float32 arithmetic's %v", g, rows[g][0], rows[g][1], weights, got, tie)
					}
					if tie {
						ties++
						for _, i := range grp.Members {
							if res.Rewards[i] != 0 {
								t.Errorf("group %d ties: reward %v", g, res.Rewards[i])
							}
						}
					}
					if scoring.Score(res.Objectives, nil, rows[g][0]) == scoring.Score(res.Objectives, nil, rows[g][1]) != tie {
						disagree++
					}
				}
			}
			if ties == 0 || disagree == 0 {
				t.Errorf("weights %v: %d groups tie, %d where the float64 sums say otherwise: the draw tests nothing", weights, ties, disagree)
			}
		})
	}
}

// TestScore32OtherPaths: the scores of trajectories appended while
// following (Recompute) and the structured scores (a gate) are summed in
// float32 too.
func TestScore32OtherPaths(t *testing.T) {
	scorer, ts, rows, weights := tiesData(t, 3, 200)
	opts := float32GRPO(weights)
	half := len(ts) / 2
	ev := Evaluate(scorer, ts[:half])
	res := ev.Compute(opts)
	checkScores32(t, ev.Append(scorer, ts[half:]).Recompute(res), rows, weights)

	gated, err := scoring.WithStructure(scorer, nil, []string{"r0: r0 >= 0"})
	if err != nil {
		t.Fatal(err)
	}
	checkScores32(t, Evaluate(gated, ts).Compute(opts), rows, weights)
}
