package engine

import "slices"

// GroupIndex returns trajectory i's group as an index in the evaluation's
// group values (GroupName): a caller keying by group need not hash its
// text once per trajectory.
func (ev *Evaluation) GroupIndex(i int) int32 { return ev.groupOf[i] }

// GroupsRuns reports whether the groups are runs of consecutive
// trajectories (RewardComputer.GroupRuns), so that a group value may name
// several groups, in one batch and GroupIndex apart.
func (ev *Evaluation) GroupsRuns() bool { return ev.groupRuns > 0 }

// GroupName returns the group value of index k (GroupIndex).
func (ev *Evaluation) GroupName(k int32) string { return ev.groupNames[k] }

// GroupCount returns how many group values the evaluation has.
func (ev *Evaluation) GroupCount() int { return len(ev.groupNames) }

// Ungrouped reports whether the evaluation has a trajectory and none has
// a group (each one's is the absent group ""): under ScopeGroup each
// batch (of each source) is then one comparison group.
func (ev *Evaluation) Ungrouped() bool {
	return ev.N() > 0 && !slices.ContainsFunc(ev.groupNames, func(g string) bool { return g != "" })
}

// StepCount returns trajectory i's step_count.
func (ev *Evaluation) StepCount(i int) int64 { return ev.stepCounts[i] }

// SourceIndex returns trajectory i's source as an index in SourceNames,
// -1 when its source could not be evaluated; only with sources.
func (ev *Evaluation) SourceIndex(i int) int32 { return ev.sourceOf[i] }

// SourceWeight returns objective k's weight in source src (an index in
// SourceNames).
func (ev *Evaluation) SourceWeight(src, k int) float64 { return ev.sourceWeights[src][k] }
