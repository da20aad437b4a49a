package prompts

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine"
	analysis "github.com/rewardlens/rewardlens/prompts"
	"github.com/rewardlens/rewardlens/ui/common"
)

// analysisJob is the prompts' analysis of one state of the session, made
// off the event loop. It reads what stays as it is while the session
// moves on: the result (its ranking, validity and scores are never
// written after it is made; a recompute reuses only a retired result's
// rewards) and the columns' slices as they were taken (a live run's
// trajectories are appended past them, and Finish replaces the slices
// rather than write into them).
type analysisJob struct {
	of        analysisOf
	res       *engine.Result
	task      []float64
	keys      *analysis.Keys
	threshold float64

	once sync.Once
	done atomic.Bool
	// What the tab shows, set by run: the analysis, each prompt's mean
	// pass rate, the steps ascending and the prompts' shared start; the
	// prompts by name, each one's status as its place in
	// analysis.Statuses, and the count of each status.
	analysis analysis.Analysis
	mean     []float64
	steps    []int64
	cut      int
	byName   []int
	status   []uint8
	counts   []analysis.StatusCount
}

// analyzedMsg says that a job is done.
type analyzedMsg struct{ job *analysisJob }

// newAnalysisJob takes what the analysis of res reads of the columns c.
func newAnalysisJob(of analysisOf, res *engine.Result, c *analysis.Columns) *analysisJob {
	return &analysisJob{of: of, res: res, task: c.Task, threshold: c.Threshold,
		keys: &analysis.Keys{Of: c.Keys.Of, Names: c.Keys.Names}}
}

// run analyses the prompts, once, whoever asks first: the command or a
// test's Settle.
func (j *analysisJob) run() {
	j.once.Do(func() {
		j.analysis = analysis.Analyze(j.res, j.task, j.keys, j.threshold)
		ps := j.analysis.Prompts
		j.mean = make([]float64, len(ps))
		j.status = make([]uint8, len(ps))
		for i := range ps {
			j.mean[i] = meanPassRate(ps[i].History)
			j.status[i] = uint8(slices.Index(analysis.Statuses, ps[i].Status))
		}
		j.counts = j.analysis.Counts()
		j.byName = nameOrder(len(ps), func(i int) string { return ps[i].Key })
		j.cut = common.SharedGroupPrefix(len(ps), func(k int) string { return ps[k].Key })
		for _, b := range j.res.Ranking.Batches {
			j.steps = append(j.steps, b.Step)
		}
		slices.Sort(j.steps)
		j.steps = slices.Compact(j.steps)
		j.done.Store(true)
	})
}
