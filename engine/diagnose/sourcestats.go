package diagnose

import (
	"github.com/rewardlens/rewardlens/engine"
	"github.com/rewardlens/rewardlens/stats"
)

// SourceStats are the statistics of one source's trajectories in a batch:
// its objectives' raw values, the scores and the rewards, over its valid
// trajectories.
type SourceStats struct {
	Source string
	// Trajectories counts the valid, the Invalid and the Dropped, as
	// BatchStats does.
	Trajectories, Invalid, Dropped int
	Objectives                     []ObjectiveStats
	Score, Reward                  stats.Summary
}

// SourceStatsOf returns the statistics of batch b split by source, in the
// order of SourceNames (nil without sources). A trajectory whose source
// could not be evaluated counts in none.
func SourceStatsOf(res *engine.Result, b *engine.Batch) []SourceStats {
	if !res.Evaluation.HasSources() {
		return nil
	}
	res.ComputeBatchOf(b)
	members := make([][]int, len(res.Evaluation.SourceNames))
	for _, i := range b.Members {
		if src := res.Evaluation.SourceIndex(i); src >= 0 {
			members[src] = append(members[src], i)
		}
	}
	var out []SourceStats
	for src, idx := range members {
		if len(idx) == 0 {
			continue
		}
		valid := engine.ValidMembers(nil, idx, res.Evaluation.Valid)
		dropped := res.Evaluation.DroppedIn(idx)
		st := SourceStats{Source: res.Evaluation.SourceNames[src], Trajectories: len(idx), Invalid: len(idx) - len(valid) - dropped, Dropped: dropped}
		for _, k := range res.Evaluation.SourceObjectives(src) {
			column, missing, _ := objectiveColumn(make([]float64, len(valid)), res.Evaluation, valid, k)
			o := res.Objectives[k]
			o.Weight = res.Evaluation.SourceWeight(src, k)
			st.Objectives = append(st.Objectives, ObjectiveStats{Objective: o, Summary: summarizePresent(column), Missing: missing})
		}
		st.Score = summarizeOf(res, res.Scores, valid)
		st.Reward = summarizeOf(res, res.Rewards, valid)
		out = append(out, st)
	}
	return out
}
