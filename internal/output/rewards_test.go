package output

import (
	"encoding/json"
	"testing"
)

// TestAppendJSONString checks the fast path against json.Marshal.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "t1", "g 12", `a"b`, `a\b`, "<b>&", "é", "\xff", "\u2028", "tab\there", "\x00", "~\x7f"} {
		want, _ := json.Marshal(s)
		want = SafeJSON(want)
		if got := AppendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("AppendJSONString(%q) = %s, want x%s", s, got, want)
		}
	}
}
