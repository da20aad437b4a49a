package jsonread

import (
	"fmt"

	"github.com/rewardlens/rewardlens/engine/scoring"
)

// brief describes a trajectory for test messages, as loaders' tests do.
func brief(t scoring.Trajectory) string {
	resp := "nil"
	if t.Response != nil {
		resp = string(t.Response)
	}
	return fmt.Sprintf("id=%q batch=%d group=%q steps=%d resp=%s done=%t meta=%#v at %s:%d",
		t.ID, t.Batch, t.Group, t.StepCount, resp, t.Done, t.Metadata, t.Source, t.Line)
}

// pickedValue returns what a loader picks for the value of key in md.
func pickedValue(md map[string]any, key string) scoring.PickedValue {
	switch x := md[key].(type) {
	case nil:
		return scoring.PickedValue{}
	case float64:
		return scoring.PickedValue{Number: x, Kind: scoring.PickedNumber}
	case bool: // counts 1 or 0
		if x {
			return scoring.PickedValue{Number: 1, Kind: scoring.PickedNumber}
		}
		return scoring.PickedValue{Kind: scoring.PickedNumber}
	}
	return scoring.PickedValue{Kind: scoring.PickedOther}
}
