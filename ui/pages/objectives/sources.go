package objectives

import (
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/common"
)

// With --source-by, s moves the tab from all the sources to each one in
// turn: the statistics, correlation and distributions are then the
// source's, over its own objectives (diagnose.SourceBatchStats).

// refreshSource takes the statistics and values of the chosen source,
// when one is, and reports whether it did.
func (t *objectivesTab) refreshSource() bool {
	s := t.common.Session
	src := t.source.Source(s.Result.Evaluation)
	if src < 0 {
		return false
	}
	b := s.CurrentBatch()
	t.stats = diagnose.SourceBatchStats(s.Result, b, src)
	part := diagnose.SourceBatch(s.Result, b, src)
	ks := s.Result.Evaluation.SourceObjectives(src)
	t.values = make([][]float64, len(ks))
	for j, k := range ks {
		t.values[j] = common.ValidObjective(s.Result, &part, k)
	}
	return true
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
