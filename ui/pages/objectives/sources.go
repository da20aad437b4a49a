package objectives

import (
	tea "charm.land/bubbletea/v2"

	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
)

// With --source-by, s moves the tab from all the sources to each one in
// turn: the statistics, correlation and distributions are then the
// source's, over its own objectives (diagnose.SourceBatchStats).

// refreshSource has the statistics and values of the chosen source, when
// one is, computed off the event loop (Job), and reports whether it is.
func (t *objectivesTab) refreshSource() bool {
	s := t.common.Session
	src := t.source.Source(s.Result.Evaluation)
	t.gen++ // a source's statistics still computed are not wanted
	t.pending, t.job = false, nil
	if src < 0 {
		return false
	}
	res, b, gen := s.Result, s.CurrentBatch(), t.gen
	t.pending = true
	t.job = func() tea.Msg {
		msg := sourceStatsMsg{gen: gen, stats: diagnose.SourceBatchStats(res, b, src)}
		part := diagnose.SourceBatch(res, b, src)
		ks := res.Evaluation.SourceObjectives(src)
		msg.values = make([][]float64, len(ks))
		for j, k := range ks {
			msg.values[j] = common.ValidObjective(res, &part, k)
		}
		return msg
	}
	return true
}

// sourceStatsMsg is job gen's statistics and values of a source.
type sourceStatsMsg struct {
	gen    int
	stats  diagnose.BatchStats
	values [][]float64
}

// Job returns the computation still to run, once: the batch's
// statistics when the session has not computed them, or a source's.
func (t *objectivesTab) Job() func() tea.Msg {
	if job := t.wait.Job(); job != nil {
		return job
	}
	job := t.job
	t.job = nil
	return job
}

// sourceTitle is what the title says of the source shown, "" without
// sources.
func (t *objectivesTab) sourceTitle() string {
	ev := t.common.Session.Result.Evaluation
	if !ev.HasSources() {
		return ""
	}
	st := t.common.Styles
	return st.Muted.Render(" · source ") + st.Value.Render(textsafe.Line(t.source.Label(ev))) + st.Muted.Render(" (s)")
}
