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
// one is, computed off the event loop (wait's job), and reports whether
// it is.
func (t *objectivesTab) refreshSource() bool {
	s := t.common.Session
	src := t.source.Source(s.Result.Evaluation)
	if src < 0 {
		return false
	}
	res, b := s.Result, s.CurrentBatch()
	t.wait.WaitFor("the source's statistics", func() any {
		out := sourceStats{stats: diagnose.SourceBatchStats(res, b, src)}
		part := diagnose.SourceBatch(res, b, src)
		ks := res.Evaluation.SourceObjectives(src)
		out.values = make([][]float64, len(ks))
		for j, k := range ks {
			out.values[j] = common.ValidObjective(res, &part, k)
		}
		return out
	})
	return true
}

// sourceStats is a source's statistics and values, which its job gives
// back in common.StatsReadyMsg.Value.
type sourceStats struct {
	stats  diagnose.BatchStats
	values [][]float64
}

// Job implements common.Worker: the statistics waited for, the batch's
// when the session has not computed them or a source's.
func (t *objectivesTab) Job() func() tea.Msg { return t.wait.Job() }

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
