package engine

// GroupIndex returns trajectory i's group as an index in the evaluation's
// group values (GroupName): a caller keying by group need not hash its
// text once per trajectory.
func (ev *Evaluation) GroupIndex(i int) int32 { return ev.groupOf[i] }

// GroupName returns the group value of index k (GroupIndex).
func (ev *Evaluation) GroupName(k int32) string { return ev.groupNames[k] }

// GroupCount returns how many group values the evaluation has.
func (ev *Evaluation) GroupCount() int { return len(ev.groupNames) }
