package scoring

import (
	"math"
	"slices"
)

// Pick names what a scorer reads of a trajectory's body, when that is a
// few metadata keys and maybe the response (ParetoScorer.Pick). A loader
// given a Pick (loaders.Options.Pick) may read those keys' values into
// Trajectory.Picked and leave Metadata nil, and leave Response nil unless
// asked for: building a map per trajectory, its values boxed, took most of
// the time of reading a short JSONL line, and the scorer looks up a
// handful of keys.
type Pick struct {
	Keys []string
	// Response asks for Trajectory.Response.
	Response bool
}

// PickedKind says what a picked metadata value is, as far as a scorer
// cares.
type PickedKind uint8

const (
	// PickedAbsent is a key that the metadata does not have, or null.
	PickedAbsent PickedKind = iota
	// PickedNumber is a number: PickedValue.Number.
	PickedNumber
	// PickedOther is anything else: a string, a list, a map
	// (Trajectory.PickedOthers holds it).
	PickedOther
)

// PickedValue is the value of one picked metadata key.
type PickedValue struct {
	Number float64 // set when Kind is PickedNumber
	Kind   PickedKind
}

// PickedBool is the picked value of the bool b: the number 1 or 0, as
// toNumber counts a bool in Metadata.
func PickedBool(b bool) PickedValue {
	if b {
		return PickedValue{Number: 1, Kind: PickedNumber}
	}
	return PickedValue{Kind: PickedNumber}
}

// pickedAt returns the value of the picked metadata key Pick.Keys[k] of
// t, as toNumber converts the same value in Metadata.
func (t *Trajectory) pickedAt(k int) (float64, error) {
	v := t.Picked[k]
	switch v.Kind {
	case PickedNumber:
		return v.Number, Finite(v.Number)
	case PickedOther:
		return math.NaN(), notNumber(t.PickedOthers[k])
	}
	return math.NaN(), ErrMissing
}

// pickedNumber returns the value of the metadata key of a trajectory read
// with a Pick, as toNumber converts the same value in Metadata. A key the
// Pick does not name is absent: the trajectory was read without it.
func (t *Trajectory) pickedNumber(key string) (float64, error) {
	if k := slices.Index(t.Pick.Keys, key); k >= 0 {
		return t.pickedAt(k)
	}
	return math.NaN(), ErrMissing
}

// SetPickedOther sets t's picked value k to value, which is not a number
// (a string, a list, a map, as Metadata would hold it): kept, for the
// message that says it, in PickedOthers.
func (t *Trajectory) SetPickedOther(k int, value any) {
	t.Picked[k] = PickedValue{Kind: PickedOther}
	if t.PickedOthers == nil {
		t.PickedOthers = map[int]any{}
	}
	t.PickedOthers[k] = value
}
