package engine

// GroupIndex returns trajectory i's group as an index in the evaluation's
// group values (GroupName): a caller keying by group need not hash its
// text once per trajectory.
func (ev *Evaluation) GroupIndex(i int) int32 { return ev.groupOf[i] }

// GroupName returns the group value of index k (GroupIndex).
func (ev *Evaluation) GroupName(k int32) string { return ev.groupNames[k] }

// GroupCount returns how many group values the evaluation has.
func (ev *Evaluation) GroupCount() int { return len(ev.groupNames) }

// Text evaluates e on t as text, as a record field set by expression is
// (RecordFields.Apply: a string as it is, a number as its shortest decimal
// text, a bool as true or false); a missing value or another type is an
// error. t must not have been read with a Pick.
func (e *Expression) Text(t *Trajectory) (string, error) { return textValue(e, t) }
