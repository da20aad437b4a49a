package engine

import (
	"cmp"
	"fmt"
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// mixedTrajectories returns n trajectories whose metadata values are of
// every kind an expression can meet: numbers, NaN, infinities, strings,
// bools, null and absent keys; the batches and groups come in runs and out
// of order.
func mixedTrajectories(rng *rand.Rand, n int) []scoring.Trajectory {
	values := []any{0.5, -2.0, 3.0, math.NaN(), math.Inf(1), math.Inf(-1), "x", true, nil, 7, int64(8)}
	ts := make([]scoring.Trajectory, n)
	for i := range ts {
		md := map[string]any{}
		for _, k := range []string{"a", "b", "len", "id"} {
			if rng.IntN(8) > 0 {
				md[k] = values[rng.IntN(len(values))]
				if rng.IntN(2) == 0 {
					md[k] = rng.Float64()
				}
			}
		}
		if rng.IntN(50) == 0 {
			md = nil
		}
		ts[i] = scoring.Trajectory{
			ID:        fmt.Sprint(i),
			Batch:     int64((i / 300) % 7),
			Group:     fmt.Sprintf("g%d", (i/8+rng.IntN(2))%40),
			StepCount: int64(rng.IntN(9)),
			Done:      rng.IntN(2) == 0,
			Response:  []byte(`"r"`),
			Metadata:  md,
		}
	}
	return ts
}

// sequentialEvaluation is Evaluate as it was before it ran in parallel: one
// scorer, one trajectory after the other.
func sequentialEvaluation(s scoring.Scorer, ts []scoring.Trajectory) (values []float64, valid []bool, causes []string) {
	m := len(s.Objectives())
	values, valid, causes = make([]float64, len(ts)*m), make([]bool, len(ts)), make([]string, len(ts))
	for i := range ts {
		if err := s.Evaluate(&ts[i], values[i*m:(i+1)*m]); err != nil {
			causes[i] = err.Error()
			continue
		}
		valid[i] = true
	}
	return values, valid, causes
}

func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
	})
}

// TestParallelEvaluateMatchesSequential checks Evaluate and an Evaluator
// fed in uneven pieces against a sequential evaluation, for both scorers
// and expressions with and without the VM.
func TestParallelEvaluateMatchesSequential(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 6))
	ts := mixedTrajectories(rng, 3*evalChunk+123)
	cfgs := []setup.Config{
		{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "b", Goal: "min"}}},
		{Objectives: []setup.ObjectiveConfig{{Name: "s", Expr: "a * 2 + step_count / 4"}, {Name: "t", Expr: "done ? b : -b"}}},
		{Computer: "svrl", Task: "a + b"},
	}
	for _, cfg := range cfgs {
		c, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		values, valid, causes := sequentialEvaluation(c.Scorer, ts)
		evs := []*Evaluation{Evaluate(c.Scorer, ts)}
		// Fed in pieces: without room reserved, with too little, with
		// enough.
		for _, reserved := range []int{0, len(ts) / 3, len(ts)} {
			e := NewEvaluator(c.Scorer)
			e.Reserve(reserved)
			for lo := 0; lo < len(ts); {
				hi := min(lo+1+rng.IntN(2*evalChunk), len(ts))
				e.Add(ts[lo:hi])
				lo = hi
			}
			evs = append(evs, e.Evaluation())
		}
		for k, ev := range evs {
			if !sameFloats(ev.Values, values) || !slices.Equal(ev.Valid, valid) || !slices.Equal(ev.Causes, causes) {
				t.Fatalf("%+v, evaluation %d differs from the sequential one", cfg, k)
			}
			for i := range ts {
				if ev.StepOf(i) != ts[i].Batch || ev.GroupOf(i) != ts[i].Group {
					t.Fatalf("%+v, evaluation %d: trajectory %d in batch %d group %q", cfg, k, i, ev.StepOf(i), ev.GroupOf(i))
				}
			}
		}
	}
}

// TestEvaluatorReserve checks that adding the trajectories room was
// reserved for copies no array.
func TestEvaluatorReserve(t *testing.T) {
	ts := mixedTrajectories(rand.New(rand.NewPCG(3, 1)), 2*evalChunk)
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "metadata.a"}, {Name: "b", Expr: "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEvaluator(c.Scorer)
	e.Reserve(len(ts))
	e.Add(ts[:10])
	ev := e.Evaluation()
	values, valid, groups := &ev.Values[0], &ev.Valid[0], &ev.groupOf[0]
	e.Add(ts[10:])
	if &ev.Values[0] != values || &ev.Valid[0] != valid || &ev.groupOf[0] != groups {
		t.Fatal("adding the trajectories reserved for moved the evaluation's arrays")
	}
}

// TestRankingMatchesNaive checks the partition and the parallel ranking
// against a plain one: batches in step order, groups in order of first
// appearance, each ranked on its own.
func TestRankingMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	ts := mixedTrajectories(rng, 40_000)
	c, err := New(setup.Config{Objectives: []setup.ObjectiveConfig{{Name: "a", Expr: "a"}, {Name: "b", Expr: "metadata.b"}}})
	if err != nil {
		t.Fatal(err)
	}
	ev := Evaluate(c.Scorer, ts)
	for _, scope := range Scopes {
		r := ev.Ranking(scope)
		// The naive partition.
		var steps []int64
		for i := range ts {
			if !slices.Contains(steps, ts[i].Batch) {
				steps = append(steps, ts[i].Batch)
			}
		}
		slices.SortFunc(steps, cmp.Compare[int64])
		if len(r.Batches) != len(steps) {
			t.Fatalf("%s: %d batches, want %d", scope, len(r.Batches), len(steps))
		}
		for bi, step := range steps {
			var members []int
			var keys []string
			groups := map[string][]int{}
			for i := range ts {
				if ts[i].Batch != step {
					continue
				}
				members = append(members, i)
				key := ts[i].Group
				if scope == ScopeBatch {
					key = ""
				}
				if _, ok := groups[key]; !ok {
					keys = append(keys, key)
				}
				groups[key] = append(groups[key], i)
			}
			b := r.Batches[bi]
			if b.Step != step || !slices.Equal(b.Members, members) || len(b.Groups) != len(keys) {
				t.Fatalf("%s: batch %d differs", scope, bi)
			}
			for gi, key := range keys {
				if b.Groups[gi].Key != key || !slices.Equal(b.Groups[gi].Members, groups[key]) {
					t.Fatalf("%s: batch %d group %d differs", scope, bi, gi)
				}
				// The group ranked alone.
				var gr groupRanker
				alone := &Ranking{Ranks: make([]int, len(ts)), Crowding: make([]float64, len(ts)), Fronts: make([]int, len(ts))}
				gr.rank(ev, alone, groups[key])
				for _, i := range groups[key] {
					if alone.Ranks[i] != r.Ranks[i] || alone.Fronts[i] != r.Fronts[i] ||
						math.Float64bits(alone.Crowding[i]) != math.Float64bits(r.Crowding[i]) && !(math.IsNaN(alone.Crowding[i]) && math.IsNaN(r.Crowding[i])) {
						t.Fatalf("%s: trajectory %d ranked %d/%v, alone %d/%v", scope, i, r.Ranks[i], r.Crowding[i], alone.Ranks[i], alone.Crowding[i])
					}
				}
			}
		}
	}
}
