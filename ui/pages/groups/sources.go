package groups

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/internal/textsafe"
	"github.com/rewardlens/rewardlens/ui/components/table"
)

// With --source-by, the groups' table has a source column after the
// group's: sorted by it (s), the groups come source by source, in the
// order the sources were met; the filter (/) matches a source's name too.
// Groups never mix sources (engine's comparison groups).

// setColumns sets the table's columns for ev: groupColumns, and with
// sources the source column after the group's, which sorts by the
// source's index in SourceNames (read from the result shown).
func (t *groupsTab) setColumns(ev *engine.Evaluation) {
	want := len(groupColumns)
	if ev.HasSources() {
		want++
	}
	if len(t.columns) == want {
		return
	}
	t.columns = forOptions(groupColumns, t.options)
	if ev.HasSources() {
		source := groupColumn{"source", func(g *diagnose.GroupSummary, _ *diagnose.RewardRange) float64 {
			if len(g.Members) == 0 {
				return -1
			}
			ev := t.common.Session.Result.Evaluation
			return float64(slices.Index(ev.SourceNames, ev.SourceOf(g.Members[0])))
		}, sourceColumn}
		t.columns = slices.Insert(t.columns, 1, source)
	}
	t.list.SortColumn = min(t.list.SortColumn, len(t.columns)-1)
	t.measured.cols = nil
	t.measured.of = measuredOf{}
}

// sourceOf returns the source of the trajectories of group g, "" without
// sources.
func (t *groupsTab) sourceOf(g int) string {
	members := t.summaries[g].Members
	if len(members) == 0 {
		return ""
	}
	return t.common.Session.Result.Evaluation.SourceOf(members[0])
}

// sourceTableColumn is the source column of the n listed groups, untitled:
// listed(j) and measured(j) as in measureColumn.
func (t *groupsTab) sourceTableColumn(n int, listed, measured func(j int) int) table.Column {
	col := table.TextColumn("", n, maxGroupKeyWidth/2, func(j int) string { return textsafe.Line(t.sourceOf(measured(j))) })
	col.Cell = func(j int) string { return textsafe.Line(t.sourceOf(listed(j))) }
	return col
}
