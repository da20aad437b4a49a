package prompts

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/internal/pause"
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

	// order is how the tab listed the prompts when the job started.
	order listOrder

	once sync.Once
	done atomic.Bool
	// What the tab shows, set by run: the analysis as listed, the rows
	// listed in order, the steps ascending and the bytes of the prompts'
	// shared start and end.
	listing   listing
	rows      []int
	steps     []int64
	cut, tail int
}

// analyzedMsg says that a job is done.
type analyzedMsg struct{ job *analysisJob }

// newAnalysisJob takes what the analysis of res reads of the columns c,
// and the tab's order of its rows.
func newAnalysisJob(of analysisOf, res *engine.Result, c *analysis.Columns, order listOrder) *analysisJob {
	return &analysisJob{of: of, res: res, task: c.Task, threshold: c.Threshold,
		keys: &analysis.Keys{Of: c.Keys.Of, Names: c.Keys.Names}, order: order}
}

// run analyses the prompts, once, whoever asks first: the command, which
// waits at gate (the Background gate) between its steps, or a test's
// Settle (gate nil).
func (j *analysisJob) run(gate *pause.Gate) {
	j.once.Do(func() {
		gate.Wait()
		a := analysis.Analyze(j.res, j.task, j.keys, j.threshold)
		gate.Wait()
		j.listing = newListing(a)
		j.rows, _ = j.listing.rowsOf(nil, nil, j.order)
		ps := j.listing.analysis.Prompts
		key := func(k int) string { return ps[k].Key }
		j.cut = common.SharedGroupPrefix(len(ps), key)
		j.tail = common.SharedGroupSuffix(len(ps), key, j.cut)
		for _, b := range j.res.Ranking.Batches {
			j.steps = append(j.steps, b.Step)
		}
		slices.Sort(j.steps)
		j.steps = slices.Compact(j.steps)
		j.done.Store(true)
	})
}
