package engine

import (
	"encoding/binary"
	"fmt"
	"github.com/rewardlens/rewardlens/engine/setup"
	"math"
	"slices"
	"testing"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/pareto"
	"github.com/rewardlens/rewardlens/stats"
)

// FuzzCompute runs the engine end to end on random trajectories and
// settings decoded from the fuzzer's bytes, and checks what docs/CONTRACT.md
// promises whatever the data: every trajectory has its output row, every
// reward is finite, ranks are consistent with dominance within each
// comparison group, an invalid trajectory gets its group's mean valid
// reward, rank -1 and no crowding, and crowding is >= 0 or +Inf.
func FuzzCompute(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{0, 0, 0, 0, 0, 0, 8},
		// absolute, group scope, 2 objectives, 6 trajectories in 2 groups.
		{0, 0, 0, 1, 1, 0, 0, 6, 1, 1, 0, 3, 1, 1, 4, 0, 2, 1, 2, 1, 0, 2, 3, 4, 1, 2, 1, 0, 3, 2, 2, 1, 1, 1, 3},
		// gdpo, batch scope, huge, tiny, NaN and infinite values.
		{6, 1, 2, 0, 3, 3, 1, 2, 0, 5, 12, 5, 6, 7, 1, 8, 9, 10, 11, 12, 13, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f, 2, 5, 5, 5, 2, 6, 6, 6},
		// pareto-crowding with identical vectors (shared ranks).
		{5, 0, 0, 1, 2, 0, 0, 3, 0, 12, 1, 4, 4, 0, 1, 4, 4, 0, 1, 4, 4, 0, 1, 3, 3, 0, 1, 4, 4, 0, 1, 4, 4, 0, 1, 4, 4},
		// grpo over a batch scale, with weights overridden.
		{2, 0, 1, 1, 1, 7, 1, 3, 4, 5, 20, 0, 0, 1, 2, 3, 1, 1, 4, 15, 0, 2, 0, 3, 14, 1, 0, 1, 2, 3, 1, 2, 3},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := fuzzInput{data: data}
		cfg, opts := in.settings()
		ts := in.trajectories(len(cfg.Objectives))
		c, err := New(cfg)
		if err != nil {
			t.Fatalf("config %+v: %v", cfg, err)
		}
		if opts.Weights != nil {
			opts.Weights = opts.Weights[:len(cfg.Objectives)]
		}
		res := Evaluate(c.Scorer, ts).Compute(opts)
		checkComputeInvariants(t, res, len(ts))
	})
}

// fuzzInput decodes a fuzzer's bytes; past their end it reads zeros.
type fuzzInput struct {
	data []byte
	i    int
}

func (in *fuzzInput) byte() byte {
	if in.i >= len(in.data) {
		return 0
	}
	in.i++
	return in.data[in.i-1]
}

// float64 reads 8 bytes as the bits of a float64: any value, any NaN.
func (in *fuzzInput) float64() float64 {
	var b [8]byte
	for k := range b {
		b[k] = in.byte()
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
}

// fuzzWeights are the weights a config or the dashboard may set: finite,
// of any sign and size.
var fuzzWeights = []float64{1, 0, -1, 0.5, 1e300, 1e-300, 3, 0.05}

// settings decodes the method, scope, scale, normalisation and one to four
// objectives, each with a goal, a weight (or the default) and an
// expression read directly or by the expression VM; and, sometimes,
// weights overriding the objectives' own as the dashboard's do.
func (in *fuzzInput) settings() (setup.Config, Options) {
	method := Methods[int(in.byte())%len(Methods)]
	scope := Scopes[int(in.byte())%len(Scopes)]
	scale := Scales[int(in.byte())%len(Scales)]
	normalize := in.byte()%2 == 0
	cfg := setup.Config{Method: string(method), Scope: string(scope), Scale: string(scale), Normalize: &normalize}
	m := 1 + int(in.byte())%4
	for k := range m {
		o := setup.ObjectiveConfig{Name: fmt.Sprint("o", k), Expr: fmt.Sprintf("metadata.o%d", k)}
		flags := in.byte()
		if flags&1 != 0 {
			o.Goal = string(scoring.Minimize)
		}
		if flags&2 != 0 {
			o.Expr = fmt.Sprintf("o%d * 1", k) // through the VM
		}
		if flags&4 != 0 {
			w := fuzzWeights[int(flags>>3)%len(fuzzWeights)]
			o.Weight = &w
		}
		cfg.Objectives = append(cfg.Objectives, o)
	}
	opts := Options{Method: method, Scope: scope, Scale: scale, Normalize: normalize}
	if in.byte()%4 == 1 {
		for range 4 {
			opts.Weights = append(opts.Weights, fuzzWeights[int(in.byte())%len(fuzzWeights)])
		}
	}
	return cfg, opts
}

// trajectories decodes up to 63 trajectories in a few batches (negative
// steps too) and groups, with repeated ids, and objective values that are
// ordinary, repeated, huge, subnormal, NaN, infinite, missing, not numbers,
// or any float64 at all.
func (in *fuzzInput) trajectories(m int) []scoring.Trajectory {
	groups := []string{"", "a", "b", "é🚀"}
	ts := make([]scoring.Trajectory, int(in.byte())%64)
	for i := range ts {
		b := in.byte()
		ts[i] = scoring.Trajectory{
			ID:       fmt.Sprint(i % 5),
			Batch:    int64(b%3) - 1,
			Group:    groups[int(b>>2)%len(groups)],
			Metadata: map[string]any{},
		}
		for k := range m {
			key := fmt.Sprint("o", k)
			switch v := in.byte() % 16; v {
			case 11: // missing
			case 12:
				ts[i].Metadata[key] = "text"
			case 13:
				ts[i].Metadata[key] = in.float64()
			default:
				ts[i].Metadata[key] = []float64{0, 1, -1, 0.5, 2, 1e308, -1e308, 5e-324, math.NaN(), math.Inf(1), math.Inf(-1), 0, 0, 0, 3, 1e15 + float64(i)}[v]
			}
		}
	}
	return ts
}

// checkComputeInvariants checks res, computed on n trajectories, against
// the promises of docs/CONTRACT.md.
func checkComputeInvariants(t *testing.T, res *Result, n int) {
	t.Helper()
	if len(res.Rewards) != n || len(res.Scores) != n || len(res.Ranking.Ranks) != n || len(res.Ranking.Crowding) != n || len(res.Evaluation.Valid) != n {
		t.Fatalf("%d trajectories, %d rewards, %d scores, %d ranks, %d crowding, %d valid",
			n, len(res.Rewards), len(res.Scores), len(res.Ranking.Ranks), len(res.Ranking.Crowding), len(res.Evaluation.Valid))
	}
	for i := range n {
		r, s, c := res.Rewards[i], res.Scores[i], res.Ranking.Crowding[i]
		if math.IsNaN(r) || math.IsInf(r, 0) {
			t.Fatalf("trajectory %d (objectives %v, score %v): reward %v", i, res.Evaluation.Row(i), s, r)
		}
		rowFinite := true
		for _, v := range res.Evaluation.Row(i) {
			rowFinite = rowFinite && !math.IsNaN(v) && !math.IsInf(v, 0)
		}
		if res.Evaluation.Valid[i] {
			if !rowFinite || math.IsNaN(s) || math.IsInf(s, 0) || res.Ranking.Ranks[i] < 0 || !(c >= 0) || res.Evaluation.Causes[i] != "" {
				t.Fatalf("valid trajectory %d: objectives %v, score %v, rank %d, crowding %v, cause %q", i, res.Evaluation.Row(i), s, res.Ranking.Ranks[i], c, res.Evaluation.Causes[i])
			}
		} else if !math.IsNaN(s) || res.Ranking.Ranks[i] != -1 || !math.IsNaN(c) || res.Evaluation.Causes[i] == "" {
			t.Fatalf("invalid trajectory %d: score %v, rank %d, crowding %v, cause %q", i, s, res.Ranking.Ranks[i], c, res.Evaluation.Causes[i])
		}
	}
	seen := make([]int, n)
	for bi, b := range res.Ranking.Batches {
		if bi > 0 && res.Ranking.Batches[bi-1].Step >= b.Step {
			t.Fatalf("batches out of order: %d then %d", res.Ranking.Batches[bi-1].Step, b.Step)
		}
		for _, g := range b.Groups {
			checkGroup(t, res, b.Step, g)
			for _, i := range g.Members {
				seen[i]++
				if res.Evaluation.StepOf(i) != b.Step {
					t.Fatalf("trajectory %d of step %d in batch %d", i, res.Evaluation.StepOf(i), b.Step)
				}
			}
		}
	}
	for i, k := range seen {
		if k != 1 {
			t.Fatalf("trajectory %d is in %d comparison groups, want 1", i, k)
		}
	}
}

// checkGroup checks the ranks, crowding and rewards of one comparison
// group.
func checkGroup(t *testing.T, res *Result, step int64, g Group) {
	t.Helper()
	var valid []int
	for _, i := range g.Members {
		if res.Evaluation.Valid[i] {
			valid = append(valid, i)
		}
	}
	for _, i := range valid {
		for _, j := range valid {
			if pareto.Dominates(oriented(res, i), oriented(res, j)) && res.Ranking.Ranks[i] >= res.Ranking.Ranks[j] {
				t.Fatalf("step %d group %q: %d dominates %d but ranks %d >= %d", step, g.Key, i, j, res.Ranking.Ranks[i], res.Ranking.Ranks[j])
			}
		}
		// Rank r > 0: dominated once ranks < r are removed, so by one of rank r - 1.
		if r := res.Ranking.Ranks[i]; r > 0 {
			found := false
			for _, j := range valid {
				found = found || (res.Ranking.Ranks[j] == r-1 && pareto.Dominates(oriented(res, j), oriented(res, i)))
			}
			if !found {
				t.Fatalf("step %d group %q: %d has rank %d, but no trajectory of rank %d dominates it", step, g.Key, i, r, r-1)
			}
		}
	}
	// The mean of rewards that cancel out (grpo's sum to 0) is only known
	// to the rounding error of the largest of them.
	want, scale := 0.0, 1.0
	if len(valid) > 0 {
		x := parallel.Gather(nil, res.Rewards, valid)
		slices.Sort(x) // summed in ascending order, as fillInvalid does
		want = stats.Mean(x)
	}
	for _, i := range valid {
		scale = max(scale, math.Abs(res.Rewards[i]))
	}
	for _, i := range g.Members {
		if !res.Evaluation.Valid[i] && math.Abs(res.Rewards[i]-want) > 1e-9*scale {
			t.Fatalf("step %d group %q: invalid %d has reward %v, want the valid mean %v", step, g.Key, i, res.Rewards[i], want)
		}
	}
}
