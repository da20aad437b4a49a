package output

import (
	"encoding/json"
	"testing"
)

// TestAppendJSONString checks the fast path against MarshalJSON, and
// that <, > and & are written raw.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "t1", "g 12", `a"b`, `a\b`, "<b>&", "é", "\xff", "\u2028", "tab\there", "\x00", "~\x7f"} {
		want, _ := MarshalJSON(s, "")
		if got := AppendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("AppendJSONString(%q) = %s, want x%s", s, got, want)
		}
	}
	const group = "<|im_start|>user\nA & B<|im_end|>"
	got := AppendJSONString(nil, group)
	if want := `"<|im_start|>user\nA & B<|im_end|>"`; string(got) != want {
		t.Errorf("AppendJSONString(%q) = %s, want %s", group, got, want)
	}
	var back string
	if err := json.Unmarshal(got, &back); err != nil || back != group {
		t.Errorf("%s reads back as %q (%v), want %q", got, back, err, group)
	}
}
