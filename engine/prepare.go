package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/parallel"
	"github.com/rewardlens/rewardlens/internal/pause"
)

// A result can be computed batch by batch. Prepare computes the scores,
// which every batch needs, and ComputeBatch the rewards of one batch, so
// that a dashboard can show the batch on screen before the others are
// done; Finish computes the batches left, on every core. Compute is
// Prepare then Finish.
//
// What does not depend on the method is computed once per evaluation and
// kept: the scores of one set of weights (shared by the results of every
// method), their per-batch statistics, and the hypervolumes.

// pending records which batches of a prepared result have their rewards.
type pending struct {
	once []sync.Once
	// left counts the batches not yet computed.
	left atomic.Int64
}

// RewardChunk is about how many trajectories justify a goroutine of their
// own when computing rewards or scores.
const RewardChunk = 1 << 15

// Prepare returns the result of opts with every trajectory's score and the
// rewards of no batch yet: ComputeBatch computes a batch's rewards, Finish
// those of every batch left, and the statistics (BatchStats, Stats,
// Trends) compute the batches they read first. Until then a batch's
// entries of Rewards hold anything.
//
// The scores of one set of weights are computed once per evaluation and
// shared by the results computed with them: callers must not modify
// Scores. reuse, when not nil, is a finished result of ev with as many
// trajectories that nothing reads any more: its Rewards array is reused,
// so that switching method allocates no rewards array.
func (ev *Evaluation) Prepare(opts Options, reuse *Result) *Result {
	res, _ := ev.prepare(context.Background(), opts, reuse) // never ends
	return res
}

// prepare is Prepare stopped, with ctx's error, once ctx is done, looked
// at between the comparison groups it ranks.
func (ev *Evaluation) prepare(ctx context.Context, opts Options, reuse *Result) (*Result, error) {
	objectives := slices.Clone(ev.Objectives)
	if opts.Weights != nil {
		for k := range objectives {
			objectives[k].Weight = opts.Weights[k]
		}
	}
	var batches []Batch
	if ev.structured(opts) {
		// The normalisation's comparison groups: the partition, which
		// does not depend on validity, is the ranking's.
		base, err := ev.rankingContext(ctx, opts.Scope)
		if err != nil {
			return nil, err
		}
		batches = base.Batches
	}
	set := ev.scoreSetOf(objectives, opts, batches)
	ranking, err := set.ev.rankingContext(ctx, opts.Scope)
	if err != nil {
		return nil, err
	}
	res := &Result{
		Evaluation: set.ev,
		Ranking:    ranking,
		Options:    opts,
		Objectives: objectives,
		Scores:     set.scores,
		scoreSet:   set,
	}
	if reuse != nil && reuse.Evaluation.N() == ev.N() && len(reuse.Rewards) == ev.N() && reuse.Finished() {
		res.Rewards = reuse.Rewards
		reuse.Rewards = nil
	} else {
		res.Rewards = make([]float64, ev.N())
	}
	res.pending = &pending{once: make([]sync.Once, len(res.Ranking.Batches))}
	res.pending.left.Store(int64(len(res.Ranking.Batches)))
	return res, nil
}

// ComputeBatch computes the rewards of batch bi (an index in Batches),
// unless they are computed already; it returns once they are. It is safe
// to call from several goroutines: the batch is computed once.
func (res *Result) ComputeBatch(bi int) {
	p := res.pending
	if p == nil {
		return
	}
	p.once[bi].Do(func() {
		var rw rewarder
		rw.batch(res, &res.Ranking.Batches[bi])
		p.left.Add(-1)
	})
}

// Finished reports whether every batch has its rewards.
func (res *Result) Finished() bool {
	return res.pending == nil || res.pending.left.Load() == 0
}

// Finish computes the rewards of every batch not yet computed, the
// batches shared out over the cores.
func (res *Result) Finish() {
	_ = res.FinishContext(context.Background()) // never ends
}

// FinishContext is Finish stopped, with ctx's error, once ctx is done,
// looked at before each batch: the batches computed keep their rewards,
// the others are computed when asked. With a pause.Gate in ctx, it waits
// at it before each batch (pause.Checkpoint).
func (res *Result) FinishContext(ctx context.Context) error {
	if res.Finished() {
		return nil
	}
	nw := parallel.Workers(len(res.Ranking.Batches), 1)
	if len(res.Ranking.Batches) < 2 {
		nw = 1
	}
	parallel.Chunks(len(res.Ranking.Batches), 1, nw, func(_, lo, hi int) {
		for bi := lo; bi < hi && ctx.Err() == nil; bi++ {
			pause.Checkpoint(ctx)
			res.ComputeBatch(bi)
		}
	})
	return ctx.Err()
}

// ComputeBatchOf computes the rewards of b, a batch of res.
func (res *Result) ComputeBatchOf(b *Batch) {
	if res.Finished() {
		return
	}
	if bi, ok := res.Ranking.BatchIndex(b.Step); ok {
		res.ComputeBatch(bi)
	}
}

// scoreSet is the scores of one set of weights and what depends on them
// alone, shared by the results computed with those weights.
type scoreSet struct {
	weights []float64
	// key is what else the scores depend on (structuredKey).
	key    structuredKey
	scores []float64
	// terms are the objectives' terms (structuredScores), nil when the
	// scores are sum_k w_k o'_k.
	terms []float64
	// ev is the evaluation, or a copy of it that marks invalid the
	// trajectories whose score overflows (markNonFinite).
	ev *Evaluation

	// cache keeps what depends on the weights: the per-batch score
	// statistics and the batches' GroupSummaries.
	cache Cache
}

// structuredKey is what scores depend on besides the weights: the
// penalty with constraints, the normalisation and its scope, and the
// arithmetic of the sum.
type structuredKey struct {
	penalty float64
	norm    ObjectiveNorm
	scope   Scope
	in32    bool
}

// structuredKeyOf returns opts' structuredKey on ev, zero where it does
// not change the scores.
func (ev *Evaluation) structuredKeyOf(opts Options) structuredKey {
	var k structuredKey
	if ev.Violation != nil {
		k.penalty = opts.Penalty
	}
	if opts.NormalizeObjectives != "" && opts.NormalizeObjectives != NormNone {
		k.norm, k.scope = opts.NormalizeObjectives, opts.Scope
	}
	k.in32 = opts.scoreIn32()
	return k
}

// scoreSetOf returns the scores of objectives' weights, computing them
// unless they are the last ones computed.
func (ev *Evaluation) scoreSetOf(objectives []scoring.Objective, opts Options, batches []Batch) *scoreSet {
	weights := make([]float64, len(objectives))
	for k, o := range objectives {
		weights[k] = o.Weight
	}
	key := ev.structuredKeyOf(opts)
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if s := ev.scores; s != nil && slices.EqualFunc(s.weights, weights, sameFloat) && s.key == key {
		return s
	}
	s := &scoreSet{weights: weights, key: key, scores: make([]float64, ev.N()), ev: ev}
	n := ev.N()
	if ev.structured(opts) {
		s.terms = ev.structuredScores(s.scores, objectives, opts, batches)
	} else {
		score := scoreFunc(scoring.NewScoreWeights(objectives), opts)
		parallel.Chunks(n, RewardChunk, parallel.Workers(n, RewardChunk), func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				s.scores[i] = math.NaN()
				if ev.Valid[i] {
					s.scores[i] = score(ev.Row(i))
				}
			}
		})
	}
	s.ev = ev.markNonFinite(s.scores, opts.scoreIn32())
	ev.scores = s
	return s
}

// scoreFunc returns w's Score, or its Score32 when opts sum in float32.
func scoreFunc(w scoring.ScoreWeights, opts Options) func(values []float64) float64 {
	if opts.scoreIn32() {
		return w.Score32
	}
	return w.Score
}

// markNonFinite returns ev, or, when some finite objectives give a score
// that overflows, a copy of ev that reports them invalid (ScoreOverflowCause;
// in32 when the sum is in float32), their scores set to NaN. It is rare
// enough that the evaluation is copied only then.
func (ev *Evaluation) markNonFinite(scores []float64, in32 bool) *Evaluation {
	var bad []int
	for i, s := range scores {
		if ev.Valid[i] && scoring.Finite(s) != nil {
			bad = append(bad, i)
		}
	}
	if len(bad) == 0 {
		return ev
	}
	out := &Evaluation{
		Objectives: ev.Objectives,
		Values:     ev.Values,
		Absent:     ev.Absent,
		M:          ev.M,
		Valid:      slices.Clone(ev.Valid),
		Causes:     slices.Clone(ev.Causes),
		Dropped:    ev.Dropped,
		Logged:     ev.Logged,
		loggedExpr: ev.loggedExpr,
		// Only validity changes: the logged advantages stay as they are.
		LoggedFaults: ev.LoggedFaults,
		batches:      ev.batches,
		stepCounts:   ev.stepCounts,
		groupOf:      ev.groupOf,
		groupNames:   ev.groupNames,
		groupRuns:    ev.groupRuns,
	}
	out.shareStructure(ev)
	out.evalReasons = ev.evalReasons
	for _, i := range bad {
		out.Valid[i] = false
		out.Causes[i] = ScoreOverflowCause(scoring.Finite(scores[i]), in32)
		scores[i] = math.NaN()
	}
	return out
}

// scoreOverflow is why a row whose objectives are finite is invalid in a
// result: its weighted score is err (scoring.ErrInf or scoring.ErrNaN),
// summed in float32 when in32. The row itself is valid, which Rescore
// needs to tell from an objective that is not finite (an objective named
// score gives "score: infinite").
type scoreOverflow struct {
	err  error
	in32 bool
}

// scoreOverflowCauses holds the cause of each scoreOverflow, and
// scoreOverflowOf reads them back: the one place the text is made, so
// that no caller parses it.
var scoreOverflowCauses, scoreOverflowOf = func() (map[scoreOverflow]string, map[string]scoreOverflow) {
	causes, of := map[scoreOverflow]string{}, map[string]scoreOverflow{}
	for _, err := range []error{scoring.ErrInf, scoring.ErrNaN} {
		for _, sum := range []struct {
			in32 bool
			name string
		}{{false, "weighted sum"}, {true, "float32 weighted sum"}} {
			o := scoreOverflow{err, sum.in32}
			causes[o] = "score: " + err.Error() + " (the " + sum.name + " overflows)"
			of[causes[o]] = o
		}
	}
	return causes, of
}()

// ScoreOverflowCause is the cause of a row whose weighted score is err
// (scoring.ErrInf or scoring.ErrNaN, as scoring.Finite gives) though its
// objectives are finite: "score: infinite (the weighted sum overflows)",
// "(the float32 weighted sum overflows)" when in32.
func ScoreOverflowCause(err error, in32 bool) string {
	cause, ok := scoreOverflowCauses[scoreOverflow{err, in32}]
	if !ok {
		panic(fmt.Sprintf("engine: a score overflows as %v, not infinite or NaN", err))
	}
	return cause
}

// ScoreOverflowOf reads a ScoreOverflowCause: the score's error
// (scoring.ErrInf or ErrNaN) and whether the sum was in float32; a nil
// error when cause is not one.
func ScoreOverflowOf(cause string) (err error, in32 bool) {
	o := scoreOverflowOf[cause]
	return o.err, o.in32
}

// ValidOf returns the valid members of batch b, listed once per evaluation
// and batch. The caller must not modify them.
func (res *Result) ValidOf(b *Batch) []int {
	return Cached(&res.Evaluation.cache, CacheKey{Of: ofValid, Step: b.Step}, func(c validList) bool { return c.members == len(b.Members) }, func() validList {
		return validList{len(b.Members), ValidMembers(make([]int, 0, len(b.Members)), b.Members, res.Evaluation.Valid)}
	}).idx
}

// validList is the valid members of a batch of members trajectories.
type validList struct {
	members int
	idx     []int
}
