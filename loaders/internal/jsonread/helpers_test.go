package jsonread

import (
	"fmt"

	"github.com/rewardlens/rewardlens/engine"
)

// brief describes a trajectory for test messages, as loaders' tests do.
func brief(t engine.Trajectory) string {
	resp := "nil"
	if t.Response != nil {
		resp = string(t.Response)
	}
	return fmt.Sprintf("id=%q batch=%d group=%q steps=%d resp=%s done=%t meta=%#v at %s:%d",
		t.ID, t.Batch, t.Group, t.StepCount, resp, t.Done, t.Metadata, t.Source, t.Line)
}

// pickedValue returns what a loader picks for the value of key in md.
func pickedValue(md map[string]any, key string) engine.PickedValue {
	switch x := md[key].(type) {
	case nil:
		return engine.PickedValue{}
	case float64:
		return engine.PickedValue{Number: x, Kind: engine.PickedNumber}
	case bool: // counts 1 or 0
		if x {
			return engine.PickedValue{Number: 1, Kind: engine.PickedNumber}
		}
		return engine.PickedValue{Kind: engine.PickedNumber}
	}
	return engine.PickedValue{Kind: engine.PickedOther}
}
