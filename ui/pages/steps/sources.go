package steps

import (
	"slices"

	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/engine/diagnose"
	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/textsafe"
)

// With --source-by, s moves the tab from all the sources to each one in
// turn: the charts are then the source's trends over its own objectives
// (diagnose.SourceTrends), without the hypervolume, whose reference
// point is the whole run's; the health findings stay the run's.

// sourceSeries returns the trends of source src and their charted
// statistics.
func sourceSeries(res *engine.Result, src int) ([]diagnose.Trend, []stepSeries) {
	trends := diagnose.SourceTrends(res, src)
	var objectives []scoring.Objective
	for _, k := range res.Evaluation.SourceObjectives(src) {
		objectives = append(objectives, res.Objectives[k])
	}
	series := stepsSeries(objectives, res.Evaluation.Constraints, trends)
	series = slices.DeleteFunc(series, func(s stepSeries) bool { return s.title == "hypervolume" })
	return trends, series
}

// sourceLegend is what the legend says of the source charted, "" without
// sources.
func (t *stepsTab) sourceLegend() string {
	ev := t.common.Session.Result.Evaluation
	if !ev.HasSources() {
		return ""
	}
	return "source " + textsafe.Line(t.source.Label(ev)) + " (s)"
}
