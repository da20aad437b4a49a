package diagnose

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine"

	"github.com/rewardlens/rewardlens/engine/internal/enginetest"
	"github.com/rewardlens/rewardlens/engine/live"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/engine/setup"
)

// appendTrajectories draws n trajectories of the given steps in groups
// (about one in ten invalid: z missing), in random order of steps.
func appendTrajectories(rng *rand.Rand, n int, steps ...int64) []scoring.Trajectory {
	ts := enginetest.RandomTrajectories(rng, n)
	for i := range ts {
		ts[i].Batch = steps[rng.IntN(len(steps))]
		ts[i].StepCount = int64(rng.IntN(9))
	}
	return ts
}

// sameResult fails t unless got equals want in everything a caller reads:
// batches and groups, ranks, crowding distances, fronts, scores, rewards
// (bit for bit, NaN equal to NaN), statistics and trends.
func sameResult(t *testing.T, what string, got, want *engine.Result) {
	t.Helper()
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	switch {
	case got.Evaluation.N() != want.Evaluation.N():
		t.Fatalf("%s: %d trajectories, want %d", what, got.Evaluation.N(), want.Evaluation.N())
	case !reflect.DeepEqual(got.Ranking.Batches, want.Ranking.Batches):
		t.Fatalf("%s: batches differ:\n got %v\nwant %v", what, got.Ranking.Batches, want.Ranking.Batches)
	case !slices.Equal(got.Ranking.Ranks, want.Ranking.Ranks) || !slices.Equal(got.Ranking.Fronts, want.Ranking.Fronts) || !same(got.Ranking.Crowding, want.Ranking.Crowding):
		t.Fatalf("%s: rankings differ", what)
	case !same(got.Scores, want.Scores):
		t.Fatalf("%s: scores differ", what)
	case !same(got.Rewards, want.Rewards):
		t.Fatalf("%s: rewards differ:\n got %v\nwant %v", what, got.Rewards, want.Rewards)
	case !slices.Equal(got.Evaluation.Valid, want.Evaluation.Valid) || !slices.Equal(got.Evaluation.Causes, want.Evaluation.Causes) || !same(got.Evaluation.Values, want.Evaluation.Values):
		t.Fatalf("%s: evaluations differ", what)
	}
	if g, w := fmt.Sprint(Trends(got, nil)), fmt.Sprint(Trends(want, nil)); g != w {
		t.Fatalf("%s: trends differ:\n got %s\nwant %s", what, g, w)
	}
	if g, w := groupsAndRanges(got), groupsAndRanges(want); g != w {
		t.Fatalf("%s: group summaries or reward ranges differ:\n got %s\nwant %s", what, g, w)
	}
}

// groupsAndRanges prints every batch's group summaries and reward ranges,
// computing them (or reading those kept) in res's caches.
func groupsAndRanges(res *engine.Result) string {
	var out []any
	for bi := range res.Ranking.Batches {
		b := &res.Ranking.Batches[bi]
		out = append(out, GroupSummaries(res, b), GroupRewardRanges(res, b))
	}
	return fmt.Sprint(out...)
}

// TestAppendRecomputeMatchesCompute follows random data chunk by chunk,
// chunks adding to the last batch, to older ones, or starting new ones
// before or after the others: each Append and Recompute must give what
// evaluating and computing everything gives, for every method, scope,
// scale and normalisation, and leave the previous evaluation and result
// as they were.
func TestAppendRecomputeMatchesCompute(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	objs := []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "y", Expr: "y", Goal: "min"}, {Name: "z", Expr: "metadata.z"}}
	for trial := range 12 {
		var all []scoring.Trajectory
		chunks := [][]scoring.Trajectory{appendTrajectories(rng, 1+rng.IntN(40), 3, 5)}
		for range 6 {
			steps := [][]int64{{5}, {3, 5}, {7}, {1}, {5, 9}}[rng.IntN(5)]
			chunks = append(chunks, appendTrajectories(rng, rng.IntN(30), steps...))
		}
		for _, method := range engine.AllMethods() {
			for _, scope := range engine.Scopes {
				for _, scale := range engine.Scales {
					normalize := rng.IntN(2) == 0
					c, err := engine.New(setup.Config{Objectives: objs, Method: string(method), Scope: string(scope), Scale: string(scale), Normalize: &normalize, Priority: lexicographicPriority(method, objs)})
					if err != nil {
						t.Fatal(err)
					}
					all = slices.Clone(chunks[0])
					ev := engine.Evaluate(c.Scorer, all)
					res := ev.Compute(c.Options)
					trends := Trends(res, nil)
					for k, chunk := range chunks[1:] {
						groupsAndRanges(res) // kept in res's caches, for Recompute to keep those of the batches not added to
						before := snapshot(res)
						all = append(all, chunk...)
						next := ev.Append(c.Scorer, chunk)
						nextRes := next.Recompute(res)
						what := fmt.Sprintf("trial %d, %s/%s/%s/%v, chunk %d", trial, method, scope, scale, normalize, k+1)
						want := engine.Evaluate(c.Scorer, all).Compute(c.Options)
						sameResult(t, what, nextRes, want)
						if after := snapshot(res); !reflect.DeepEqual(before, after) {
							t.Fatalf("%s: the previous result changed", what)
						}
						trends = TrendsSince(nextRes, res, trends, nil)
						if g, w := fmt.Sprint(trends), fmt.Sprint(Trends(want, nil)); g != w {
							t.Fatalf("%s: TrendsSince:\n got %s\nwant %s", what, g, w)
						}
						ev, res = next, nextRes
					}
				}
			}
		}
	}
}

// snapshot copies what a result holds, to check that it does not change.
func snapshot(res *engine.Result) string {
	return fmt.Sprint(res.Evaluation.N(), res.Ranking.Batches, res.Ranking.Ranks, res.Ranking.Crowding, res.Ranking.Fronts, res.Scores, res.Rewards, res.Evaluation.Values, res.Evaluation.Valid, Stats(res))
}

// TestAppendTwiceToOneEvaluation: appending twice to one evaluation (two
// branches) gives two correct evaluations; the second copies rather than
// writing over the first's trajectories.
func TestAppendTwiceToOneEvaluation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	c := oneObjectiveComputer(t)
	base := appendTrajectories(rng, 50, 0, 1)
	a, b := appendTrajectories(rng, 20, 1, 2), appendTrajectories(rng, 30, 2, 3)
	ev := engine.Evaluate(c.Scorer, base)
	res := ev.Compute(c.Options)
	evA := ev.Append(c.Scorer, a)
	resA := evA.Recompute(res)
	evB := ev.Append(c.Scorer, b)
	resB := evB.Recompute(res)
	sameResult(t, "branch a", resA, engine.Evaluate(c.Scorer, append(slices.Clone(base), a...)).Compute(c.Options))
	sameResult(t, "branch b", resB, engine.Evaluate(c.Scorer, append(slices.Clone(base), b...)).Compute(c.Options))
	// Appending to the tip of each branch stays correct.
	c2 := appendTrajectories(rng, 10, 3)
	sameResult(t, "branch a, then more", evA.Append(c.Scorer, c2).Recompute(resA),
		engine.Evaluate(c.Scorer, slices.Concat(base, a, c2)).Compute(c.Options))
}

func oneObjectiveComputer(t *testing.T) *engine.RewardComputer {
	t.Helper()
	c, err := engine.New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "x", Expr: "x"}, {Name: "z", Expr: "metadata.z"}}, Method: string(engine.GRPO)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRecomputeFallsBack: a result of an evaluation that the new one does
// not extend is computed in full, and correctly.
func TestRecomputeFallsBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 4))
	c := oneObjectiveComputer(t)
	x, y := appendTrajectories(rng, 40, 0, 1), appendTrajectories(rng, 40, 0, 2)
	other := engine.Evaluate(c.Scorer, y).Compute(c.Options)
	sameResult(t, "unrelated", engine.Evaluate(c.Scorer, x).Recompute(other), engine.Evaluate(c.Scorer, x).Compute(c.Options))
	ev := engine.Evaluate(c.Scorer, x)
	longer := ev.Append(c.Scorer, y)
	sameResult(t, "shorter", ev.Recompute(longer.Compute(c.Options)), engine.Evaluate(c.Scorer, x).Compute(c.Options))
}

// TestFilter: dropping trajectories from an evaluation gives the
// evaluation of those kept.
func TestFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	c := oneObjectiveComputer(t)
	ts := appendTrajectories(rng, 120, 0, 1, 2)
	keep := func(i int) bool { return i%3 != 1 }
	var kept []scoring.Trajectory
	for i := range ts {
		if keep(i) {
			kept = append(kept, ts[i])
		}
	}
	ev := engine.Evaluate(c.Scorer, ts)
	ev.Compute(c.Options) // caches that Filter must not keep
	sameResult(t, "filtered", ev.Filter(keep).Compute(c.Options), engine.Evaluate(c.Scorer, kept).Compute(c.Options))
	// And appending to a filtered evaluation works.
	more := appendTrajectories(rng, 30, 2, 3)
	f := ev.Filter(keep)
	sameResult(t, "filtered, appended", f.Append(c.Scorer, more).Recompute(f.Compute(c.Options)),
		engine.Evaluate(c.Scorer, append(kept, more...)).Compute(c.Options))
}

// TestLive follows sources: appended trajectories extend the evaluation,
// a replaced source's trajectories give way to its new ones, and the
// results always equal computing everything from scratch.
func TestLive(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	c := oneObjectiveComputer(t)
	from := func(src string, ts []scoring.Trajectory) []scoring.Trajectory {
		for i := range ts {
			ts[i].Source = src
		}
		return ts
	}
	a, b := from("a", appendTrajectories(rng, 30, 0, 1)), from("b", appendTrajectories(rng, 20, 1, 2))
	l := live.New(c.Scorer, engine.Evaluate(c.Scorer, slices.Concat(a, b)), slices.Concat(a, b))
	res := l.Evaluation().Compute(c.Options)
	more := from("a", appendTrajectories(rng, 10, 2, 3))
	ev := l.Update(nil, more)
	res = ev.Recompute(res)
	sameResult(t, "appended", res, engine.Evaluate(c.Scorer, slices.Concat(a, b, more)).Compute(c.Options))
	newA := from("a", appendTrajectories(rng, 15, 0, 4))
	res = l.Update([]string{"a", "unknown"}, newA).Recompute(res)
	sameResult(t, "a replaced", res, engine.Evaluate(c.Scorer, slices.Concat(b, newA)).Compute(c.Options))
	res = l.Update([]string{"b"}, nil).Recompute(res)
	sameResult(t, "b emptied", res, engine.Evaluate(c.Scorer, newA).Compute(c.Options))
}

// TestRecomputeTwiceFromOneResult: two results recomputed from one (for
// two evaluations of one line) are both correct, and the first is not
// changed by the second: only the first extends the arrays in place.
func TestRecomputeTwiceFromOneResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 6))
	c := oneObjectiveComputer(t)
	base, a, b, d := appendTrajectories(rng, 60, 0, 1), appendTrajectories(rng, 20, 2), appendTrajectories(rng, 20, 3), appendTrajectories(rng, 20, 4)
	res := engine.Evaluate(c.Scorer, base).Compute(c.Options)
	evA := res.Evaluation.Append(c.Scorer, a)
	resA := evA.Recompute(res) // copied: res has no room; resA has
	evB := evA.Append(c.Scorer, b)
	resB := evB.Recompute(resA) // in place
	before := snapshot(resB)
	resD := evB.Append(c.Scorer, d).Recompute(resA) // from resA again: copied
	if snapshot(resB) != before {
		t.Fatal("the second recompute from one result changed the first's")
	}
	sameResult(t, "a, b", resB, engine.Evaluate(c.Scorer, slices.Concat(base, a, b)).Compute(c.Options))
	sameResult(t, "a, b, d", resD, engine.Evaluate(c.Scorer, slices.Concat(base, a, b, d)).Compute(c.Options))
}

// TestConcurrentRecompute recomputes from one result on two goroutines:
// under the race detector, it shows that only one extends the arrays in
// place (the other copies), so they never write the same memory.
func TestConcurrentRecompute(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 7))
	c := oneObjectiveComputer(t)
	base, a, b := appendTrajectories(rng, 60, 0, 1), appendTrajectories(rng, 20, 2), appendTrajectories(rng, 20, 3)
	res := engine.Evaluate(c.Scorer, base).Compute(c.Options)
	evA := res.Evaluation.Append(c.Scorer, a)
	resA := evA.Recompute(res)
	evB := evA.Append(c.Scorer, b)
	results := make(chan *engine.Result, 2)
	for range 2 {
		go func() { results <- evB.Recompute(resA) }()
	}
	want := engine.Evaluate(c.Scorer, slices.Concat(base, a, b)).Compute(c.Options)
	sameResult(t, "first", <-results, want)
	sameResult(t, "second", <-results, want)
}

// TestLiveOptionsChange follows data from live.New on, and again after a
// Compute with other options: each Recompute must give what computing
// everything gives and leave the previous result as it was.
func TestLiveOptionsChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 8))
	c := oneObjectiveComputer(t)
	all := appendTrajectories(rng, 300, 0, 1)
	l := live.New(c.Scorer, engine.Evaluate(c.Scorer, all), all)
	res := l.Evaluation().Compute(c.Options)
	for k := range 40 {
		if k == 20 {
			opts := c.Options
			opts.Scope = engine.ScopeBatch
			res = l.Evaluation().Compute(opts)
		}
		more := appendTrajectories(rng, 1+rng.IntN(60), int64(k+2))
		all = append(all, more...)
		before := snapshot(res)
		next := l.Update(nil, more).Recompute(res)
		sameResult(t, fmt.Sprintf("update %d", k), next, engine.Evaluate(c.Scorer, all).Compute(res.Options))
		if snapshot(res) != before {
			t.Fatalf("update %d: the previous result changed", k)
		}
		res = next
	}
}

// TestTrendsSinceComparesEveryOption: a result computed with another
// epsilon or group-of-one convention has other rewards, so TrendsSince
// must not reuse the trend points of the previous result, whose options
// differ in that alone.
func TestTrendsSinceComparesEveryOption(t *testing.T) {
	ts := enginetest.Scored(map[string][]float64{"a": {1, 2, 4}, "b": {3}}, "a", "b")
	base := engine.Options{Method: engine.GRPO, Scope: engine.ScopeGroup, Scale: engine.ScaleGroup, Normalize: true}
	ev := engine.Evaluate(oneObjective(t, base).Scorer, ts)
	prev := ev.Compute(base)
	prevTrends := Trends(prev, nil)
	epsilon, groupOfOne := base, base
	epsilon.Epsilon = 0.5
	groupOfOne.GroupOfOne = engine.GroupOfOneScore
	for name, opts := range map[string]engine.Options{"epsilon": epsilon, "group of one": groupOfOne} {
		res := ev.Compute(opts)
		got, want := TrendsSince(res, prev, prevTrends, nil), Trends(res, nil)
		if g, w := fmt.Sprint(got), fmt.Sprint(want); g != w {
			t.Errorf("another %s: TrendsSince\n got %s\nwant %s", name, g, w)
		}
		if fmt.Sprint(want) == fmt.Sprint(prevTrends) {
			t.Errorf("another %s: the trends did not change", name)
		}
	}
}
