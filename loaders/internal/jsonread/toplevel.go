package jsonread

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/rewardlens/rewardlens/engine/scoring"
	"github.com/rewardlens/rewardlens/internal/jsonscan"
)

// A JSON record's top-level fields that are not trajectory fields (verl's
// input, output, score, step and reward_extra_info keys; any trainer's own
// columns) go into its metadata, as CSV and Parquet columns do, so that
// expressions read them by bare name: a scalar as a metadata value, an
// object or an array as its JSON text (a string). A top-level field that
// is also a key of the record's metadata object is an error: which of the
// two an expression meant cannot be told.

// topLevelMetadata adds the unknown top-level members extra of a record, in
// order (of duplicates the last wins, as for every field), to m, which
// holds the record's metadata object.
func (o jsonText) topLevelMetadata(m map[string]any, extra []member) error {
	for i, mem := range extra {
		key := unquote(mem.key)
		if slices.ContainsFunc(extra[i+1:], func(later member) bool { return unquote(later.key) == key }) {
			continue // a later duplicate wins
		}
		if _, clash := m[key]; clash {
			return fmt.Errorf("field %q is also a key of metadata: rename one of them", key)
		}
		m[key] = o.value(mem.value).topLevel()
	}
	return nil
}

// topLevel returns the metadata value of an unknown top-level field: a
// scalar as scalar does, an object or an array as its JSON text.
func (v jsonValue) topLevel() any {
	if c := v.raw[0]; c == '{' || c == '[' {
		return string(v.response())
	}
	x, _ := v.scalar() // cannot fail on anything but an object or array
	return x
}

// plainExtras adds the unknown top-level members that plainObject recorded
// in p.extra to t as topLevelMetadata does, or, when t has a Pick, sets
// the picked keys among them; it reports false, leaving the line to the
// general path, for what that path alone handles: a key with escapes, a
// duplicate or a clash with a metadata key (with a Pick, any record that
// also has metadata).
func (p *lineParser) plainExtras(t *scoring.Trajectory, metadata []byte) bool {
	if t.Pick != nil && metadata != nil && string(metadata) != "null" {
		return false // a clash with a metadata key not picked cannot be seen
	}
	for _, m := range p.extra {
		name := m.key[1 : len(m.key)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		if t.Pick != nil {
			k := slices.IndexFunc(t.Pick.Keys, func(key string) bool { return key == string(name) })
			if k < 0 {
				continue
			}
			v, ok := pickedOf(m.value)
			switch {
			case !ok:
				return false
			case v.Kind == scoring.PickedOther:
				t.SetPickedOther(k, jsonValue{raw: m.value}.topLevel())
			default:
				t.Picked[k] = v
				delete(t.PickedOthers, k) // a key given twice: the last value is its
			}
			continue
		}
		key := unquote(m.key) // invalid UTF-8 reads as U+FFFD, as on the general path
		if _, clash := t.Metadata[key]; clash {
			return false
		}
		t.Metadata[key] = jsonValue{raw: m.value}.topLevel()
	}
	return true
}

// pickedOf returns raw, a valid JSON value, as a picked value: a number,
// a bool as 1 or 0, null as absent, anything else as a string would be.
func pickedOf(raw []byte) (scoring.PickedValue, bool) {
	switch c := raw[0]; {
	case c == '-' || isDigit(c):
		end, x, ok := jsonscan.Number(raw, 0)
		return scoring.PickedValue{Number: x, Kind: scoring.PickedNumber}, ok && end == len(raw)
	case c == 't':
		return scoring.PickedValue{Number: 1, Kind: scoring.PickedNumber}, true
	case c == 'f':
		return scoring.PickedValue{Kind: scoring.PickedNumber}, true
	case c == 'n':
		return scoring.PickedValue{Kind: scoring.PickedAbsent}, true
	}
	return scoring.PickedValue{Kind: scoring.PickedOther}, true
}
