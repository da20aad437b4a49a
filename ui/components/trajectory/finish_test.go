package trajectory

import "testing"

// TestFinishOf: the first finish field a record has says how its
// completion ended; "length" (any case) and true are cut at the length
// limit, other values not; a record without one has none.
func TestFinishOf(t *testing.T) {
	for _, c := range []struct {
		md   map[string]any
		want Finish
		ok   bool
	}{
		{map[string]any{"finish_reason": "stop"}, Finish{"finish_reason", "stop", false}, true},
		{map[string]any{"finish_reason": "LENGTH", "truncated": false}, Finish{"finish_reason", "LENGTH", true}, true},
		{map[string]any{"stop_reason": nil}, Finish{"stop_reason", "null", false}, true},
		{map[string]any{"truncated": true}, Finish{"truncated", "true", true}, true},
		{map[string]any{"is_truncated": false}, Finish{"is_truncated", "false", false}, true},
		{map[string]any{"reason": "length"}, Finish{}, false},
	} {
		if got, ok := FinishOf(c.md); got != c.want || ok != c.ok {
			t.Errorf("FinishOf(%v) = %+v, %v; want %+v, %v", c.md, got, ok, c.want, c.ok)
		}
	}
}
