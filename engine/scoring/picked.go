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
	// PickedOther is a string or a bool.
	PickedOther
)

// PickedValue is the value of one picked metadata key.
type PickedValue struct {
	Number float64 // set when Kind is PickedNumber
	Kind   PickedKind
}

// number returns v as toNumber converts the same value in Metadata.
func (v PickedValue) number() (float64, error) {
	switch v.Kind {
	case PickedNumber:
		return v.Number, Finite(v.Number)
	case PickedOther:
		return math.NaN(), ErrNotNumber
	}
	return math.NaN(), ErrMissing
}

// pickedNumber returns the value of the metadata key of a trajectory read
// with a Pick, as toNumber converts the same value in Metadata. A key the
// Pick does not name is absent: the trajectory was read without it.
func (t *Trajectory) pickedNumber(key string) (float64, error) {
	if k := slices.Index(t.Pick.Keys, key); k >= 0 {
		return t.Picked[k].number()
	}
	return math.NaN(), ErrMissing
}
